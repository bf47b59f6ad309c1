// Issue 6 regression: policies keep scratch buffers and a pool-name cache
// between calls. A long-lived policy object must decide exactly as a fresh one
// on every snapshot, whatever it decided before (sizes, ids and pools vary).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

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

// fair and klps remember whom they served last (ServiceMemory) so that ties
// rotate; they are checked by SharingPoliciesRotateSlotsAmongEqualJobs instead.
// splitsrpt remembers where each class last started maps (srpt_test.cc,
// AOneSlotClassRotatesOverTheWorkers). asrpt keeps its virtual schedule and the round's
// allocation (asrpt_test.cc, AllocationChangesOnlyAtRoundBoundaries).
TEST(PolicyReuseTest, ALongLivedPolicyDecidesExactlyAsAFreshOne) {
  for (const std::string& name : KnownPolicies()) {
    if (name == "fair" || name == "klps" || name == "splitsrpt" || name == "asrpt") continue;
    auto reused = CreateScheduler(name);
    ASSERT_TRUE(reused.ok());
    std::mt19937 rng(99);
    for (int round = 0; round < 150; ++round) {
      Snapshot snap = RandomSnapshot(&rng);
      auto fresh = CreateScheduler(name);
      ASSERT_TRUE(fresh.ok());
      Decision want = (*fresh)->Schedule(snap);
      Decision got = (*reused)->Schedule(snap);
      ASSERT_EQ(got.assignments.size(), want.assignments.size()) << name << " round " << round;
      for (size_t i = 0; i < want.assignments.size(); ++i) {
        const Assignment& a = got.assignments[i];
        const Assignment& b = want.assignments[i];
        ASSERT_TRUE(a.job == b.job && a.kind == b.kind && a.index == b.index && a.worker == b.worker &&
                    a.slot == b.slot)
            << name << " round " << round << " assignment " << i;
      }
      ASSERT_EQ(got.shuffle_shares, want.shuffle_shares) << name << " round " << round;
      ASSERT_EQ(got.map_shares, want.map_shares) << name << " round " << round;
      ASSERT_EQ(got.note, want.note) << name << " round " << round;
      ASSERT_TRUE(testing::CheckContract(snap, got)) << name << " round " << round;
    }
  }
}

// Seven equal jobs and three map slots: a sharing policy must not let the three
// oldest jobs keep the slots (FIFO); over a few rounds every job gets served.
TEST(PolicyReuseTest, SharingPoliciesRotateSlotsAmongEqualJobs) {
  for (const std::string name : {"fair", "klps"}) {
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
}

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
