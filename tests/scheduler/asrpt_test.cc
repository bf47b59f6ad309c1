// asrpt: Algorithm 1 of "Minimizing total flow time of MapReduce jobs" on hand-worked
// instances in the paper's units (tests/scheduler/unit_slots.h), the virtual SRPT
// schedule, rounds, the fill rule between rounds, and invariants on random sequences.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "scheduler/policies/asrpt_allocation.h"
#include "scheduler/policies/asrpt_scheduler.h"
#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/policies/virtual_srpt.h"
#include "test_util.h"
#include "unit_slots.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::RunUnitSlots;
using testing::UnitJob;

std::unique_ptr<Scheduler> Asrpt(double round = 1) {
  PolicyOptions o;
  o.SetValue("asrpt-round", round);
  auto s = CreateScheduler("asrpt", o);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

TEST(AsrptTest, RegisteredClusterScopedAndRequiresUnifiedSlots) {
  auto s = CreateScheduler("asrpt");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->name(), "asrpt");
  EXPECT_EQ((*s)->scope(), SnapshotScope::kCluster);
  EXPECT_TRUE((*s)->requires_unified_slots());
  auto defaults = ResolvePolicyOptions("asrpt", {});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->Double("asrpt-round"), 1.0);
  // A round must be positive.
  PolicyOptions bad;
  EXPECT_FALSE(bad.Set(FindPolicy("asrpt")->options[0], "0s").ok());
  EXPECT_TRUE(bad.Set(FindPolicy("asrpt")->options[0], "250ms").ok());
}

// Preemptive, N = 2. A (slot 0: 2 maps, 2 reduce units), B (slot 0: 1 map, 4 units),
// C (slot 1: 1 map, 1 unit). V = the virtual SRPT schedule (no map->reduce wait).
// slot 0: V: A(4) before B(5): A gets 2 machines, both on maps: MapLoad A = 2.
//         order by available work A(4), B(5). Pass 1: A 2 maps. d = 0.
// slot 1: V: A(2 reduce) = C(2), A arrived first: A 2 machines on reduce. MapLoad all 0.
//         order A(2 reduce), C(2), B(5). Pass 2: A 2 reduces. A done (flow 2).
// slot 2: V: C(2) 2 machines, 1 on its map: MapLoad C = 1; B none.
//         order C(2), B(5). Pass 1: C 1 map. Pass 3: B 1 map. d = 0.
// slot 3: order C(1 reduce), B(4 reduce). Pass 2: C 1, B 1. C done (flow 3).
// slot 4: pass 2: B 2.   slot 5: B 1. B done (flow 6).   Total 2 + 3 + 6 = 11.
TEST(AsrptTest, HandWorkedPreemptiveInstance) {
  auto s = Asrpt();
  auto run = RunUnitSlots(*s, {{0, 2, {1, 1}}, {0, 1, {2, 2}}, {1, 1, {1}}}, 2, /*preemptive=*/true);
  ASSERT_EQ(run.slots.size(), 6u);
  using M = std::map<JobId, int>;
  EXPECT_EQ(run.slots[0].maps, (M{{1, 2}}));
  EXPECT_EQ(run.slots[0].reduces, M{});
  EXPECT_EQ(run.slots[1].maps, M{});
  EXPECT_EQ(run.slots[1].reduces, (M{{1, 2}}));
  EXPECT_EQ(run.slots[2].maps, (M{{2, 1}, {3, 1}}));
  EXPECT_EQ(run.slots[2].reduces, M{});
  EXPECT_EQ(run.slots[3].reduces, (M{{2, 1}, {3, 1}}));
  EXPECT_EQ(run.slots[4].reduces, (M{{2, 2}}));
  EXPECT_EQ(run.slots[5].reduces, (M{{2, 1}}));
  EXPECT_EQ(run.flow, (M{{1, 2}, {2, 6}, {3, 3}}));
  EXPECT_EQ(run.total_flow, 11);
  // The allocation is recorded as map_shares: slot 2 gives C one map and B one.
  EXPECT_EQ(run.slots[2].map_shares.size(), 2u);
  EXPECT_EQ(run.slots[2].map_shares.at(3), 1.0);
}

