#include "jobs/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "tests/common/wait.h"

namespace mr::jobs {
namespace {

std::vector<std::string> Filter(const std::string& cmd, std::string_view input, Status* s) {
  std::vector<std::string> lines;
  *s = RunFilter(cmd, input, [&](std::string_view l) { lines.emplace_back(l); });
  return lines;
}

TEST(RunFilterTest, PassesLinesThrough) {
  Status s;
  auto lines = Filter("cat", "a\n\nb c\nlast", &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "", "b c", "last"}));
}

TEST(RunFilterTest, LargeInputAndOutputDoNotDeadlock) {
  // Far more than a pipe buffer in both directions at once.
  std::string input;
  for (int i = 0; i < 200000; ++i) input += "line " + std::to_string(i) + "\n";
  Status s;
  auto lines = Filter("cat", input, &s);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(lines.size(), 200000u);
  EXPECT_EQ(lines.back(), "line 199999");
}

TEST(RunFilterTest, NonZeroExitNamesCommandAndCode) {
  Status s;
  Filter("cat >/dev/null; exit 3", "x\n", &s);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("exit 3"), std::string::npos);
  EXPECT_NE(s.message().find("code 3"), std::string::npos);
}

TEST(RunFilterTest, ChildThatIgnoresStdinIsNotKilledBySigpipe) {
  std::string input(4 << 20, 'x');
  Status s;
  auto lines = Filter("echo done", input, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lines, std::vector<std::string>{"done"});
}


// A hung filter (it never reads or writes) is killed, with what it started, once the
// task is cancelled; RunFilter returns Aborted instead of waiting for it.
TEST(RunFilterTest, CancelKillsAHungChildAndItsGroup) {
  int polls = 0;
  FilterHooks hooks;
  hooks.cancelled = [&polls] { return ++polls > 4; };
  Status s = RunFilter("sleep 1000 & sleep 1000", "x\n", [](std::string_view) {}, hooks);
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  EXPECT_GT(polls, 4);
}

TEST(RunFilterTest, BytesBothWaysCountAsProgress) {
  int progress = 0;
  FilterHooks hooks;
  hooks.progress = [&progress] { ++progress; };  // called from two threads, never at once here
  Status s;
  std::vector<std::string> lines;
  s = RunFilter("cat >/dev/null; echo done", "input\n", [&](std::string_view l) { lines.emplace_back(l); }, hooks);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lines, std::vector<std::string>{"done"});
  EXPECT_GE(progress, 2);  // the input sent, the output read
}

// `fed` follows the share of stdin the child has taken: rising, ending at 1.
TEST(RunFilterTest, FedReportsTheShareOfInputTaken) {
  std::vector<double> shares;
  FilterHooks hooks;
  hooks.fed = [&shares](double s) { shares.push_back(s); };  // the feeding thread only
  std::string input(8u << 20, 'x');
  input += "\n";
  Status s = RunFilter("cat >/dev/null", input, [](std::string_view) {}, hooks);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_GE(shares.size(), 8u) << "8 MiB in writes of at most 1 MiB";
  for (size_t i = 1; i < shares.size(); ++i) EXPECT_LT(shares[i - 1], shares[i]);
  EXPECT_GT(shares.front(), 0);
  EXPECT_DOUBLE_EQ(shares.back(), 1.0);
}

// A line far longer than the read buffer comes back whole (and in linear time: only new
// bytes are searched for the newline).
TEST(RunFilterTest, HugeLineComesBackWhole) {
  std::string input(24u << 20, 'q');
  input += "\nshort\n";
  Status s;
  auto lines = Filter("cat", input, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].size(), 24u << 20);
  EXPECT_EQ(lines[1], "short");
}

// True while pid is a live process (not gone, not a zombie).
bool Alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, comm, state;
  if (!(stat >> pid_field >> comm >> state)) return false;
  return state != "Z" && state != "X";
}

