// Loads the example plug-in (examples/plugin/, libfewest_maps.so) before main, through the
// loader `mr --policy-plugin` uses, so that the generic policy tests linked into this binary
// (property_test.cc, reuse_test.cc: parameterized by the policy table) run on it as on a
// built-in. The binary exports its symbols (ENABLE_EXPORTS), as `mr` does, for the plug-in.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "scheduler/policies/plugin_loader.h"
#include "scheduler/policy_table.h"

namespace mr::sched {
namespace {

[[maybe_unused]] const bool kLoaded = [] {
  Result<std::string> name = LoadPolicyPlugin(MR_PLUGIN_DIR "/libfewest_maps.so");
  if (!name.ok() || *name != "fewest-maps") {
    std::fprintf(stderr, "example plug-in: %s\n", name.ok() ? name->c_str() : name.status().ToString().c_str());
    std::abort();
  }
  return true;
}();

TEST(ExamplePluginTest, TheGenericPolicyTestsRanOnIt) {
  ASSERT_NE(FindPolicy("fewest-maps"), nullptr);
  int instances = 0;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const char* param = suite.GetTestInfo(t)->value_param();
      if (param != nullptr && std::string(param).find("fewest-maps") != std::string::npos) ++instances;
    }
  }
  EXPECT_GE(instances, 3) << "the generic policy tests did not pick up the plug-in";
}

TEST(ExamplePluginTest, LoadingItAgainIsTheSamePolicy) {
  Result<std::string> again = LoadPolicyPlugin(MR_PLUGIN_DIR "/libfewest_maps.so");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, "fewest-maps");
  auto policy = CreateScheduler("fewest-maps", {});
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_EQ((*policy)->name(), "fewest-maps");
}

}  // namespace
}  // namespace mr::sched
