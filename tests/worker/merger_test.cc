#include "shuffle/format/merger.h"

#include <gtest/gtest.h>

#include "shuffle/map_output.h"

namespace mr::shuffle {
namespace {

std::string MakeRun(const std::vector<std::pair<std::string, std::string>>& records) {
  std::string run;
  for (const auto& [k, v] : records) AppendRecord(k, v, &run);
  return run;
}

TEST(RunMergerTest, GroupsKeysAcrossRunsInRunOrder) {
  std::string r0 = MakeRun({{"a", "0a"}, {"c", "0c1"}, {"c", "0c2"}});
  std::string r1 = MakeRun({{"b", "1b"}, {"c", "1c"}});
  std::string r2;  // empty run
  std::string r3 = MakeRun({{"a", "3a"}, {"d", "3d"}});
  RunMerger m({r0, r1, r2, r3});
  std::vector<std::string> got;
  while (m.NextKey()) {
    std::string line(m.key());
    std::string_view v;
    while (m.NextValue(&v)) line += " " + std::string(v);
    got.push_back(line);
  }
  ASSERT_TRUE(m.status().ok());
  EXPECT_EQ(got, (std::vector<std::string>{"a 0a 3a", "b 1b", "c 0c1 0c2 1c", "d 3d"}));
  EXPECT_EQ(m.records_read(), 7u);
}

TEST(RunMergerTest, UnreadValuesAreSkipped) {
  std::string r0 = MakeRun({{"a", "1"}, {"a", "2"}, {"b", "3"}});
  RunMerger m({r0});
  ASSERT_TRUE(m.NextKey());
  ASSERT_TRUE(m.NextKey());
  EXPECT_EQ(m.key(), "b");
  std::string_view v;
  ASSERT_TRUE(m.NextValue(&v));
  EXPECT_EQ(v, "3");
  EXPECT_FALSE(m.NextKey());
}

TEST(RunMergerTest, MalformedRunIsAnError) {
  std::string good = MakeRun({{"a", "1"}});
  std::string bad = MakeRun({{"b", "2"}});
  bad.pop_back();  // truncated
  RunMerger m({good, bad});
  while (m.NextKey()) {
  }
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
}

TEST(RunMergerTest, UnsortedRunIsAnError) {
  std::string run = MakeRun({{"b", "1"}, {"a", "2"}});
  RunMerger m({run});
  while (m.NextKey()) {
  }
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::shuffle
