#include <gtest/gtest.h>

#include "common/file_util.h"
#include "scheduler/policy_summary.h"
#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"

namespace mr::sched {
namespace {

// Which policies exist is docs/policies.md's list (policy_table_test.cc checks it against
// the built-in rows), so no list of names is written here.
TEST(RegistryTest, CreatesEveryKnownPolicyUnderItsName) {
  std::vector<std::string> names = KnownPolicies();
  ASSERT_GE(names.size(), BuiltinPolicies().size());
  for (size_t i = 0; i < BuiltinPolicies().size(); ++i) EXPECT_EQ(names[i], BuiltinPolicies()[i].name);
  EXPECT_EQ(DefaultPolicy(), names[0]);
  for (const std::string& n : names) {
    auto s = CreateScheduler(n);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ((*s)->name(), n);
    EXPECT_FALSE(PolicySummary(n).empty());
  }
}

TEST(RegistryTest, UnknownNameListsKnownPolicies) {
  auto s = CreateScheduler("lottery");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(s.status().message(), "unknown policy 'lottery' (known: " + PolicyNameList() + ")");
  EXPECT_EQ(PolicyNameList().rfind("fifo, fair, klps, ", 0), 0u) << PolicyNameList();
  EXPECT_TRUE(PolicySummary("lottery").empty());
}

TEST(RegistryTest, KlpsRejectsNonPositiveK) {
  PolicyOptions o;
  o.SetValue("klps-k", int64_t{0});
  auto s = CreateScheduler("klps", o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.status().message(), "klps-k must be int in 1..2147483647, got 0");
}

TEST(RegistryTest, FairLoadsPoolsFileAndReportsErrors) {
  TempDir dir("sched-reg");
  PolicyOptions o;
  const std::string pools_file = JoinPath(dir.path(), "pools.txt");
  o.SetValue("pools", pools_file);
  auto missing = CreateScheduler("fair", o);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "pools file: no such file: " + pools_file);

  ASSERT_TRUE(WriteStringToFile(pools_file, "pool prod min_maps=2\npool x weight=oops\n").ok());
  auto bad = CreateScheduler("fair", o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message().rfind("pools file: ", 0), 0u) << bad.status().message();
  EXPECT_NE(bad.status().message().find("pools.txt:2"), std::string::npos) << bad.status().message();

  ASSERT_TRUE(WriteStringToFile(pools_file, "pool prod min_maps=2\n").ok());
  EXPECT_TRUE(CreateScheduler("fair", o).ok());
}

}  // namespace
}  // namespace mr::sched
