#include "common/process_cpu.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>

namespace mr {
namespace {

// proc(5): utime and stime are fields 14 and 15, in clock ticks; a comm with spaces and
// parentheses does not shift them.
TEST(ProcessCpuTest, ReadsUserAndSystemTimeFromAStatLine) {
  const char* line = "4242 (mr (worker) 1) S 1 4242 4242 0 -1 4194560 2000 0 0 0 150 25 0 0 20 0 9 0 100 0 0";
  auto cpu = ParseProcStatCpuSeconds(line, 100);
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
  EXPECT_DOUBLE_EQ(*cpu, 1.75);
  EXPECT_FALSE(ParseProcStatCpuSeconds("4242 (mr) S 1 2 3", 100).ok());
  EXPECT_FALSE(ParseProcStatCpuSeconds("no parenthesis", 100).ok());
  EXPECT_FALSE(ParseProcStatCpuSeconds("1 (x) S 1 1 1 0 -1 0 0 0 0 0 1x 2 0", 100).ok());
}

TEST(ProcessCpuTest, ThisProcessUsesCpuWhenItWorks) {
  auto before = ProcessCpuSeconds(getpid());
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  // Work until the clock-tick counter moves (a tick is 10 ms), bounded by 20 s of wall time
  // for a machine so loaded that this process barely runs.
  volatile double x = 0;
  const auto start = std::chrono::steady_clock::now();
  Result<double> after = before;
  while (after.ok() && *after == *before && std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    for (int i = 0; i < 1000000; ++i) x = x + 1;
    after = ProcessCpuSeconds(getpid());
  }
  ASSERT_TRUE(after.ok());
  EXPECT_GT(*after, *before);
  EXPECT_EQ(ProcessCpuSeconds(-5).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace mr
