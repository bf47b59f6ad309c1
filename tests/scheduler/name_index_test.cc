#include "scheduler/util/name_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mr::sched {
namespace {

// Names are told apart by every byte and by length, whatever their size: a
// name up to 8 bytes is compared as one word, a longer one byte by byte.
TEST(NameIndexTest, GivesDenseIdsInOrderOfFirstSight) {
  const std::vector<std::string> names = {
      "",         "default",   "a",       std::string("a\0", 2), "ab",
      "pool1",    "pool2",     "12345678", "123456789",           "12345679",
      "this is a long pool name", "this is a long pool namf", std::string(64, 'x')};
  NameIndex index;
  for (size_t round = 0; round < 3; ++round) {
    for (size_t i = 0; i < names.size(); ++i) {
      bool added = false;
      EXPECT_EQ(index.Intern(names[i], &added), static_cast<int>(i)) << names[i];
      EXPECT_EQ(added, round == 0) << names[i];
    }
  }
  EXPECT_EQ(index.size(), names.size());
}

TEST(NameIndexTest, GrowsAndClears) {
  NameIndex index;
  bool added = false;
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(index.Intern("p" + std::to_string(i), &added), i);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(index.Intern("p" + std::to_string(i), &added), i);
    ASSERT_FALSE(added);
  }
  index.Clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.Intern("p999", &added), 0);
  EXPECT_TRUE(added);
}

}  // namespace
}  // namespace mr::sched
