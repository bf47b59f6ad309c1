// Rows registered at run time: the toy policy registered by this binary (toy_policy.cc) is
// in the table after the built-ins and the generic policy tests ran on it; registration
// checks its row, a scoped registration ends with its scope, and registering while other
// threads read the table is safe.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "policy_params.h"
#include "scheduler/policy_summary.h"
#include "scheduler/policy_table.h"
#include "tests/scheduler/toy_policy.h"

namespace mr::sched {
namespace {

Result<std::unique_ptr<Scheduler>> NoPolicy(std::string_view, const PolicyOptions&) {
  return Status::Internal("not built in these tests");
}

TEST(ToyPolicyTest, IsInTheTableAfterTheBuiltInsAndNotBuiltIn) {
  std::vector<std::string> names = KnownPolicies();
  ASSERT_EQ(names.size(), BuiltinPolicies().size() + 1);
  EXPECT_EQ(names.back(), testing::kToyPolicy);
  for (const PolicyRow& row : BuiltinPolicies()) EXPECT_NE(std::string(row.name), testing::kToyPolicy);
  auto s = CreateScheduler(testing::kToyPolicy);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->name(), testing::kToyPolicy);
  EXPECT_EQ(PolicySummary(testing::kToyPolicy), "test-only toy: latest arrival first");
  EXPECT_NE(PolicyNameList().find(testing::kToyPolicy), std::string::npos);
}

// The proof that adding a policy needs no test edit: every generic suite of this binary
// that its traits select has a test instance for the toy.
TEST(ToyPolicyTest, TheGenericPolicyTestsRanOnIt) {
  std::vector<std::string> suites;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const char* param = suite.GetTestInfo(t)->value_param();
      if (param != nullptr && std::string(param).find(testing::kToyPolicy) != std::string::npos) {
        suites.push_back(suite.name());
      }
    }
  }
  for (const char* want : {"Table/PolicyPropertyTest", "Table/StatelessPolicyTest", "Table/PolicyHistoryTest"}) {
    EXPECT_NE(std::find(suites.begin(), suites.end(), want), suites.end()) << want << " did not run on the toy";
  }
}

TEST(PolicyRegistrationTest, RejectsATakenNameAnIncompleteRowAndAnOptionOfAnotherPolicy) {
  const PolicyRow builtin_name = {"fifo", "again", {}, NoPolicy};
  EXPECT_EQ(RegisterPolicy(builtin_name).code(), StatusCode::kAlreadyExists);
  const PolicyRow toy_name = {testing::kToyPolicy, "again", {}, NoPolicy};
  EXPECT_EQ(RegisterPolicy(toy_name).code(), StatusCode::kAlreadyExists);
  const PolicyRow no_factory = {"nofactory", "x", {}, nullptr};
  EXPECT_EQ(RegisterPolicy(no_factory).code(), StatusCode::kInvalidArgument);
  const PolicyRow no_name = {"", "x", {}, NoPolicy};
  EXPECT_EQ(RegisterPolicy(no_name).code(), StatusCode::kInvalidArgument);
  static constexpr OptionSpec kStolen[] = {{"klps-k", OptionType::kInt, "1", "k", 1, 9}};
  const PolicyRow stolen = {"stolen", "x", kStolen, NoPolicy};
  Status s = RegisterPolicy(stolen);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "policy stolen: option 'klps-k' is policy klps's (option names are flags, unique across policies)");
  const PolicyRow bad_round = {"badround", "x", {}, NoPolicy, {.round_option = "badround-round"}};
  EXPECT_EQ(RegisterPolicy(bad_round).message(), "policy badround: its round option 'badround-round' is not one of its options");
  for (const char* name : {"nofactory", "stolen", "badround"}) EXPECT_EQ(FindPolicy(name), nullptr) << name;
  EXPECT_EQ(KnownPolicies().size(), BuiltinPolicies().size() + 1);
}

TEST(PolicyRegistrationTest, AScopedRowIsKnownUntilItsScopeEnds) {
  static constexpr OptionSpec kOptions[] = {{"scoped-level", OptionType::kInt, "3", "a level", 1, 9}};
  const PolicyRow row = {"scoped", "a scoped row", kOptions, NoPolicy};
  {
    ScopedPolicyRegistration registration(row);
    ASSERT_TRUE(registration.status().ok()) << registration.status().ToString();
    ASSERT_NE(FindPolicy("scoped"), nullptr);
    EXPECT_EQ(KnownPolicies().back(), "scoped");
    auto options = ResolvePolicyOptions("scoped", {});
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->Int("scoped-level"), 3);
    EXPECT_EQ(CreateScheduler("scoped").status().message(), "not built in these tests");
    ScopedPolicyRegistration twice(row);
    EXPECT_EQ(twice.status().code(), StatusCode::kAlreadyExists);
  }  // `twice` failed, so it removes nothing; `registration` removes the row
  EXPECT_EQ(FindPolicy("scoped"), nullptr);
  EXPECT_EQ(CreateScheduler("scoped").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(UnregisterPolicy("scoped").code(), StatusCode::kNotFound);
  EXPECT_EQ(UnregisterPolicy("fifo").code(), StatusCode::kNotFound) << "a built-in row cannot be removed";
  EXPECT_NE(FindPolicy("fifo"), nullptr);
}

// Writers register and remove rows while readers list and look up the table: every reader
// sees the built-ins, each writer finds its own row while it is registered, and the table
// ends as it began.
TEST(PolicyRegistrationTest, RegistersWhileOtherThreadsReadTheTable) {
  static constexpr const char* kNames[] = {"conc0", "conc1", "conc2", "conc3"};
  const size_t before = KnownPolicies().size();
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        std::vector<PolicyRowRef> rows = PolicyTable();
        if (rows.size() < BuiltinPolicies().size() || FindPolicy("fifo") == nullptr) failures++;
        (void)PolicyNameList();
      }
    });
  }
  std::vector<std::thread> writers;
  for (const char* name : kNames) {
    writers.emplace_back([&failures, name] {
      const PolicyRow row = {name, "concurrent", {}, NoPolicy};
      for (int i = 0; i < 200; ++i) {
        if (!RegisterPolicy(row).ok() || FindPolicy(name) == nullptr || !UnregisterPolicy(name).ok()) failures++;
      }
    });
  }
  for (std::thread& w : writers) w.join();
  stop = true;
  for (std::thread& r : readers) r.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(KnownPolicies().size(), before);
}

}  // namespace
}  // namespace mr::sched