// Non-preemptive, N = 2. A (slot 0: 1 map, one reduce of 3 units), B (slot 0: 2 maps,
// one reduce of 1), C (slot 1: 1 map, one reduce of 1).
// slot 0: V: B(3) before A(4): B 2 machines on maps, MapLoad B = 2.
//         order B(3), A(4). Pass 1: B 2 maps. d = 0.
// slot 1: V: B(1) 1 machine (reduce), C(2) 1 machine on its map: MapLoad C = 1.
//         order B(1 reduce), C(2), A(4). Pass 1: C 1 map. Pass 2: B 1 reduce. B done (2).
// slot 2: V: C(1) 1 machine, A(4) 1 machine on its map: MapLoad A = 1.
//         order C(1 reduce), A(4). Pass 1: A 1 map. Pass 2: C 1 reduce. C done (2).
// slot 3: order A(3 reduce). Pass 2: A's reduce starts and holds a machine.
// slots 4, 5: the reduce is kept (d = 1, nothing else to run). A done in slot 5 (6).
// Total 2 + 2 + 6 = 10.
TEST(AsrptTest, HandWorkedNonPreemptiveInstance) {
  auto s = Asrpt();
  auto run = RunUnitSlots(*s, {{0, 1, {3}}, {0, 2, {1}}, {1, 1, {1}}}, 2, /*preemptive=*/false);
  ASSERT_EQ(run.slots.size(), 6u);
  using M = std::map<JobId, int>;
  EXPECT_EQ(run.slots[0].maps, (M{{2, 2}}));
  EXPECT_EQ(run.slots[1].maps, (M{{3, 1}}));
  EXPECT_EQ(run.slots[1].reduces, (M{{2, 1}}));
  EXPECT_EQ(run.slots[2].maps, (M{{1, 1}}));
  EXPECT_EQ(run.slots[2].reduces, (M{{3, 1}}));
  EXPECT_EQ(run.slots[3].reduces, (M{{1, 1}}));
  EXPECT_EQ(run.slots[4].reduces, M{});
  EXPECT_EQ(run.slots[4].maps, M{});
  // The kept reduce is the allocation while it runs.
  EXPECT_EQ(run.slots[4].map_shares.at(1), 1.0);
  EXPECT_EQ(run.flow, (M{{1, 6}, {2, 2}, {3, 2}}));
  EXPECT_EQ(run.total_flow, 10);
}

TEST(AsrptAllocationTest, PassesInThePapersOrder) {
  // In order: a reduce-phase job (3 ready, 1 kept), a map job SRPT runs (load 2, 5 tasks),
  // a map job SRPT does not run (4 tasks). 6 machines: kept 1, pass 1 gives 2, pass 2 3,
  // nothing is left for pass 3.
  std::vector<AsrptJob> jobs = {{false, 3, 0, 1, false}, {true, 5, 2, 0, false}, {true, 4, 0, 0, false}};
  std::vector<int> alloc;
  EXPECT_EQ(AllocateAsrpt(jobs, 6, &alloc), 0);
  EXPECT_EQ(alloc, (std::vector<int>{4, 2, 0}));
  // 14 machines: pass 3 tops up the second job (3 more) and gives the third its 4; 1 idle.
  EXPECT_EQ(AllocateAsrpt(jobs, 14, &alloc), 1);
  EXPECT_EQ(alloc, (std::vector<int>{4, 5, 4}));
  // MapLoad above the schedulable tasks is capped by them (lines 16-21).
  jobs = {{true, 1, 3, 0, false}};
  EXPECT_EQ(AllocateAsrpt(jobs, 4, &alloc), 3);
  EXPECT_EQ(alloc, (std::vector<int>{1}));
}

Snapshot SizedSnapshot(std::vector<std::pair<double, double>> map_reduce_totals) {
  Snapshot snap;
  JobId id = 1;
  for (auto [m, r] : map_reduce_totals) {
    JobView j = MakeJob(id++, 1);
    j.estimate.source = j.estimate.reduce_source = EstimateSource::kHint;
    j.estimate.map_seconds_total = j.estimate.map_seconds_remaining = m;
    j.estimate.reduce_seconds_total = j.estimate.reduce_seconds_remaining = r;
    snap.jobs.push_back(j);
  }
  return snap;
}

