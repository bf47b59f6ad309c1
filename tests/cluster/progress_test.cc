// `mr run`'s progress on real jobs: the line rewritten in place (\r, erase line) when stderr
// is a terminal — a pseudo-terminal of 80 columns here — with rate and time left and nothing
// cut; plain lines with the same fields and no control characters when piped; the job's
// page URL on stderr when the master serves a status page. The line's layout at each width
// is tested on hand-built statuses in tests/cli/progress_line_test.cc.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <regex>
#include <set>

#include "common/clock.h"
#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

// Runs `mr ARGS` with a pseudo-terminal of `columns` columns as its stdin, stdout and
// stderr; returns all it wrote and sets *exit_code.
std::string RunOnTerminal(const std::vector<std::string>& args, int columns, int* exit_code) {
  std::string bin = MrBin();
  std::vector<std::string> copy = args;
  std::vector<char*> argv = {bin.data()};
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  struct winsize ws {};
  ws.ws_col = static_cast<unsigned short>(columns);
  ws.ws_row = 40;
  int fd = -1;
  pid_t pid = forkpty(&fd, nullptr, nullptr, &ws);
  if (pid == 0) {
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  std::string out;
  if (pid < 0) return out;
  char buf[4096];
  double deadline = MonotonicSeconds() + 180;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has exited and closed the terminal
    }
    if (MonotonicSeconds() > deadline) break;
  }
  close(fd);
  int status = 0;
  waitpid(pid, &status, 0);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

// Each drawing of the line: what follows a "\r\033[K" up to the next \r or \n.
std::vector<std::string> DrawnLines(const std::string& tty) {
  std::vector<std::string> lines;
  const std::string mark = "\r\033[K";
  for (size_t at = tty.find(mark); at != std::string::npos; at = tty.find(mark, at + 1)) {
    size_t start = at + mark.size();
    size_t end = tty.find_first_of("\r\n", start);
    lines.push_back(tty.substr(start, end == std::string::npos ? std::string::npos : end - start));
  }
  return lines;
}

// A whole line of the 80-column kind: state, the three phases in short, the moving phase's
// rate, time left while running, elapsed time, each padded to its place — ending with a
// whole field.
const std::regex kWholeLine(
    R"(^(RUNNING|SUCCEEDED) +m[0-9]+% s[0-9]+% r[0-9]+%)"
    R"(( +(read|fetch|merge)( [0-9.]+/[0-9.]+ (B|KiB|MiB|GiB))?( (at )?[0-9.]+ (B|KiB|MiB|GiB)/s)?)?)"
    R"(( +ETA (--|[0-9]+:[0-9]{2}(:[0-9]{2})?))? +[0-9]+:[0-9]{2}(:[0-9]{2})?$)");
const std::regex kRate(R"( (read|fetch|merge) [0-9.]+ (B|KiB|MiB|GiB)/s  )");
const std::regex kTimeLeft(R"(  ETA [0-9]+:[0-9]{2}  )");

// Acceptance of issue 16: at 80 columns the line shows a rate and the time left, is never
// cut, and ends on the state SUCCEEDED. The job is held by real work: three maps burning
// a second of CPU each on one map slot, 2 MB of output each to fetch.
TEST(ProgressTest, EightyColumnsShowRateAndTimeLeftAndNothingIsCut) {
  TempDir tmp("mr-progress-test");
  int code = -1;
  std::string tty = RunOnTerminal(
      {"run", "synthetic", "--maps", "3", "--map-seconds", "1", "--map-bytes", "2MB", "--reducers",
       "2", "--workers", "1", "--map-slots", "1", "--output", tmp.path() + "/out"},
      80, &code);
  ASSERT_EQ(code, 0) << tty;
  std::vector<std::string> lines = DrawnLines(tty);
  ASSERT_GE(lines.size(), 5u) << tty;
  bool rate = false, left = false;
  std::set<size_t> elapsed_at;  // the column the last field (elapsed time) starts at
  for (const std::string& line : lines) {
    elapsed_at.insert(line.rfind(' ') + 1);
    EXPECT_LT(line.size(), 80u) << line;
    EXPECT_TRUE(std::regex_match(line, kWholeLine)) << "not whole: '" << line << "'";
    rate = rate || std::regex_search(line, kRate);
    left = left || std::regex_search(line, kTimeLeft);
  }
  EXPECT_TRUE(rate) << tty;
  EXPECT_TRUE(left) << tty;
  // The fields hold their places for the whole run, the last line too (before, fields came
  // and went as the moving phase's bytes appeared).
  EXPECT_EQ(elapsed_at.size(), 1u) << tty;
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex(R"(SUCCEEDED  m100% s100% r100% +[0-9]+:[0-9]{2})")))
      << lines.back();
}

