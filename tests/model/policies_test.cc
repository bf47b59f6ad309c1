// Policy rates on hand-made states and the paper's tight instances for
// MaxSRPT (Corollary 4) and SplitSRPT (Corollary 6).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "common/rng.h"
#include "model/fluid/tandem_policy.h"
#include "model/fluid/tandem_sim.h"
#include "scheduler/policy_table.h"

namespace mr::model {
namespace {

double Total(const std::vector<TandemJob>& jobs, const TandemPolicy& policy) {
  auto r = SimulateTandem(jobs, policy);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->total_response : 0.0;
}

std::unique_ptr<TandemPolicy> Policy(std::string_view name) {
  auto p = MakeTandemPolicy(name);
  EXPECT_TRUE(p.ok());
  return std::move(p).value();
}

TEST(PolicyTest, FactoryRejectsUnknownNamesListingKnownOnes) {
  auto p = MakeTandemPolicy("lifo");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("maxsrpt"), std::string::npos);
  EXPECT_EQ(MakeTandemPolicy("klps", 0).status().code(), StatusCode::kInvalidArgument);
}

// A live row's fluid trait names a policy of the fluid table, which MakeFluidCounterpart
// builds; a row without one has no counterpart.
TEST(PolicyTest, EveryLivePolicysFluidCounterpartIsInTheFluidTable) {
  for (const sched::PolicyRow& row : sched::PolicyTable()) {
    auto options = sched::ResolvePolicyOptions(row.name, {});
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    auto p = MakeFluidCounterpart(row.name, *options);
    if (row.traits.fluid == nullptr) {
      EXPECT_EQ(p.status().code(), StatusCode::kNotFound) << row.name;
      continue;
    }
    ASSERT_TRUE(p.ok()) << row.name << ": " << p.status().ToString();
    EXPECT_EQ((*p)->name(), row.traits.fluid);
    const auto& names = TandemPolicyNames();
    EXPECT_NE(std::find(names.begin(), names.end(), row.traits.fluid), names.end()) << row.name;
  }
  EXPECT_EQ(MakeFluidCounterpart("lottery", {}).status().code(), StatusCode::kNotFound);
}

TEST(PolicyTest, FillFairIsMaxMinFair) {
  std::vector<double> rates(3, 0.0);
  std::vector<double> caps = {0.1, kInf, kInf};
  std::vector<int> idx = {0, 1, 2};
  EXPECT_NEAR(FillFair(idx, 1.0, caps, rates), 0.0, 1e-12);
  EXPECT_NEAR(rates[0], 0.1, 1e-12);
  EXPECT_NEAR(rates[1], 0.45, 1e-12);
  EXPECT_NEAR(rates[2], 0.45, 1e-12);
}

// beta = min(4, 2) = 2: the map-heavy class gets map 2/3 and shuffle 1/3,
// the shuffle-heavy class map 1/3 and shuffle 2/3.
TEST(PolicyTest, SplitSrptSplitsCapacityByBeta) {
  std::vector<JobState> jobs = {{0, 0, 4, 1, 4, 1}, {1, 0, 1, 2, 1, 2}};
  auto p = Policy("splitsrpt");
  std::vector<double> map = p->MapRates(jobs);
  EXPECT_NEAR(map[0], 2.0 / 3, 1e-12);
  EXPECT_NEAR(map[1], 1.0 / 3, 1e-12);
  std::vector<double> caps = {kInf, kInf};
  std::vector<double> shuffle = p->ShuffleRates(jobs, caps);
  EXPECT_NEAR(shuffle[0], 1.0 / 3, 1e-12);
  EXPECT_NEAR(shuffle[1], 2.0 / 3, 1e-12);
}

TEST(PolicyTest, SplitSrptGivesEmptyClassShareToOtherClass) {
  std::vector<JobState> jobs = {{0, 0, 4, 1, 4, 1}, {1, 0, 3, 1, 3, 1}};
  auto p = Policy("splitsrpt");
  std::vector<double> map = p->MapRates(jobs);
  EXPECT_NEAR(map[1], 1.0, 1e-12);  // SRPT on remaining map: 3 < 4
  EXPECT_NEAR(map[0], 0.0, 1e-12);
}

// k-LPS limits the jobs at the map station, not in the system (the live klps does
// the same): with k = 1, job 0 has finished its maps and is only shuffling, so job 1
// has the map station to itself.
TEST(PolicyTest, KlpsFreesAPlaceWhenAJobsMapsEnd) {
  auto klps = MakeTandemPolicy("klps", 1);
  ASSERT_TRUE(klps.ok());
  std::vector<JobState> jobs = {{0, 0, 2, 2, 0, 1.5}, {1, 1, 2, 2, 2, 2}, {2, 2, 1, 1, 1, 1}};
  std::vector<double> map = (*klps)->MapRates(jobs);
  EXPECT_EQ(map, (std::vector<double>{0, 1, 0}));
}

// SplitSRPT's map-heavy class is SRPT on remaining map size; jobs whose maps are done
// tie at 0 and go by remaining shuffle (the live splitsrpt does the same): job 1, with
// less shuffle left, is served before the older job 0.
TEST(PolicyTest, SplitSrptMapDoneJobsGoBySmallestRemainingShuffle) {
  std::vector<JobState> jobs = {{0, 0, 4, 1, 0, 0.8}, {1, 1, 4, 1, 0, 0.2}};
  std::vector<double> caps = {kInf, kInf};
  std::vector<double> shuffle = Policy("splitsrpt")->ShuffleRates(jobs, caps);
  EXPECT_EQ(shuffle, (std::vector<double>{0, 1}));
}

TEST(PolicyTest, MaxSrptServesSmallestMaxRemainingAndLendsShuffle) {
  // Job 1 has the smaller max(x(t), y(t)) = 2 but no shuffle data yet (feed
  // 1/2 of its map rate 1): the spare shuffle capacity goes to job 0's backlog.
  std::vector<JobState> jobs = {{0, 0, 3, 3, 0, 3}, {1, 0, 2, 1, 2, 1}};
  auto p = Policy("maxsrpt");
  std::vector<double> map = p->MapRates(jobs);
  EXPECT_EQ(map[1], 1.0);
  std::vector<double> caps = {kInf, jobs[1].FeedRate(map[1])};
  std::vector<double> shuffle = p->ShuffleRates(jobs, caps);
  EXPECT_NEAR(shuffle[1], 0.5, 1e-12);
  EXPECT_NEAR(shuffle[0], 0.5, 1e-12);
}

// Corollary 4 is tight: n/2 jobs (alpha−eps, 1) and n/2 jobs (1, alpha).
// MaxSRPT runs all of the first kind first: T ~ n²·alpha/2 − 3n²·eps/8; the
// interleaved order (1,alpha),(alpha−eps,1),... gives T' ~ n²(1+alpha)/4.
TEST(PolicyTest, MaxSrptTightBatchInstance) {
  const int n = 400;
  const double alpha = 3.0, eps = 0.01;
  std::vector<TandemJob> jobs;
  std::vector<int> rank(n);
  for (int i = 0; i < n / 2; ++i) jobs.push_back({0, alpha - eps, 1});
  for (int i = 0; i < n / 2; ++i) jobs.push_back({0, 1, alpha});
  for (int i = 0; i < n / 2; ++i) {
    rank[n / 2 + i] = 2 * i;  // (1, alpha) first in each pair
    rank[i] = 2 * i + 1;
  }
  double t = Total(jobs, *Policy("maxsrpt"));
  double t_alt = Total(jobs, *MakeFixedOrderPolicy(rank));
  double n2 = static_cast<double>(n) * n;
  EXPECT_NEAR(t / (n2 * alpha / 2 - 3 * n2 * eps / 8), 1.0, 0.01);
  EXPECT_NEAR(t_alt / (n2 * (1 + alpha) / 4), 1.0, 0.01);
  EXPECT_NEAR(t / t_alt, (2 * alpha - 1.5 * eps) / (1 + alpha), 0.01);
}

// Corollary 6 is tight: n−1 jobs (beta, 1) and one job (n−1, (n−1)·beta).
// SplitSRPT runs the big job beside the others: T ~ n²(1+beta)/2; running the
// small jobs one by one first gives T' ~ n²·beta/2, ratio -> 1 + 1/beta.
TEST(PolicyTest, SplitSrptTightBatchInstance) {
  const int n = 400;
  const double beta = 2.0;
  std::vector<TandemJob> jobs(n - 1, TandemJob{0, beta, 1});
  jobs.push_back({0, n - 1.0, (n - 1.0) * beta});
  std::vector<int> rank(n);
  std::iota(rank.begin(), rank.end(), 0);
  double t = Total(jobs, *Policy("splitsrpt"));
  double t_alt = Total(jobs, *MakeFixedOrderPolicy(rank));
  double n2 = static_cast<double>(n) * n;
  EXPECT_NEAR(t / (n2 * (1 + beta) / 2), 1.0, 0.02);
  EXPECT_NEAR(t_alt / (n2 * beta / 2), 1.0, 0.02);
  EXPECT_NEAR(t / t_alt, 1 + 1 / beta, 0.03);
}

// Paper §3.1: makespan is minimised by running jobs with y >= x before jobs
// with y < x at both stations. Brute force over all orders of 5 jobs.
TEST(PolicyTest, ShuffleHeavyFirstMinimisesMakespan) {
  Rng rng(42);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<TandemJob> jobs;
    for (int i = 0; i < 5; ++i) jobs.push_back({0, rng.Exponential(1), rng.Exponential(1)});
    std::vector<int> perm = {0, 1, 2, 3, 4};
    double best = kInf;
    do {
      std::vector<int> rank(5);
      for (int pos = 0; pos < 5; ++pos) rank[perm[pos]] = pos;
      auto r = SimulateTandem(jobs, *MakeFixedOrderPolicy(rank));
      ASSERT_TRUE(r.ok());
      best = std::min(best, r->makespan);
    } while (std::next_permutation(perm.begin(), perm.end()));
    std::vector<int> rank(5);
    for (int i = 0; i < 5; ++i) rank[i] = (jobs[i].y >= jobs[i].x ? 0 : 10) + i;
    auto r = SimulateTandem(jobs, *MakeFixedOrderPolicy(rank));
    ASSERT_TRUE(r.ok());
    EXPECT_LE(r->makespan, best * (1 + 1e-9)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace mr::model
