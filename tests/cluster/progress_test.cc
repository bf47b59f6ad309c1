// `mr run`'s progress: a bar rewritten in place (\r) when stderr is a terminal — run
// under a pseudo-terminal here — and plain lines without \r when piped. Plus the bar's
// text on hand-built statuses.
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "cli/progress.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

proto::JobStatus Status(uint32_t maps_done, uint64_t fetched, uint64_t total, uint32_t reduces_done) {
  proto::JobStatus st;
  st.set_job_id(1);
  st.set_state("RUNNING");
  st.set_phase("shuffle");
  st.set_maps_total(16);
  st.set_maps_done(maps_done);
  st.set_reduces_total(4);
  st.set_reduces_done(reduces_done);
  st.set_shuffle_bytes_fetched(fetched);
  st.set_shuffle_bytes_total(total);
  return st;
}

TEST(ProgressBarTest, FillsWithMapsShuffleAndReduces) {
  EXPECT_EQ(cli::ProgressBar(Status(0, 0, 0, 0), 0.3, 200),
            "[........................]   0%  maps 0/16  shuffle 0 B/0 B  reduces 0/4  0.3s");
  // A third each: maps 3/4, shuffle 1/2 of the known output scaled by the maps' 3/4,
  // reduces 1/4: (0.75 + 0.375 + 0.25) / 3 = 45.8%, 11 of 24 marks.
  std::string mid = cli::ProgressBar(Status(12, 2u << 20, 4u << 20, 1), 2.3, 200);
  EXPECT_EQ(mid, "[###########.............]  45%  maps 12/16  shuffle 2.0 MiB/4.0 MiB  reduces 1/4  2.3s");
  proto::JobStatus done = Status(16, 4u << 20, 4u << 20, 4);
  done.set_state("SUCCEEDED");
  EXPECT_EQ(cli::ProgressBar(done, 3, 200).substr(0, 31), "[########################] 100%");
  // Never as wide as the terminal: a full line would wrap and break the rewrite.
  EXPECT_EQ(cli::ProgressBar(done, 3, 40).size(), 39u);
  EXPECT_DOUBLE_EQ(cli::ProgressFraction(done), 1.0);
}

// Runs `mr ARGS` with a pseudo-terminal as its stdin, stdout and stderr; returns all
// it wrote and sets *exit_code.
std::string RunOnTerminal(const std::vector<std::string>& args, int* exit_code) {
  std::string bin = MrBin();
  std::vector<std::string> copy = args;
  std::vector<char*> argv = {bin.data()};
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  struct winsize ws {};
  ws.ws_col = 120;
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
  double deadline = MonotonicSeconds() + 60;
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

TEST(ProgressTest, BarOnATerminalPlainLinesWhenPiped) {
  TempDir tmp("mr-progress-test");
  const std::string d = tmp.path();
  {
    std::ofstream in(d + "/in.txt");
    for (int i = 0; i < 2000; ++i) in << "the quick brown fox " << i << " jumps\n";
  }
  const std::vector<std::string> run = {"run", "wordcount", "--input", d + "/in.txt", "--workers", "1",
                                        "--reducers", "2", "--split-size", "16KiB"};
  int code = -1;
  std::vector<std::string> tty_args = run;
  tty_args.insert(tty_args.end(), {"--output", d + "/tty"});
  std::string tty = RunOnTerminal(tty_args, &code);
  ASSERT_EQ(code, 0) << tty;
  EXPECT_NE(tty.find('\r'), std::string::npos) << tty;
  EXPECT_NE(tty.find("\033[K"), std::string::npos);
  // The last drawing of the bar: full, with every count final.
  EXPECT_TRUE(std::regex_search(tty, std::regex(
      R"(\[#{24}\] 100%  maps ([0-9]+)/\1  shuffle [0-9.]+ (B|KiB)/[0-9.]+ (B|KiB)  reduces 2/2  [0-9.]+s)")))
      << tty;

  auto piped = Sh(MrBin() + " run wordcount --input " + d + "/in.txt --workers 1 --reducers 2 --split-size 16KiB "
                  "--output " + d + "/piped");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\033'), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find("[#"), std::string::npos) << piped.err;
  EXPECT_TRUE(std::regex_search(piped.err, std::regex(
      R"(job-000001  done +maps ([0-9]+)/\1  shuffle [0-9.]+ (B|KiB)  reduces 2/2  [0-9.]+s\n)")))
      << piped.err;
}

}  // namespace
}  // namespace mr::testing
