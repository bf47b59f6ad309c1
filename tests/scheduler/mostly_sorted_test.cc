// SortMostlySorted must give exactly std::sort's order under a total order, whatever the
// input order: asrpt relies on it to re-rank jobs each round without moving a decision.
#include "scheduler/util/mostly_sorted.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace mr::sched {
namespace {

// (workload, arrival): arrival is unique, so the order is total, as asrpt's key is.
using Key = std::pair<double, int>;
bool Less(const Key& a, const Key& b) { return a < b; }

TEST(MostlySortedTest, HandWorkedRunAndRest) {
  // Last round's order with two keys moved: (5,2) dropped to 1 and (9,4) to 4.
  // Run kept in one pass: (2,0) (3,1) (7,3) (8,5); rest: (1,2) (4,4) — they break it.
  std::vector<Key> seq = {{2, 0}, {3, 1}, {1, 2}, {7, 3}, {4, 4}, {8, 5}};
  std::vector<Key> run, rest;
  SortMostlySorted(&seq, Less, &run, &rest);
  EXPECT_EQ(run, (std::vector<Key>{{2, 0}, {3, 1}, {7, 3}, {8, 5}}));
  EXPECT_EQ(rest, (std::vector<Key>{{1, 2}, {4, 4}}));
  EXPECT_EQ(seq, (std::vector<Key>{{1, 2}, {2, 0}, {3, 1}, {4, 4}, {7, 3}, {8, 5}}));
}

TEST(MostlySortedTest, TiesInWorkloadGoByArrival) {
  std::vector<Key> seq = {{5, 3}, {5, 1}, {5, 2}, {1, 9}};
  std::vector<Key> run, rest;
  SortMostlySorted(&seq, Less, &run, &rest);
  EXPECT_EQ(seq, (std::vector<Key>{{1, 9}, {5, 1}, {5, 2}, {5, 3}}));
}

TEST(MostlySortedTest, EqualsFullSortOnPerturbedAndRandomInput) {
  std::mt19937 rng(14);
  std::vector<Key> run, rest;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = static_cast<int>(rng() % 300);
    std::vector<Key> seq;
    for (int i = 0; i < n; ++i) seq.push_back({static_cast<double>(rng() % 50), i});
    std::sort(seq.begin(), seq.end());
    // Move some keys (down, as a running job's work shrinks, or up), drop a few, append new
    // ones; on odd trials shuffle everything.
    for (Key& k : seq) {
      if (rng() % 5 == 0) k.first += static_cast<double>(static_cast<int>(rng() % 21) - 10);
    }
    for (int i = 0; i < 5; ++i) seq.push_back({static_cast<double>(rng() % 50), n + i});
    if (trial % 2 == 1) std::shuffle(seq.begin(), seq.end(), rng);
    std::vector<Key> want = seq;
    std::sort(want.begin(), want.end());
    SortMostlySorted(&seq, Less, &run, &rest);
    ASSERT_EQ(seq, want) << "trial " << trial;
  }
}

}  // namespace
}  // namespace mr::sched
