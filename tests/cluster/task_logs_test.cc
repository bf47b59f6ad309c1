// `mr logs JOB [TASK]` on a real cluster with a cluster token (issue 32): a streaming
// mapper's and reducer's stderr and the worker's lines about each attempt, read after the
// job has ended (its directory on the worker is gone, its logs are not) from the worker
// that ran it over the shuffle port, authenticated; a log larger than one piece streams
// whole and in order; a log past its cap stops with a line saying so; unknown jobs and
// tasks are exit 2 with one line; a worker that is gone is a line in place of its log and
// exit 3, not a hang; --follow streams a running attempt's log until it ends.
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "shuffle/task_log.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/common/wait.h"

namespace mr::testing {
namespace {

// Each map writes its task id and three numbered lines to stderr and passes its records on.
constexpr const char* kChattyMapper =
    "echo \"mapper stderr of $mapreduce_task_id\" >&2; for i in 1 2 3; do echo \"line $i\" >&2; done; cat";
constexpr const char* kChattyReducer = "echo 'reducer says hello' >&2; cat";
// 20000 lines of 31 bytes (620000 bytes: more than two pieces of kTaskLogChunkBytes).
constexpr const char* kLongMapper =
    "cat >/dev/null; awk 'BEGIN { for (i = 0; i < 20000; i++) printf \"long log line number %09d\\n\", i }' >&2";
// 2 MiB of stderr, past the 1 MiB cap.
constexpr const char* kFloodMapper =
    "cat >/dev/null; awk 'BEGIN { for (i = 0; i < 65536; i++) printf \"flood line number %013d\\n\", i }' >&2";

class TaskLogsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir("mr-task-logs-test");
    const std::string d = tmp_->path();
    std::ofstream(d + "/in.txt") << "a b\nc d\ne f\n";
    std::ofstream(d + "/token") << "logs-test-secret\n";
    ::chmod((d + "/token").c_str(), 0600);
    cluster_ = new DirectCluster(d);
    ASSERT_TRUE(cluster_->StartMaster({"--heartbeat-ms", "20", "--token-file", d + "/token"}));
    cluster_->StartWorker({"--token-file", d + "/token", "--map-slots", "2", "--reduce-slots", "1"});
    ASSERT_TRUE(WaitUntil([] { return Mr("status").out.find("1 worker") != std::string::npos; }, 30, 0.1))
        << Mr("status").err;
  }
  static void TearDownTestSuite() {
    delete cluster_;
    delete tmp_;
  }
  static CommandResult Mr(const std::string& args) {
    return cluster_->Mr(args + " --token-file " + ShellQuote(tmp_->path() + "/token"));
  }
  // Runs a streaming job on in.txt (one map) and returns its id.
  static std::string RunStreaming(const std::string& mapper, const std::string& reducer, const std::string& out) {
    auto run = Mr("run streaming --quiet --mapper " + ShellQuote(mapper) +
                  (reducer.empty() ? std::string(" --reducers 0") : " --reducers 1 --reducer " + ShellQuote(reducer)) +
                  " --input " + tmp_->path() + "/in.txt --output " + tmp_->path() + "/" + out);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    std::smatch m;
    if (!std::regex_search(run.out, m, std::regex("job-[0-9]{6}"))) return "";
    return m[0].str();
  }

  static TempDir* tmp_;
  static DirectCluster* cluster_;
};
TempDir* TaskLogsTest::tmp_ = nullptr;
DirectCluster* TaskLogsTest::cluster_ = nullptr;