TEST(VirtualSrptTest, SmallestFirstWholeMachinesMapBeforeReduce) {
  VirtualSrpt v;
  v.Sync(SizedSnapshot({{5, 5}, {1.5, 1}}));
  // Round of 2 s, 3 machines: job 2 (2.5 s) takes 2 machines (1.5 s map = 1 machine's
  // worth, rounded up), job 1 the third: 2 s of map.
  ASSERT_TRUE(v.Advance(3, 2.0));
  EXPECT_EQ(v.work(1).map_load, 1);
  EXPECT_DOUBLE_EQ(v.work(1).map + v.work(1).reduce, 0);
  EXPECT_EQ(v.work(0).map_load, 1);
  EXPECT_DOUBLE_EQ(v.work(0).map, 3);
  EXPECT_DOUBLE_EQ(v.work(0).reduce, 5);
}

TEST(VirtualSrptTest, AChangedEstimateMovesTheVirtualWork) {
  VirtualSrpt v;
  Snapshot snap = SizedSnapshot({{4, 2}, {10, 0}});
  v.Sync(snap);
  ASSERT_TRUE(v.Advance(1, 3.0));  // job 1: 3 s of map
  EXPECT_DOUBLE_EQ(v.work(0).map, 1);
  snap.jobs[0].estimate.map_seconds_total = 6;  // 2 s bigger than thought
  snap.jobs[0].estimate.reduce_seconds_total = 1;
  v.Sync(snap);
  EXPECT_DOUBLE_EQ(v.work(0).map, 3);
  EXPECT_DOUBLE_EQ(v.work(0).reduce, 1);
}

// The paper's schedule S is SRPT over the arrival sequence: it does not know that the real
// job has ended. N = 1, round 1. A (2 s of map) and B (3 s) arrive; round 1: A (2) < B (3),
// A's map gets the machine (MapLoad A = 1, A has 1 s left). Then the real A leaves the
// snapshot (it finished on machines the virtual schedule did not give it).
// Round 2, the paper's S: A (1 s left) is still the smallest, keeps the machine: MapLoad B = 0;
// round 3: A is virtually done and gone, B gets the machine (MapLoad B = 1).
// The variant kPresent drops A at once: round 2 gives B the machine.
TEST(VirtualSrptTest, ADepartedJobKeepsItsVirtualWorkUntilDone) {
  Snapshot both = SizedSnapshot({{2, 0}, {3, 0}});
  Snapshot only_b = both;
  only_b.jobs.erase(only_b.jobs.begin());
  VirtualSrpt paper;
  EXPECT_EQ(paper.membership(), VirtualSrpt::Membership::kArrivals);
  paper.Sync(both);
  ASSERT_TRUE(paper.Advance(1, 1.0));
  EXPECT_EQ(paper.work(0).map_load, 1);
  EXPECT_EQ(paper.work(1).map_load, 0);
  paper.Sync(only_b);
  ASSERT_EQ(paper.size(), 2u);  // B, then the departed A
  EXPECT_EQ(paper.work(0).id, 2u);
  EXPECT_EQ(paper.work(1).id, 1u);
  ASSERT_TRUE(paper.Advance(1, 1.0));
  EXPECT_EQ(paper.work(0).map_load, 0);
  EXPECT_DOUBLE_EQ(paper.work(0).map, 3);
  paper.Sync(only_b);
  EXPECT_EQ(paper.size(), 1u);  // A's virtual work is done: it leaves S
  ASSERT_TRUE(paper.Advance(1, 1.0));
  EXPECT_EQ(paper.work(0).map_load, 1);

  VirtualSrpt present(VirtualSrpt::Membership::kPresent);
  present.Sync(both);
  ASSERT_TRUE(present.Advance(1, 1.0));
  present.Sync(only_b);
  ASSERT_EQ(present.size(), 1u);
  ASSERT_TRUE(present.Advance(1, 1.0));
  EXPECT_EQ(present.work(0).map_load, 1);
  EXPECT_DOUBLE_EQ(present.work(0).map, 2);
}

