// Generic policy tests are parameterized by the policy table: ValuesIn(PoliciesWhere(...))
// picks the rows whose traits a test is about, so a new row (built in, or registered by
// the test binary like toy_policy.cc's) is tested without editing the test. gtest
// evaluates the generator when it registers the tests, after static registrations.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "scheduler/policy_table.h"

namespace mr::sched::testing {

// Names of every policy of the table whose row satisfies `pred`, in table order.
template <typename Pred>
std::vector<std::string> PoliciesWhere(Pred pred) {
  std::vector<std::string> names;
  for (const PolicyRow& row : PolicyTable()) {
    if (pred(row)) names.emplace_back(row.name);
  }
  return names;
}

inline std::vector<std::string> AllPolicies() {
  return PoliciesWhere([](const PolicyRow&) { return true; });
}

// A test name for a policy parameter: its name with every character gtest does not
// allow turned into '_'.
inline std::string PolicyParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// The row of a parameter, which came from the table; aborts if the row left it since.
inline const PolicyRow& RowOf(const std::string& name) {
  const PolicyRow* row = FindPolicy(name);
  if (row == nullptr) {
    std::fprintf(stderr, "policy %s is no longer in the table\n", name.c_str());
    std::abort();
  }
  return *row;
}

}  // namespace mr::sched::testing
