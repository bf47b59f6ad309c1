// Issue 6 regression: policies keep scratch buffers and a pool-name cache
// between calls. A long-lived policy object that keeps nothing else
// (RoundMemory::kNone) must decide exactly as a fresh one on every snapshot, whatever it
// decided before (sizes, ids and pools vary). What the other policies keep is held to its
// trait: kServiceTurns rotates slots among equal jobs; every policy, whatever it keeps,
// decides alike in two objects given the same history.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "policy_params.h"
#include "scheduler/policies/fair_scheduler.h"
#include "scheduler/scheduler.h"
#include "test_util.h"

namespace mr::sched {
namespace {

Snapshot RandomSnapshot(std::mt19937* rng) {
  auto num = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(*rng); };
  Snapshot snap;
  const bool big = num(0, 4) == 0;
  const bool sparse_ids = num(0, 2) == 0;
  const int workers = num(1, big ? 120 : 6);
  for (int w = 0; w < workers; ++w) {
    WorkerId id = sparse_ids ? static_cast<WorkerId>(w * 100003 + 11) : static_cast<WorkerId>(w + 1);
    snap.workers.push_back(testing::MakeWorker(id, num(0, 2), num(0, 2), num(0, 1), num(0, 3) ? 1.0 : 2.0));
  }
  const int jobs = num(0, big ? 1200 : 15);
  for (int j = 0; j < jobs; ++j) {
    JobView job = testing::MakeJob(static_cast<JobId>(j + 1), num(0, 6), num(0, 3) ? j : num(0, j));
    job.params.pool = num(0, 3) == 0 ? "" : "p" + std::to_string(num(0, 6));
    job.reduces_running = num(0, 2);
    job.maps_running = num(0, 2);
    for (int r = 0, n = num(0, 3); r < n; ++r) {
      job.ready_reduces.push_back({r, snap.workers[num(0, workers - 1)].id});
    }
    job.shuffle_bytes_available = num(0, 1) * 1e6;
    if (num(0, 3) > 0) testing::SetSize(&job, num(0, 9), num(0, 9), num(0, 9), num(0, 9), 1, 1e9);
    snap.jobs.push_back(std::move(job));
  }
  return snap;
}

::testing::AssertionResult SameDecision(const Decision& got, const Decision& want) {
  if (got.assignments.size() != want.assignments.size()) {
    return ::testing::AssertionFailure() << got.assignments.size() << " assignments, want " << want.assignments.size();
  }
  for (size_t i = 0; i < want.assignments.size(); ++i) {
    const Assignment& a = got.assignments[i];
    const Assignment& b = want.assignments[i];
    if (!(a.job == b.job && a.kind == b.kind && a.index == b.index && a.worker == b.worker && a.slot == b.slot)) {
      return ::testing::AssertionFailure() << "assignment " << i << " differs";
    }
  }
  if (got.shuffle_shares != want.shuffle_shares) return ::testing::AssertionFailure() << "shuffle shares differ";
  if (got.map_shares != want.map_shares) return ::testing::AssertionFailure() << "map shares differ";
  if (got.note != want.note) return ::testing::AssertionFailure() << "notes differ";
  return ::testing::AssertionSuccess();
}

bool KeepsNothing(const PolicyRow& row) { return row.traits.memory == RoundMemory::kNone; }
bool TakesTurns(const PolicyRow& row) { return row.traits.memory == RoundMemory::kServiceTurns; }

// Policies that keep state have tests of their own for it: fair's and klps's turns below;
// splitsrpt remembers where each class last started maps (srpt_test.cc,
// AOneSlotClassRotatesOverTheWorkers); asrpt keeps its virtual schedule and the round's
// allocation (asrpt_test.cc, AllocationChangesOnlyAtRoundBoundaries).
class StatelessPolicyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(StatelessPolicyTest, ALongLivedPolicyDecidesExactlyAsAFreshOne) {
  const std::string& name = GetParam();
  auto reused = CreateScheduler(name);
  ASSERT_TRUE(reused.ok());
  std::mt19937 rng(99);
  for (int round = 0; round < 150; ++round) {
    Snapshot snap = RandomSnapshot(&rng);
    auto fresh = CreateScheduler(name);
    ASSERT_TRUE(fresh.ok());
    Decision want = (*fresh)->Schedule(snap);
    Decision got = (*reused)->Schedule(snap);
    ASSERT_TRUE(SameDecision(got, want)) << name << " round " << round;
    ASSERT_TRUE(testing::CheckContract(snap, got)) << name << " round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, StatelessPolicyTest, ::testing::ValuesIn(testing::PoliciesWhere(KeepsNothing)),
                         testing::PolicyParamName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StatelessPolicyTest);  // a table may have none

// Whatever a policy keeps, it is a function of what it saw: two objects fed the same
// snapshots decide alike every round.
class PolicyHistoryTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PolicyHistoryTest, TwoObjectsWithTheSameHistoryDecideAlike) {
  const std::string& name = GetParam();
  auto first = CreateScheduler(name), second = CreateScheduler(name);
  ASSERT_TRUE(first.ok() && second.ok());
  std::mt19937 rng(7);
  for (int round = 0; round < 150; ++round) {
    Snapshot snap = RandomSnapshot(&rng);
    snap.now = round * 0.7;  // time moves on, so round-based plans turn over
    ASSERT_TRUE(SameDecision((*first)->Schedule(snap), (*second)->Schedule(snap))) << name << " round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, PolicyHistoryTest, ::testing::ValuesIn(testing::AllPolicies()),
                         testing::PolicyParamName);

// Seven equal jobs and three map slots: a policy that takes turns must not let the three
// oldest jobs keep the slots (FIFO); over a few rounds every job gets served.
class TurnTakingPolicyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TurnTakingPolicyTest, RotatesSlotsAmongEqualJobs) {
  const std::string& name = GetParam();
  auto policy = CreateScheduler(name);
  ASSERT_TRUE(policy.ok());
  std::map<JobId, int> served;
  for (int round = 0; round < 7; ++round) {
    Snapshot snap;
    snap.workers.push_back(testing::MakeWorker(1, 3, 0, 0, 1.0));
    for (int j = 0; j < 7; ++j) snap.jobs.push_back(testing::MakeJob(static_cast<JobId>(j + 1), 20, j));
    Decision d = (*policy)->Schedule(snap);  // every task finishes before the next round
    ASSERT_EQ(d.assignments.size(), 3u) << name;
    for (const Assignment& a : d.assignments) served[a.job]++;
  }
  ASSERT_EQ(served.size(), 7u) << name << ": some job never got a slot";
  for (const auto& [job, n] : served) EXPECT_EQ(n, 3) << name << " job " << job;
}

INSTANTIATE_TEST_SUITE_P(Table, TurnTakingPolicyTest, ::testing::ValuesIn(testing::PoliciesWhere(TakesTurns)),
                         testing::PolicyParamName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TurnTakingPolicyTest);

// The fair scheduler caches pool configs; moving it after use must not leave
// the cache pointing into the moved-from object.
TEST(PolicyReuseTest, AMovedFairSchedulerStillUsesItsPools) {
  auto pools = PoolTable::Parse("pool p1 min_reduces=3 min_maps=2 weight=2\npool default weight=0.5\n");
  ASSERT_TRUE(pools.ok());
  std::mt19937 rng(5);
  // `twin` sees the same history as `first` but is never moved, so the two
  // must agree exactly (the service memory included).
  FairScheduler first("fair", *pools), twin("fair", *pools);
  for (int i = 0; i < 5; ++i) {
    Snapshot snap = RandomSnapshot(&rng);
    first.Schedule(snap);
    twin.Schedule(snap);
  }
  FairScheduler moved(std::move(first));
  for (int round = 0; round < 50; ++round) {
    Snapshot snap = RandomSnapshot(&rng);
    Decision want = twin.Schedule(snap);
    Decision got = moved.Schedule(snap);
    ASSERT_EQ(got.note, want.note) << round;
    ASSERT_EQ(testing::MapsPerJob(got), testing::MapsPerJob(want)) << round;
    ASSERT_EQ(got.assignments.size(), want.assignments.size()) << round;
    ASSERT_EQ(got.shuffle_shares, want.shuffle_shares) << round;
  }
}

}  // namespace
}  // namespace mr::sched