TEST_F(TaskLogsTest, AFinishedJobsStreamingStderrAndTheWorkersLines) {
  const std::string job = RunStreaming(kChattyMapper, kChattyReducer, "chatty");
  ASSERT_FALSE(job.empty());
  // The job has ended: its directory on the worker goes (at the worker's next heartbeat),
  // its logs are kept.
  const uint64_t id = std::stoull(job.substr(4));
  const std::string work = tmp_->path() + "/w0";
  EXPECT_TRUE(WaitUntil([&] { return !PathExists(work + "/j" + std::to_string(id)); }, 10, 0.02));

  auto map = Mr("logs " + job + " m-00000");
  ASSERT_EQ(map.exit_code, 0) << map.out << map.err;
  EXPECT_TRUE(std::regex_search(map.out, std::regex("^==> " + job + R"( m-00000 attempt [0-9]+ \(SUCCEEDED\) on w1 \(\S+\) <==\n)")))
      << map.out;
  // The child's lines, as it wrote them, between the worker's first and last line.
  const std::regex body(R"(\[mr [0-9:.]+\] map m-00000 attempt [0-9]+ of )" + job +
                        R"( starts: split \S+in\.txt bytes 0\+12\n)"
                        R"(mapper stderr of task_\S+_m_000000\nline 1\nline 2\nline 3\n)"
                        R"(\[mr [0-9:.]+\] attempt SUCCEEDED after [0-9.]+ s: 3 records in \(12 bytes\), 3 records out)");
  EXPECT_TRUE(std::regex_search(map.out, body)) << map.out;
  EXPECT_EQ(map.out.find("r-00000"), std::string::npos) << "TASK selects one task's attempts";

  // Every attempt of the job: the map's, then the reduce's with its own stderr.
  auto all = Mr("logs " + job);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const size_t m0 = all.out.find(" m-00000 attempt ");
  const size_t r0 = all.out.find(" r-00000 attempt ");
  ASSERT_NE(m0, std::string::npos) << all.out;
  ASSERT_NE(r0, std::string::npos) << all.out;
  EXPECT_LT(m0, r0);
  EXPECT_NE(all.out.find("\nreducer says hello\n", r0), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("of " + job + " starts: the runs of 1 map\n", r0), std::string::npos) << all.out;

  // --tail: the last lines of each log.
  auto tail = Mr("logs " + job + " m-00000 --tail 2");
  ASSERT_EQ(tail.exit_code, 0) << tail.err;
  EXPECT_TRUE(std::regex_search(tail.out, std::regex(R"(<==\nline 3\n\[mr [0-9:.]+\] attempt SUCCEEDED [^\n]*\n$)")))
      << tail.out;
  auto none = Mr("logs " + job + " m-00000 --attempt 99");
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.err.find("no attempt 99 of m-00000 in " + job), std::string::npos) << none.err;
}