// Round 10 s: calls inside a round keep the allocation; a freed slot goes to the job
// furthest below it, not to the first in order.
TEST(AsrptTest, AllocationChangesOnlyAtRoundBoundaries) {
  auto s = Asrpt(10);
  Snapshot snap;
  snap.workers = {MakeWorker(1, 0, 0, 4), MakeWorker(2, 0, 0, 4)};
  for (JobId id : {1, 2}) {
    JobView j = MakeJob(id, 20);
    j.estimate.source = EstimateSource::kHint;
    j.estimate.map_seconds_total = j.estimate.map_seconds_remaining = id == 1 ? 30 : 60;
    snap.jobs.push_back(j);
  }
  snap.now = 100;
  Decision d0 = s->Schedule(snap);
  // V: job 1 (30 s) takes 3 machines of 10 s, job 2 the other 5: MapLoads 3 and 5.
  ASSERT_EQ(testing::MapsPerJob(d0), (std::map<JobId, int>{{1, 3}, {2, 5}}));
  // 5 s later job 1 became tiny and job 2's maps 3 and 4 finished: two slots free on
  // worker 2. Inside the round the plan stands: job 2 is 2 below, job 1 at its allocation.
  for (auto& j : snap.jobs) j.pending_maps.erase(j.pending_maps.begin(), j.pending_maps.begin() + (j.id == 1 ? 3 : 5));
  for (auto& j : snap.jobs) {
    for (int i = 0; i < 3; ++i) j.running.push_back({TaskKind::kMap, i, 1, 1, SlotKind::kUnified});
    j.maps_running = 3;
  }
  snap.jobs[0].estimate.map_seconds_remaining = 1;
  snap.jobs[1].maps_done = 2;
  snap.workers[0].free_unified = 0;
  snap.workers[1].free_unified = 2;
  snap.now = 105;
  Decision d1 = s->Schedule(snap);
  EXPECT_EQ(testing::MapsPerJob(d1), (std::map<JobId, int>{{2, 2}}));
  EXPECT_EQ(d1.map_shares, d0.map_shares);
  // At 110 a new round. V has done job 1's 30 s and 50 of job 2's 60: pass 1 gives job 2
  // MapLoad 1; job 1 (1 s of available work, first) takes the other 7 in pass 3.
  snap.now = 110;
  Decision d2 = s->Schedule(snap);
  EXPECT_NE(d2.note.find("planned"), std::string::npos) << d2.note;
  EXPECT_EQ(d1.note.find("planned"), std::string::npos) << d1.note;
  EXPECT_EQ(d2.map_shares, (ShareMap{{1, 7.0}, {2, 1.0}}));
  EXPECT_EQ(testing::MapsPerJob(d2), (std::map<JobId, int>{{1, 2}}));
}

// N = 1, round 1 s. A (10 maps of 1 s) alone at t = 0, then no call until t = 5, when B
// (2 maps) is there. The skipped rounds 1-4 served A only (B was not there), so in round 5
// the virtual schedule has A at 5 s and B at 2 s: B is SRPT's, pass 1 gives it the machine.
// (Had B been served in the skipped rounds, it would be done virtually and A would get it.)
TEST(AsrptTest, SkippedRoundsServeOnlyTheJobsKnownBefore) {
  auto s = Asrpt(1);
  Snapshot snap;
  snap.workers = {MakeWorker(1, 0, 0, 1)};
  JobView a = MakeJob(1, 10, 0);
  a.estimate.source = EstimateSource::kHint;
  a.estimate.map_seconds_total = a.estimate.map_seconds_remaining = 10;
  snap.jobs = {a};
  EXPECT_EQ(s->Schedule(snap).map_shares, (ShareMap{{1, 1.0}}));
  JobView b = MakeJob(2, 2, 4.5);
  b.estimate.source = EstimateSource::kHint;
  b.estimate.map_seconds_total = b.estimate.map_seconds_remaining = 2;
  snap.jobs = {a, b};
  snap.now = 5;
  Decision d = s->Schedule(snap);
  EXPECT_EQ(d.map_shares, (ShareMap{{2, 1.0}})) << d.note;
  EXPECT_EQ(testing::MapsPerJob(d), (std::map<JobId, int>{{2, 1}}));
}

