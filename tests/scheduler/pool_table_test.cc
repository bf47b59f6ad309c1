#include "scheduler/policies/pool_table.h"

#include <gtest/gtest.h>

namespace mr::sched {
namespace {

TEST(PoolTableTest, ParsesPoolsCommentsAndDefaults) {
  auto t = PoolTable::Parse(
      "# pools\n\npool prod min_maps=4 min_reduces=2 weight=2.5  # the important one\n"
      "pool adhoc\npool default weight=0.5\n");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const PoolConfig& prod = t->Lookup("prod");
  EXPECT_EQ(prod.min_maps, 4);
  EXPECT_EQ(prod.min_reduces, 2);
  EXPECT_DOUBLE_EQ(prod.weight, 2.5);
  EXPECT_EQ(t->Lookup("adhoc").min_maps, 0);
  EXPECT_DOUBLE_EQ(t->Lookup("adhoc").weight, 1);
  EXPECT_EQ(t->Lookup("").name, "default");
  EXPECT_DOUBLE_EQ(t->Lookup("nosuch").weight, 0.5);
}

TEST(PoolTableTest, MalformedLinesNameTheLine) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"pool a\nqueue b\n", "f:2:"},
      {"pool\n", "f:1: missing pool name"},
      {"pool a min_maps=-1\n", "f:1: min_maps"},
      {"pool a min_maps=3x\n", "f:1: min_maps"},
      {"pool a weight=0\n", "f:1: weight"},
      {"pool a speed=3\n", "f:1: unknown key 'speed'"},
      {"pool a min_maps\n", "f:1: expected key=value"},
      {"\n\npool a\npool a\n", "f:4: pool 'a' defined twice"},
  };
  for (const Case& c : cases) {
    auto t = PoolTable::Parse(c.text, "f");
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(t.status().message().rfind(c.want, 0), 0u) << t.status().message();
  }
}

}  // namespace
}  // namespace mr::sched
