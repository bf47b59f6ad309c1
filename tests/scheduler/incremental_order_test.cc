// IncrementalOrder must give exactly the order of a full stable sort, however
// far and in whatever steps it is consumed (issue 6: the policies sort lazily).
#include "scheduler/util/incremental_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace mr::sched {
namespace {

struct Keyed {
  int job;
  double major, minor;
};

std::vector<int> StableSorted(std::vector<Keyed> v) {
  std::stable_sort(v.begin(), v.end(), [](const Keyed& a, const Keyed& b) {
    return std::pair(a.major, a.minor) < std::pair(b.major, b.minor);
  });
  std::vector<int> jobs;
  for (const Keyed& k : v) jobs.push_back(k.job);
  return jobs;
}

std::vector<Keyed> RandomKeys(std::mt19937* rng, int n, int distinct) {
  std::vector<Keyed> v;
  std::uniform_int_distribution<int> key(0, distinct - 1);
  for (int i = 0; i < n; ++i) v.push_back({(i * 7) % n, double(key(*rng)), double(key(*rng) % 2)});
  return v;
}

TEST(IncrementalOrderTest, EveryPrefixMatchesAFullStableSort) {
  std::mt19937 rng(42);
  IncrementalOrder order;  // reused: Clear() must forget the last order
  for (int round = 0; round < 200; ++round) {
    const int n = std::uniform_int_distribution<int>(0, 700)(rng);
    std::vector<Keyed> keys = RandomKeys(&rng, n, round % 3 == 0 ? 3 : 1000);
    order.Clear();
    for (const Keyed& k : keys) order.Add(k.job, k.major, k.minor);
    const std::vector<int> want = StableSorted(keys);
    size_t n_asked = 0;
    while (n_asked < want.size()) {
      n_asked += std::uniform_int_distribution<size_t>(1, 40)(rng);
      std::span<const int> got = order.Prefix(n_asked);
      ASSERT_EQ(got.size(), std::min(n_asked, want.size()));
      ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin())) << "round " << round;
    }
    std::span<const int> all = order.All();
    EXPECT_EQ(std::vector<int>(all.begin(), all.end()), want);
  }
}

TEST(IncrementalOrderTest, ForEachBlockVisitsTheOrderOnceAndStopsWhenAsked) {
  std::mt19937 rng(7);
  std::vector<Keyed> keys = RandomKeys(&rng, 500, 50);
  IncrementalOrder order;
  for (const Keyed& k : keys) order.Add(k.job, k.major, k.minor);
  std::vector<int> seen;
  order.ForEachBlock([] { return true; },
                     [&](std::span<const int> b) { seen.insert(seen.end(), b.begin(), b.end()); });
  EXPECT_EQ(seen, StableSorted(keys));

  seen.clear();
  order.ForEachBlock([&] { return seen.size() < 20; },
                     [&](std::span<const int> b) { seen.insert(seen.end(), b.begin(), b.end()); });
  ASSERT_GE(seen.size(), 20u);
  EXPECT_LT(seen.size(), 500u);  // stopped early
  EXPECT_TRUE(std::equal(seen.begin(), seen.end(), StableSorted(keys).begin()));
}

TEST(IncrementalOrderTest, EqualKeysKeepAddOrderAndLaterSmallerKeyGoesFirst) {
  IncrementalOrder order;
  for (int j = 0; j < 100; ++j) order.Add(j, 1.0);
  std::vector<int> arrival(100);
  std::iota(arrival.begin(), arrival.end(), 0);
  std::span<const int> all = order.All();
  EXPECT_EQ(std::vector<int>(all.begin(), all.end()), arrival);

  order.Clear();
  for (int j = 0; j < 100; ++j) order.Add(j, 1.0);
  order.Add(100, 0.5);  // breaks the "already in order" shortcut
  EXPECT_EQ(order.Prefix(2)[0], 100);
  EXPECT_EQ(order.Prefix(2)[1], 0);
}

}  // namespace
}  // namespace mr::sched