TEST_F(TaskLogsTest, UnknownJobsAndTasksAreExit2WithOneLine) {
  const std::string job = RunStreaming("cat", "", "maponly");
  ASSERT_FALSE(job.empty());
  struct Case {
    std::string args, says;
  } cases[] = {
      {"logs job-000999", "mr: logs: no job job-000999\n"},
      {"logs " + job + " m-00042", "mr: logs: no attempt of m-00042 in " + job + " yet\n"},
      {"logs " + job + " r-00000", "mr: logs: no attempt of r-00000 in " + job + " yet\n"},  // map-only
      {"logs " + job + " mapper-3", "mr: logs: bad task 'mapper-3' (a map is m-00003, a reduce r-00001)\n"},
      {"logs jobby", "mr: logs: bad job id 'jobby' (e.g. job-000001)\n"},
  };
  for (const Case& c : cases) {
    auto r = Mr(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out << r.err;
    EXPECT_EQ(r.err, c.says) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST_F(TaskLogsTest, ALogLargerThanAPieceStreamsWholeAndInOrder) {
  const std::string job = RunStreaming(kLongMapper, "", "long");
  ASSERT_FALSE(job.empty());
  auto r = Mr("logs " + job + " m-00000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  int next = 0;
  while (std::getline(in, line)) {
    if (line.rfind("long log line number ", 0) != 0) continue;
    char want[40];
    std::snprintf(want, sizeof want, "long log line number %09d", next);
    ASSERT_EQ(line, want) << "a line lost, repeated or out of order";
    ++next;
  }
  EXPECT_EQ(next, 20000);
  EXPECT_GT(r.out.size(), 2u * shuffle::kTaskLogChunkBytes);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\[mr [0-9:.]+\] attempt SUCCEEDED [^\n]*\n$)"))) << r.out.substr(r.out.size() - 300);
}

TEST_F(TaskLogsTest, ALogStopsAtItsCapAndSaysSo) {
  const std::string job = RunStreaming(kFloodMapper, "", "flood");
  ASSERT_FALSE(job.empty());
  auto r = Mr("logs " + job + " m-00000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(r.out.size(), shuffle::kTaskLogCapBytes + 4096);
  EXPECT_GT(r.out.size(), shuffle::kTaskLogCapBytes);
  EXPECT_NE(r.out.find("flood line number 0000000000000\n"), std::string::npos);
  EXPECT_EQ(r.out.find("flood line number 0000000065535"), std::string::npos) << "the end is past the cap";
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\[mr [0-9:.]+\] this attempt's log reached its cap of 1048576 bytes)")));
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\[mr [0-9:.]+\] [0-9]+ bytes of the task's stderr were dropped)")));
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\[mr [0-9:.]+\] attempt SUCCEEDED [^\n]*\n$)")));
}

// `mr logs --follow` on a running attempt prints its lines as they are written and returns
// when the attempt ends: each line is stamped as the pipe delivers it, and the first comes
// out well before the last was written.
TEST_F(TaskLogsTest, FollowStreamsARunningAttemptsLogUntilItEnds) {
  const std::string d = tmp_->path();
  auto submit = Mr("submit streaming --reducers 0 --mapper " +
                   ShellQuote("cat >/dev/null; echo first >&2; sleep 3; echo second >&2; sleep 1; echo third >&2") +
                   " --input " + d + "/in.txt --output " + d + "/follow");
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(submit.out, m, std::regex("job-[0-9]{6}"))) << submit.out;
  const std::string job = m[0].str();
  ASSERT_TRUE(WaitUntil([&] {
    auto r = Mr("logs " + job + " m-00000");
    return r.out.find("(RUNNING)") != std::string::npos && r.out.find("\nfirst\n") != std::string::npos;
  }, 30, 0.05)) << Mr("logs " + job + " m-00000").out;
  auto f = Sh(MrBin() + " logs " + job + " m-00000 --follow --master " + cluster_->addr() + " --token-file " +
              ShellQuote(d + "/token") + " | while IFS= read -r l; do echo \"$(date +%s.%N) $l\"; done");
  ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
  EXPECT_TRUE(std::regex_search(f.out, std::regex(R"(==> )" + job + R"( m-00000 attempt [0-9]+ \(RUNNING\) on w1)"))) << f.out;
  auto stamp = [&](const std::string& line) {
    std::smatch at;
    EXPECT_TRUE(std::regex_search(f.out, at, std::regex(R"((^|\n)([0-9.]+) )" + line + "\n"))) << line << "\n" << f.out;
    return at.size() > 2 ? std::stod(at[2].str()) : 0.0;
  };
  const double first = stamp("first"), second = stamp("second"), third = stamp("third");
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  EXPECT_GT(third - first, 2.0) << "printed as written (4 s apart), not all at the end";
  EXPECT_TRUE(std::regex_search(f.out, std::regex(R"([0-9.]+ \[mr [0-9:.]+\] attempt SUCCEEDED [^\n]*\n$)"))) << f.out;
}

// Last: it stops the worker.
TEST_F(TaskLogsTest, AWorkerThatIsGoneIsALineNotAHang) {
  const std::string job = RunStreaming(kChattyMapper, "", "gone");
  ASSERT_FALSE(job.empty());
  cluster_->KillWorker(0);
  const auto start = std::chrono::steady_clock::now();
  auto r = Mr("logs " + job + " m-00000");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(<==\n\((cannot read this log from w1 \(\S+\): .*refused|worker w1 is no longer in the cluster: its logs went with it)\)\n$)")))
      << r.out;
  EXPECT_EQ(r.err, "mr: logs: 1 of 1 attempt logs could not be read\n");
  EXPECT_LT(took, 20) << "bounded by the client's timeouts";
}

}  // namespace
}  // namespace mr::testing
