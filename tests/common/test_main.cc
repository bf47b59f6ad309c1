// The main of every test binary registered by mr_test() (cmake/MrHelpers.cmake), in place
// of gtest_main:
//  - a run in which some test was skipped (GTEST_SKIP) and none failed exits with
//    kSkipExitCode, which ctest reports as "Skipped" (SKIP_RETURN_CODE), not "Passed"; each
//    skip is printed as one line "mr-test skipped: Suite.Test: <reason>" that
//    scripts/test.sh collects;
//  - under ctest the binary runs in a scratch directory of its own (MR_TEST_SCRATCH, also
//    its TMPDIR and working directory): emptied before the tests, and anything the tests
//    leave in it fails the run, naming the leftovers. A TempDir lands there, so a test that
//    forgets its cleanup, or writes relative to its working directory, shows.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace {

constexpr int kSkipExitCode = 77;  // the automake convention; mr_test sets SKIP_RETURN_CODE

namespace fs = std::filesystem;

// The test's scratch directory, or "" when not run by ctest (then nothing is checked).
std::string ScratchDir() {
  const char* dir = std::getenv("MR_TEST_SCRATCH");
  return dir != nullptr ? std::string(dir) : std::string();
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  return names;
}

// The reason GTEST_SKIP gave, on one line.
std::string SkipReason(const testing::TestResult& result) {
  for (int i = 0; i < result.total_part_count(); ++i) {
    const testing::TestPartResult& part = result.GetTestPartResult(i);
    if (!part.skipped()) continue;
    std::string reason = part.message();
    for (char& c : reason) c = c == '\n' ? ' ' : c;
    return reason.empty() ? "(no reason given)" : reason;
  }
  return "(no reason given)";
}

void PrintSkips() {
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const testing::TestInfo& info = *suite.GetTestInfo(t);
      if (!info.should_run() || !info.result()->Skipped()) continue;
      std::printf("mr-test skipped: %s.%s: %s\n", suite.name(), info.name(), SkipReason(*info.result()).c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const std::string scratch = ScratchDir();
  if (!scratch.empty()) {
    std::error_code ec;
    fs::create_directories(scratch, ec);
    for (const std::string& name : Entries(scratch)) fs::remove_all(fs::path(scratch) / name, ec);  // an earlier run's
  }
  int rc = RUN_ALL_TESTS();
  if (!scratch.empty()) {
    std::vector<std::string> left = Entries(scratch);
    for (const std::string& name : left) {
      std::printf("mr-test left behind in its scratch directory %s: %s\n", scratch.c_str(), name.c_str());
    }
    if (!left.empty() && rc == 0) rc = 1;
  }
  if (rc != 0) return rc;
  if (testing::UnitTest::GetInstance()->skipped_test_count() > 0) {
    PrintSkips();
    std::fflush(stdout);
    return kSkipExitCode;
  }
  return 0;
}