// A mixed worker: one map, one reduce and one unified slot (N = 1). A has finished its maps
// (2 ready reduces, 2 s of reduce work), B has 3 maps (10 s), C 2 maps (1.5 s), B before
// C by arrival. V: C is smallest, its map work gets the machine (MapLoad 1); order by
// available work C(1.5), A(2), B(10); pass 1 gives C the unified slot. The dedicated slots
// are outside the plan and go in that order: the reduce slot to A, the map slot to C's
// second map (in arrival order it would be B's).
TEST(AsrptTest, DedicatedSlotsOfAMixedClusterGoInAsrptOrder) {
  auto s = Asrpt();
  Snapshot snap;
  snap.workers = {MakeWorker(1, 1, 1, 1)};
  JobView a = MakeJob(1, 0), b = MakeJob(2, 3), c = MakeJob(3, 2);
  a.maps_total = a.maps_done = 2;
  a.reduces_total = 2;
  a.ready_reduces = {{0, 1}, {1, 1}};
  a.estimate.source = b.estimate.source = c.estimate.source = EstimateSource::kHint;
  a.estimate.reduce_source = EstimateSource::kHint;
  a.estimate.map_seconds_total = 2;
  a.estimate.reduce_seconds_total = a.estimate.reduce_seconds_remaining = 2;
  b.estimate.map_seconds_total = b.estimate.map_seconds_remaining = 10;
  c.estimate.map_seconds_total = c.estimate.map_seconds_remaining = 1.5;
  snap.jobs = {a, b, c};
  Decision d = s->Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(d.map_shares, (ShareMap{{3, 1.0}}));
  std::vector<std::tuple<JobId, TaskKind, SlotKind>> got;
  for (const Assignment& x : d.assignments) got.emplace_back(x.job, x.kind, x.slot);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::tuple<JobId, TaskKind, SlotKind>>{
                     {1, TaskKind::kReduce, SlotKind::kReduce},
                     {3, TaskKind::kMap, SlotKind::kMap},
                     {3, TaskKind::kMap, SlotKind::kUnified}}));
}

// Random sequences in time order on mixed clusters: the contract, no reduce of a job with
// maps left, and every free unified slot used while any job has a task for it.
TEST(AsrptTest, InvariantsOnRandomSnapshotSequences) {
  std::mt19937 rng(7);
  auto num = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int seq = 0; seq < 30; ++seq) {
    auto s = Asrpt(num(1, 3));
    double now = 0;
    for (int round = 0; round < 60; ++round) {
      now += 0.25 * num(0, 8);
      Snapshot snap;
      snap.now = now;
      const int workers = num(1, 5);
      for (int w = 0; w < workers; ++w) {
        WorkerView v = MakeWorker(static_cast<WorkerId>(w + 1), num(0, 1), num(0, 1), num(0, 3));
        v.unified_slots += num(0, 2);
        snap.workers.push_back(v);
      }
      for (int j = 0; j < num(0, 15); ++j) {
        JobView job = MakeJob(static_cast<JobId>(j + 1 + seq % 3), num(0, 6), j);
        job.maps_total = static_cast<int>(job.pending_maps.size()) + num(0, 3);
        job.maps_done = job.maps_total - static_cast<int>(job.pending_maps.size()) - num(0, 1);
        if (job.maps_done < 0) job.maps_done = 0;
        for (int r = 0, n = num(0, 3); r < n; ++r) job.ready_reduces.push_back({r, static_cast<WorkerId>(num(1, workers + 1))});
        if (num(0, 3) > 0) {
          job.estimate.source = EstimateSource::kOnline;
          job.estimate.map_seconds_total = num(0, 50);
          job.estimate.map_seconds_remaining = num(0, 50);
        }
        if (num(0, 1) > 0) {
          job.estimate.reduce_source = EstimateSource::kOnline;
          job.estimate.reduce_seconds_total = job.estimate.reduce_seconds_remaining = num(0, 30);
        }
        snap.jobs.push_back(job);
      }
      Decision d = s->Schedule(snap);
      ASSERT_TRUE(testing::CheckContract(snap, d)) << seq << "/" << round;
      std::map<JobId, const JobView*> by_id;
      for (const JobView& j : snap.jobs) by_id[j.id] = &j;
      int unified_used = 0;
      for (const Assignment& a : d.assignments) {
        const JobView& j = *by_id[a.job];
        if (a.kind == TaskKind::kReduce) {
          ASSERT_TRUE(j.maps_done == j.maps_total && j.pending_maps.empty()) << seq << "/" << round;
        }
        unified_used += a.slot == SlotKind::kUnified;
      }
      int free_unified = 0;
      for (const WorkerView& w : snap.workers) free_unified += w.free_unified;
      if (unified_used < free_unified) {
        // Work conservation: a unified slot is idle only when no pending map is left.
        std::map<JobId, int> placed = testing::MapsPerJob(d);
        for (const JobView& j : snap.jobs) {
          ASSERT_EQ(placed[j.id], static_cast<int>(j.pending_maps.size()))
              << "job " << j.id << " left maps beside a free unified slot, " << seq << "/" << round;
        }
      }
    }
  }
}

}  // namespace
}  // namespace mr::sched
