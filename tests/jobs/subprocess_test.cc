#include "jobs/subprocess.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
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
      FilterHooks{{}, [&cancel] { return cancel.load(); }, {}, {}});
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

// A grandchild that outlives the command and keeps writing to the inherited stderr does
// not hold RunFilter: the stderr pump stops shortly after the command exits.
TEST(RunFilterTest, StderrOfALingeringGrandchildDoesNotHoldTheTask) {
  std::string tail;
  pid_t grandchild = 0;
  FilterHooks hooks;
  hooks.stderr_tail = [&](std::string t) { tail = std::move(t); };
  auto start = std::chrono::steady_clock::now();
  Status s = RunFilter("(while :; do echo spam >&2; sleep 0.01; done) >/dev/null & echo $!; echo last >&2", "",
                       [&](std::string_view line) { grandchild = static_cast<pid_t>(std::stol(std::string(line))); },
                       hooks);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_GT(grandchild, 0);
  ::kill(grandchild, SIGKILL);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_LT(seconds, 20.0) << "RunFilter waited for the grandchild";  // a hang bound, not a speed test
  // What the tail holds depends on how much spam came in the drain: only that it is there.
  EXPECT_FALSE(tail.empty());
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