// A killed job's streaming command goes with everything it started: the cancel flag makes
// RunFilter SIGKILL the command's process group and return Aborted.
TEST(RunFilterTest, CancelKillsTheCommandAndWhatItStarted) {
  std::atomic<bool> cancel{false};
  pid_t grandchild = 0;
  Status s = RunFilter(
      "sleep 29.4 & echo $!; wait", "",
      [&](std::string_view line) {
        grandchild = static_cast<pid_t>(std::stol(std::string(line)));
        cancel.store(true);
      },
      FilterHooks{{}, [&cancel] { return cancel.load(); }, {}, {}, {}, {}});
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(mr::testing::WaitUntil([&] { return !Alive(grandchild); }, 5, 0.05))
      << "the command's child outlived the cancel";
  if (Alive(grandchild)) ::kill(grandchild, SIGKILL);
}

// A failing command's last stderr lines come back through the hook (the user sees them in
// `mr status JOB`), while its stdout is still passed on as lines.
TEST(RunFilterTest, StderrTailOfAFailingCommand) {
  std::string tail = "unset";
  FilterHooks hooks;
  hooks.stderr_tail = [&](std::string t) { tail = std::move(t); };
  std::vector<std::string> lines;
  Status s = RunFilter("cat >/dev/null; echo out; echo 'first problem' >&2; echo 'bad record 7' >&2; exit 3", "x\n",
                       [&](std::string_view l) { lines.emplace_back(l); }, hooks);
  EXPECT_NE(s.message().find("code 3"), std::string::npos) << s.ToString();
  EXPECT_EQ(lines, std::vector<std::string>{"out"});
  EXPECT_EQ(tail, "first problem\nbad record 7\n");
}

// Much stderr: only the last kStderrTailLines lines (within kStderrTailBytes) are kept,
// however much was written.
TEST(RunFilterTest, StderrTailIsBounded) {
  std::string tail;
  FilterHooks hooks;
  hooks.stderr_tail = [&](std::string t) { tail = std::move(t); };
  Status s = RunFilter("i=0; while [ $i -lt 5000 ]; do echo \"err line $i\" >&2; i=$((i+1)); done", "",
                       [](std::string_view) {}, hooks);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_LE(tail.size(), kStderrTailBytes);
  EXPECT_EQ(std::count(tail.begin(), tail.end(), '\n'), kStderrTailLines);
  EXPECT_EQ(tail.rfind("err line 4980\n", 0), 0u) << tail;
  EXPECT_NE(tail.find("err line 4999\n"), std::string::npos);
}

