// Issue 11, tasks that fail, hang or carry huge records, on real processes over loopback:
//  - a course lab's crash test: a streaming mapper that exits 1 on its first tries on a
//    two-worker cluster blacklisted both workers and the job stayed RUNNING forever;
//  - a streaming mapper that never makes progress is killed after --task-timeout and
//    retried, and the job fails with the reason once every attempt hung;
//  - a 100 MB single-line record sorts, counts and greps correctly (the sort's cut points
//    used to carry the line into every assignment, past the frame limit: a hang).
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

class TaskFaultsTest : public ::testing::Test {
 protected:
  void Start(const std::vector<std::string>& master_flags, int workers) {
    std::vector<std::string> flags = {"--worker-timeout", "3", "--heartbeat-ms", "20"};
    flags.insert(flags.end(), master_flags.begin(), master_flags.end());
    ASSERT_TRUE(c_.StartMaster(flags)) << c_.MasterLogs();
    for (int i = 0; i < workers; ++i) c_.StartWorker();
  }
  // `mr run ARGS` on the cluster, bounded: a stuck job fails the test instead of hanging it.
  CommandResult Run(const std::string& args, int timeout_seconds) {
    return Sh("timeout " + std::to_string(timeout_seconds) + " " + MrBin() + " run " + args +
              " --quiet --master " + c_.addr());
  }
  // "same" if the job's parts, concatenated (and passed through `filter`), are
  // byte-identical to what `reference` (a shell command) prints.
  std::string CompareParts(const std::string& out_dir, const std::string& reference, const std::string& filter = "cat") {
    return Sh("cat " + out_dir + "/part-r-* | " + filter + " > " + d_ + "/got && " + reference + " > " + d_ + "/want && cmp " + d_ +
              "/got " + d_ + "/want && echo same; rm -f " + d_ + "/got " + d_ + "/want")
        .out;
  }
  void WriteLines(const std::string& path) {
    std::string text;
    for (int i = 0; i < 300; ++i) text += "line " + std::to_string((i * 7919) % 1000) + "\n";
    ASSERT_TRUE(WriteStringToFile(path, text).ok());
  }

  TempDir tmp_{"mr-task-faults-test"};
  std::string d_ = tmp_.path();
  DirectCluster c_{tmp_.path()};
};

// The mapper exits 1 on the job's first six attempts (a counter file), then works: on two
// workers each fails three times, the blacklisting threshold. Before the fix both workers
// were blacklisted for the job, no map could be placed and `mr run` never returned.
TEST_F(TaskFaultsTest, LabMapperThatFailsItsFirstTriesSucceedsOnTwoWorkers) {
  Start({"--max-attempts", "10"}, 2);
  const std::string in = d_ + "/in.txt", counter = d_ + "/tries";
  WriteLines(in);
  const std::string script = d_ + "/flaky.sh";
  ASSERT_TRUE(WriteStringToFile(script, "n=$(cat " + counter + " 2>/dev/null || echo 0)\n"
                                        "echo $((n + 1)) > " + counter + "\n"
                                        "if [ \"$n\" -lt 6 ]; then cat >/dev/null; exit 1; fi\n"
                                        "exec cat\n").ok());
  auto r = Run("streaming --mapper 'sh " + script + "' --input " + in + " --output " + d_ + "/out --reducers 1", 60);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << c_.MasterLogs();
  EXPECT_EQ(SortedOutput(d_ + "/out"), Sh("LC_ALL=C sort " + in).out);
  EXPECT_EQ(ReadFile(counter), "7\n");  // six failures, then the attempt that succeeded
}

// The hung mapper's `sleep`, found by its own argv: the shell's argv carries the whole
// command, the child's only `sleep MARKER`, and a kill that reached the shell alone would
// leave the child behind (its parent gone, it is not a zombie but a live orphan).
std::vector<int> HungSleeps(const std::string& marker) {
  std::vector<int> found;
  for (int pid : ProcessesMentioning(marker)) {
    auto args = ProcessArgs(pid);
    if (args.size() == 2 && args[0] == "sleep" && args[1] == marker) found.push_back(pid);
  }
  return found;
}