// Piped: plain lines with the same fields (job id first), no \r, no escape codes, no bar,
// on a job long enough to be seen running (two maps of a CPU second each); with --http the embedded
// cluster's master serves a page and mr run names the job's.
TEST(ProgressTest, PlainLinesWhenPipedAndTheJobPage) {
  TempDir tmp("mr-progress-test");
  auto piped =
      Sh(MrBin() +
         " run synthetic --maps 2 --map-seconds 1 --map-bytes 1MB --reducers 2 --workers 1 "
         "--map-slots 1 --http 127.0.0.1:0 --output " +
         tmp.path() + "/piped");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\033'), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find("[#"), std::string::npos) << piped.err;
  EXPECT_TRUE(std::regex_search(
      piped.err, std::regex(R"(^job page: http://127\.0\.0\.1:[0-9]+/jobs/job-000001\n)")))
      << piped.err;
  EXPECT_TRUE(std::regex_search(
      piped.err,
      std::regex(
          R"(\njob-000001  RUNNING  map +[0-9]+% shuffle +[0-9]+% reduce +[0-9]+%  (fetch [0-9.]+/[0-9.]+ (B|KiB|MiB)[^\n]*  )?ETA [-0-9:]+  [0-9]+:[0-9]{2}\n)")))
      << piped.err;
  EXPECT_TRUE(std::regex_search(
      piped.err,
      std::regex(
          R"(\njob-000001  SUCCEEDED  map 100% shuffle 100% reduce 100%  [0-9]+:[0-9]{2}\n)")))
      << piped.err;
  EXPECT_EQ(piped.err.find("done"), std::string::npos) << piped.err;
}

// mr run --http belongs to the embedded cluster: a bad address or one given with --master
// is a usage error (exit 2) before anything starts.
TEST(ProgressTest, RunHttpIsCheckedBeforeAnythingStarts) {
  TempDir tmp("mr-progress-test");
  const std::string run = MrBin() + " run wordcount --input /dev/null --output " + tmp.path() + "/out";
  auto bad = Sh(run + " --http nonsense");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--http: address 'nonsense' is not host:port"), std::string::npos) << bad.err;
  auto remote = Sh(run + " --http 127.0.0.1:0 --master 127.0.0.1:1");
  EXPECT_EQ(remote.exit_code, 2);
  EXPECT_NE(remote.err.find("--http sets up the embedded cluster"), std::string::npos) << remote.err;
  EXPECT_FALSE(PathExists(tmp.path() + "/out"));
}

// `mr submit` to a cluster started with --http prints a URL that serves the job's page.
TEST(ProgressTest, SubmitPrintsAJobPageTheMasterServes) {
  TempDir tmp("mr-progress-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 64 * 1024, 7);
  auto start = Sh(MrBin() + " cluster start --workers 1 --http 127.0.0.1:0 --dir " + d + "/c");
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const std::string master = start.out.substr(0, start.out.find('\n'));
  auto submit = Sh(MrBin() + " submit wordcount --input " + d + "/in.txt --output " + d +
                   "/out --master " + master);
  std::smatch m;
  bool printed = std::regex_search(
      submit.err, m, std::regex(R"(job page: http://(127\.0\.0\.1):([0-9]+)(/jobs/job-000001)\n)"));
  EXPECT_EQ(submit.out, "job-000001\n");
  if (printed) {
    webtest::HttpReply page =
        webtest::Get(HostPort{m[1], static_cast<uint16_t>(std::stoi(m[2]))}, m[3]);
    EXPECT_EQ(page.status, 200) << page.headers;
    EXPECT_NE(page.body.find("job-000001"), std::string::npos);
  }
  Sh(MrBin() + " cluster stop --dir " + d + "/c");
  EXPECT_TRUE(printed) << submit.err;
}

}  // namespace
}  // namespace mr::testing