// Points this process's stderr (fd 2) at /dev/null until destroyed: what a chatty command
// writes is passed through to it, and would flood the test's log.
class QuietStderr {
 public:
  QuietStderr() : saved_(::dup(STDERR_FILENO)) {
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    ::dup2(null, STDERR_FILENO);
    ::close(null);
  }
  ~QuietStderr() {
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

// The pump's promise (jobs/subprocess.cc, StderrPump): once the command has exited it reads
// what was waiting and stops kDrainAfterExitMs (200 ms) later, however long a grandchild
// that inherited stderr keeps it open and keeps writing. The grandchild here is `yes`, which
// writes without a pause, so only that deadline can stop the pump. The bound checked is the
// promise plus room for a loaded machine's scheduling: measured from the command's last
// line to RunFilter's return, 50 runs with two `yes > /dev/null` hogs on a 2-core machine
// at load average 20 took 0.20 to 0.64 s. A pump that waited for the grandchild would take
// until the watchdog kills it (10 s); one that waited 10 times as long, 2 s.
constexpr double kPumpStopBoundSeconds = 1.5;

TEST(RunFilterTest, StderrOfALingeringGrandchildDoesNotHoldTheTask) {
  std::string tail;
  std::atomic<pid_t> grandchild{0};
  std::chrono::steady_clock::time_point last_line;
  FilterHooks hooks;
  hooks.stderr_tail = [&](std::string t) { tail = std::move(t); };
  std::atomic<bool> returned{false};
  // If RunFilter is still waiting after 10 s, end the grandchild so that the test fails
  // with a number instead of hanging.
  std::thread watchdog([&] {
    mr::testing::WaitUntil([&] { return returned.load(); }, 10, 0.01);
    if (!returned.load() && grandchild.load() > 0) ::kill(grandchild.load(), SIGKILL);
  });
  Status s;
  double after_exit = 0;
  {
    QuietStderr quiet;
    // The command starts the grandchild, prints its pid on stdout, its own last words on
    // stderr, and exits.
    s = RunFilter("yes spam >&2 & echo $!; echo last >&2", "",
                  [&](std::string_view line) {
                    grandchild.store(static_cast<pid_t>(std::stol(std::string(line))));
                    last_line = std::chrono::steady_clock::now();
                  },
                  hooks);
    after_exit = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_line).count();
  }
  returned.store(true);
  watchdog.join();
  ASSERT_GT(grandchild.load(), 0);
  ::kill(grandchild.load(), SIGKILL);
  EXPECT_TRUE(s.ok()) << s.ToString();
  // From the command's last stdout line (it exits right after) to RunFilter's return.
  EXPECT_LT(after_exit, kPumpStopBoundSeconds) << "the stderr pump did not stop 200 ms after the command exited";
  // The tail is what stderr carried: spam and the command's last words, nothing else.
  EXPECT_FALSE(tail.empty());
  EXPECT_EQ(tail.find_first_not_of("spamlt\n"), std::string::npos) << tail;
}

// Points this process's stderr (fd 2) at a pipe that a thread drains slowly, 4 KiB every
// 50 ms (80 KiB/s): the stderr pump's pass-through then lags behind a chatty command, as
// with a worker whose log is slow to take writes. Restores fd 2 on destruction.
class SlowStderr {
 public:
  SlowStderr() {
    int fds[2];
    if (::pipe(fds) != 0) return;
    read_fd_ = fds[0];
    saved_ = ::dup(STDERR_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[1]);
    reader_ = std::thread([fd = read_fd_] {
      char buf[4096];
      while (::read(fd, buf, sizeof buf) > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    });
  }
  ~SlowStderr() {
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);  // closes the pipe's last write end: the reader sees EOF
      ::close(saved_);
    }
    if (reader_.joinable()) reader_.join();
    if (read_fd_ >= 0) ::close(read_fd_);
  }
  bool ok() const { return saved_ >= 0; }

 private:
  int read_fd_ = -1;
  int saved_ = -1;
  std::thread reader_;
};

// The last words of a command that wrote much to stderr reach the tail even when the pump
// is behind: when the command exits its stderr pipe is full (64 KiB), which the slow
// pass-through needs 0.8 s to take, well past the 200 ms drain window. The pump reads what
// was in the pipe at exit (FIONREAD) before it honours the window.
TEST(RunFilterTest, StderrTailKeepsTheLastWordsWrittenBeforeExit) {
  std::string tail;
  FilterHooks hooks;
  hooks.stderr_tail = [&](std::string t) { tail = std::move(t); };
  Status s;
  {
    SlowStderr slow;
    ASSERT_TRUE(slow.ok());
    // 192 KiB of "spam\n" lines (a multiple of 5 bytes: whole lines), then the last words.
    s = RunFilter("yes spam | head -c 196610 >&2; echo 'the last words' >&2", "", [](std::string_view) {}, hooks);
  }
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(std::count(tail.begin(), tail.end(), '\n'), kStderrTailLines) << tail;
  const std::string last = "spam\nthe last words\n";
  ASSERT_GE(tail.size(), last.size()) << tail;
  EXPECT_EQ(tail.substr(tail.size() - last.size()), last) << "the command's last words were lost";
}

TEST(StderrTailTest, CutsToWholeLinesAndBytes) {
  EXPECT_EQ(StderrTail(""), "");
  EXPECT_EQ(StderrTail("no newline"), "no newline");
  std::string many;
  for (int i = 0; i < 30; ++i) many += "l" + std::to_string(i) + "\n";
  std::string t = StderrTail(many);
  EXPECT_EQ(t.rfind("l10\n", 0), 0u) << t;
  // One line longer than the window: its last kStderrTailBytes bytes.
  std::string huge(3 * kStderrTailBytes, 'x');
  EXPECT_EQ(StderrTail(huge), std::string(kStderrTailBytes, 'x'));
  // A line start inside the window: the tail begins there.
  EXPECT_EQ(StderrTail(std::string(kStderrTailBytes, 'y') + "\nshort\n"), "short\n");
}

}  // namespace
}  // namespace mr::jobs