// Every attempt hangs (reads its input, then sleeps): each is killed after the 2 s task
// timeout and the job fails after its two attempts, naming the timeout. The killed
// commands are gone, the shell's `sleep` child with them, and both workers still serve.
TEST_F(TaskFaultsTest, HungMapperIsKilledAndTheJobFailsWithTheReason) {
  Start({"--max-attempts", "2", "--task-timeout", "2s"}, 2);
  const std::string in = d_ + "/in.txt";
  WriteLines(in);
  // A sleep of 1000 s whose argument no other process carries (this test process's pid).
  const std::string marker = "1000." + std::to_string(::getpid());
  const std::string hang = "cat >/dev/null; sleep " + marker + " && echo " + d_;
  auto start = std::chrono::steady_clock::now();
  auto run = std::async(std::launch::async, [&] {
    return Run("streaming --mapper '" + hang + "' --input " + in + " --output " + d_ + "/out", 60);
  });
  // The child must be seen alive, or its absence at the end would prove nothing.
  const bool seen = WaitUntil([&] { return !HungSleeps(marker).empty(); }, 30, 0.02);
  auto r = run.get();
  const double took = Seconds(start);
  EXPECT_TRUE(seen) << "the mapper's sleep never ran";
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 124) << "mr run did not return: the hung attempts were not killed";
  EXPECT_NE((r.out + r.err).find("no progress for 2 s"), std::string::npos) << r.out << r.err;
  EXPECT_LT(took, 30) << "two 2 s timeouts should end the job in seconds";
  EXPECT_TRUE(WaitUntil([&] { return HungSleeps(marker).empty(); }, 2))
      << "the hung command's sleep survived the kill (only its shell was killed?)";
  EXPECT_TRUE(ProcessesMentioning(hang).empty()) << "the hung command's shell survived the kill";
  for (int pid : HungSleeps(marker)) ::kill(pid, SIGKILL);  // leave nothing behind on failure
  // The workers were not harmed: a normal job runs.
  auto ok = Run("streaming --mapper cat --input " + in + " --output " + d_ + "/out2", 60);
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err << c_.MasterLogs();
  EXPECT_EQ(SortedOutput(d_ + "/out2"), Sh("LC_ALL=C sort " + in).out);
}

// Only the first attempt hangs (a marker file): it is killed and the retry succeeds with
// the exact output.
TEST_F(TaskFaultsTest, FirstAttemptHangsRetrySucceeds) {
  Start({"--max-attempts", "2", "--task-timeout", "2s"}, 2);
  const std::string in = d_ + "/in.txt", marker = d_ + "/hung-once";
  WriteLines(in);
  const std::string mapper = "if [ -e " + marker + " ]; then cat; else touch " + marker + "; sleep 1000; fi";
  auto r = Run("streaming --mapper '" + mapper + "' --input " + in + " --output " + d_ + "/out", 60);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << c_.MasterLogs();
  EXPECT_EQ(SortedOutput(d_ + "/out"), Sh("LC_ALL=C sort " + in).out);
}

// A 100 MB line among short ones: sort (two reducers, so cut points are sampled from it),
// word count, grep and streaming all give exact output. The file is generated here and
// removed with the test's directory.
TEST_F(TaskFaultsTest, HundredMegabyteLineSortsCountsAndGreps) {
  Start({}, 2);
  const std::string in = d_ + "/big.txt";
  const size_t repeats = (100u << 20) / 18;  // "lorem ipsum dolor " is 18 bytes
  ASSERT_EQ(Sh("{ printf 'zeta one\\nalpha two\\n'; yes 'lorem ipsum dolor' | head -n " + std::to_string(repeats) +
               " | tr '\\n' ' '; printf '\\nmid three\\nlorem last\\n'; } > " + in).exit_code, 0);
  ASSERT_GT(Sh("wc -c < " + in).out.size(), 0u);

  auto sort = Run("sort --input " + in + " --output " + d_ + "/sorted --reducers 2", 240);
  ASSERT_EQ(sort.exit_code, 0) << sort.out << sort.err << c_.MasterLogs();
  EXPECT_EQ(CompareParts(d_ + "/sorted", "LC_ALL=C sort " + in), "same\n");

  auto wc = Run("wordcount --input " + in + " --output " + d_ + "/wc --reducers 2", 240);
  ASSERT_EQ(wc.exit_code, 0) << wc.out << wc.err;
  const std::string n = std::to_string(repeats);
  EXPECT_EQ(SortedOutput(d_ + "/wc"), "alpha\t1\ndolor\t" + n + "\nipsum\t" + n + "\nlast\t1\nlorem\t" +
                                          std::to_string(repeats + 1) + "\nmid\t1\none\t1\nthree\t1\ntwo\t1\nzeta\t1\n");

  auto grep = Run("grep --pattern dolor --input " + in + " --output " + d_ + "/grep --reducers 1", 240);
  ASSERT_EQ(grep.exit_code, 0) << grep.out << grep.err;
  // Grep writes "path:offset\tline".
  EXPECT_EQ(CompareParts(d_ + "/grep", "grep dolor " + in, "cut -f2-"), "same\n");

  auto stream = Run("streaming --mapper cat --input " + in + " --output " + d_ + "/stream --reducers 1", 240);
  ASSERT_EQ(stream.exit_code, 0) << stream.out << stream.err;
  EXPECT_EQ(CompareParts(d_ + "/stream", "LC_ALL=C sort " + in), "same\n");
}

}  // namespace
}  // namespace mr::testing
