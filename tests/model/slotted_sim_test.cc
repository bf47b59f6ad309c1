// The slotted model driving live policies: hand-worked schedules, and the checks that make
// an invalid decision an error (with fake policies that break the contract on purpose).
#include <gtest/gtest.h>

#include <functional>

#include "model/slotted/slotted_sim.h"
#include "tests/model/slotted_test_util.h"

namespace mr::model {
namespace {

using testing::RunSlottedPolicy;
using testing::ThreeJobs;

// The live fifo places every ready reduce (in arrival order) before any map, then maps in
// arrival order.
//  slot 1: job 1's two maps.
//  slot 2: job 1's reduce starts (holds a machine for 2 slots); job 2's map.
//  slot 3: job 1's reduce runs on; job 2's reduce. Jobs 1 and 2 finish: flows 3, 3.
//  slot 4: job 3's map (the other machine idles: nothing else is ready).
//  slot 5: job 3's two reduces. Job 3 finishes: flow 5 - 2 + 1 = 4.
TEST(SlottedSimTest, FifoHandWorked) {
  SlottedResult r = RunSlottedPolicy("fifo", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m2", "2: 1r1 2m1", "3: 1r1 2r1", "4: 3m1", "5: 3r2"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{3, 3, 4}));
  EXPECT_EQ(r.total_flow_time, 10);
  EXPECT_EQ(r.last_slot, 5);
}

// The live fair: ready reduces first (fewest running first), then map slots max-min fair by
// demand; among jobs equally below their share the least recently served one wins.
//  slot 1: demands 2 and 1 on 2 machines: one map each.
//  slot 2: job 2's reduce; one machine left for job 1 and job 3 (share 1/2 each): job 3,
//          never served, wins. Job 2 finishes: flow 2.
//  slot 3: job 3's two reduces take both machines. Job 3 finishes: flow 2.
//  slot 4: job 1's last map. Slots 5-6: its 2-unit reduce. Job 1 finishes: flow 6.
TEST(SlottedSimTest, FairHandWorked) {
  SlottedResult r = RunSlottedPolicy("fair", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1 2m1", "2: 2r1 3m1", "3: 3r2", "4: 1m1",
                                               "5: 1r1", "6: 1r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{6, 2, 2}));
  EXPECT_EQ(r.total_flow_time, 10);
}

// Preemptive fifo on the same jobs: job 1's reduce is two 1-unit reduces, both ready in
// slot 2, so it takes both machines and job 2 waits.
//  slot 1: job 1's maps. slot 2: job 1's two reduce units: job 1 done, flow 2.
//  slot 3: job 2's map, job 3's map. slot 4: job 2's unit, then one of job 3's two units.
//  Job 2 done (flow 4). slot 5: job 3's last unit: flow 4.
TEST(SlottedSimTest, PreemptiveFifoHandWorked) {
  SlottedResult r = RunSlottedPolicy("fifo", ThreeJobs(), 2, true);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m2", "2: 1r2", "3: 2m1 3m1", "4: 2r1 3r1", "5: 3r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{2, 4, 4}));
  EXPECT_EQ(r.total_flow_time, 10);
}

// The live lrpt: jobs by largest remaining work (map + reduce units), ties by arrival; each
// job in turn takes every machine it has a task for.
//  slot 1: job 1 (4 left) before job 2 (2): job 1's two maps.
//  slot 2: job 3 (3) first: its map; job 1 (2) before job 2 (2): its reduce starts.
//  slot 3: job 1's reduce runs on; job 2 (2) before job 3 (2): job 2's map. Job 1 done: 3.
//  slot 4: job 3 (2) before job 2 (1): job 3's two reduces. Job 3 done: flow 3.
//  slot 5: job 2's reduce. Job 2 done: flow 5.
TEST(SlottedSimTest, LrptHandWorked) {
  SlottedResult r = RunSlottedPolicy("lrpt", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m2", "2: 1r1 3m1", "3: 1r1 2m1", "4: 3r2", "5: 2r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{3, 5, 3}));
  EXPECT_EQ(r.total_flow_time, 11);
}

// Preemptive lrpt: job 1's reduce is two units that need not run together.
//  slot 1: job 1's maps. slot 2: job 3's map, one of job 1's units (job 3: 3 left > 2).
//  slot 3: job 2 (2 left) and job 3 (2) before job 1 (1): job 2's map, a unit of job 3.
//  slot 4: all three have 1 left: jobs 1 and 2 by arrival. Both done: flows 4, 4.
//  slot 5: job 3's last unit: flow 4.
TEST(SlottedSimTest, PreemptiveLrptHandWorked) {
  SlottedResult r = RunSlottedPolicy("lrpt", ThreeJobs(), 2, true);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m2", "2: 1r1 3m1", "3: 2m1 3r1", "4: 1r1 2r1", "5: 3r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{4, 4, 4}));
  EXPECT_EQ(r.total_flow_time, 12);
}

// The live asrpt (Algorithm 1, one round per slot). Its virtual SRPT schedule is the SRPT
// bound's of slotted_bounds_test.cc: map loads job 2 = 1 in slot 1, job 3 = 1 in slot 2,
// job 1 = 1 in slots 3 and 4. Jobs ordered by available work (map + reduce while maps are
// unfinished, else reduce).
//  slot 1: order job 2 (2), job 1 (4). Pass 1: job 2's map (its map load); pass 3: one map
//          of job 1.
//  slot 2: order job 2 (1), job 1 (3), job 3 (3). Pass 1: job 3's map; pass 2: job 2's
//          reduce. Job 2 done: flow 2.
//  slot 3: order job 3 (2), job 1 (3). Pass 1: job 1's last map; pass 2: one of job 3's
//          reduces.
//  slot 4: order job 3 (1), job 1 (2). Pass 2: job 3's last reduce, job 1's reduce starts.
//          Job 3 done: flow 3.
//  slot 5: job 1's reduce runs on (kept). Job 1 done: flow 5.
TEST(SlottedSimTest, AsrptHandWorked) {
  SlottedResult r = RunSlottedPolicy("asrpt", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1 2m1", "2: 2r1 3m1", "3: 1m1 3r1", "4: 1r1 3r1", "5: 1r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{5, 2, 3}));
  EXPECT_EQ(r.total_flow_time, 10);
}

// Preemptive asrpt: the same schedule here (job 1's reduce units are never split across
// slots in a way that could finish it sooner: they become available in slot 4 only).
TEST(SlottedSimTest, PreemptiveAsrptHandWorked) {
  SlottedResult r = RunSlottedPolicy("asrpt", ThreeJobs(), 2, true);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1 2m1", "2: 2r1 3m1", "3: 1m1 3r1", "4: 1r1 3r1", "5: 1r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{5, 2, 3}));
  EXPECT_EQ(r.total_flow_time, 10);
}

TEST(SlottedSimTest, IdleSlotsBetweenArrivalsAndMapOnlyJobs) {
  std::vector<SlottedJob> jobs = {{1, 1, {}}, {5, 3, {1}}};
  SlottedResult r = RunSlottedPolicy("fifo", jobs, 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1", "2:", "3:", "4:", "5: 2m2", "6: 2m1", "7: 2r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{1, 3}));
}

// A policy whose decision is written by the test, to break the contract on purpose.
class FakePolicy final : public sched::Scheduler {
 public:
  explicit FakePolicy(std::function<sched::Decision(const sched::Snapshot&)> f) : f_(std::move(f)) {}
  std::string_view name() const override { return "fake"; }
  sched::Decision Schedule(const sched::Snapshot& snap) override { return f_(snap); }

 private:
  std::function<sched::Decision(const sched::Snapshot&)> f_;
};

sched::Assignment Map(sched::JobId job, int index) {
  return {job, sched::TaskKind::kMap, index, 1, sched::SlotKind::kUnified};
}
sched::Assignment Reduce(sched::JobId job, int index) {
  return {job, sched::TaskKind::kReduce, index, 1, sched::SlotKind::kUnified};
}

Status RunFake(std::function<sched::Decision(const sched::Snapshot&)> f, bool preemptive = false,
               std::vector<SlottedJob> jobs = ThreeJobs()) {
  FakePolicy fake(std::move(f));
  SlottedOptions o;
  o.machines = 2;
  o.preemptive = preemptive;
  o.max_idle_slots = 5;
  return RunSlotted(jobs, fake, o).status();
}

void ExpectRefused(const Status& s, const std::string& what) {
  EXPECT_EQ(s.code(), StatusCode::kInternal) << s.ToString();
  EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("policy fake, slot "), std::string::npos) << s.message();
}

TEST(SlottedSimTest, RefusesMoreTasksThanFreeMachines) {
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.assignments = {Map(1, 0), Map(1, 1), Map(2, 0)};
                  return d;
                }),
                "assigns more tasks than the 2 free machines");
}

// A held non-preemptive reduce takes a machine from the next slots' free count.
TEST(SlottedSimTest, RefusesUsingAMachineAHeldReduceHolds) {
  ExpectRefused(RunFake([](const sched::Snapshot& s) {
                  sched::Decision d;
                  if (s.now == 1) d.assignments = {Map(1, 0), Map(1, 1)};
                  if (s.now == 2) d.assignments = {Reduce(1, 0), Map(2, 0)};
                  if (s.now == 3) d.assignments = {Reduce(2, 0), Map(3, 0)};
                  return d;
                }),
                "slot 3: assigns more tasks than the 1 free machines");
}

TEST(SlottedSimTest, RefusesATaskAssignedTwice) {
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.assignments = {Map(1, 1), Map(1, 1)};
                  return d;
                }),
                "map 1 of job 1 assigned twice");
}

TEST(SlottedSimTest, RefusesAReduceBeforeItsMapsAreDone) {
  // In the same decision as the job's last map: still too early (reduces run from f^(m) + 1).
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.assignments = {Map(2, 0), Reduce(2, 0)};
                  return d;
                }),
                "slot 1: reduce 0 of job 2 assigned before the job's maps are done");
  ExpectRefused(RunFake(
                    [](const sched::Snapshot&) {
                      sched::Decision d;
                      d.assignments = {Map(1, 0), Reduce(1, 3)};
                      return d;
                    },
                    /*preemptive=*/true),
                "reduce 3 of job 1 assigned before the job's maps are done");
}

TEST(SlottedSimTest, RefusesKillsQueuesBackupsAndOtherSlots) {
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.kills.push_back({1, sched::TaskKind::kMap, 0, 1, "x"});
                  return d;
                }),
                "kills a task");
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.assignments = {{1, sched::TaskKind::kMap, 0, 1, sched::SlotKind::kMap}};
                  return d;
                }),
                "on a slot other than its unified slots");
  ExpectRefused(RunFake([](const sched::Snapshot&) {
                  sched::Decision d;
                  d.assignments = {Map(7, 0)};
                  return d;
                }),
                "job 7 not in the system");
}

TEST(SlottedSimTest, FailsAPolicyThatNeverSchedules) {
  ExpectRefused(RunFake([](const sched::Snapshot&) { return sched::Decision(); }),
                "no work done for 5 slots while jobs wait");
}

// What the seam shows: one worker with N unified slots, now = slot, exact estimates in
// units, reduces ready only after the maps, a held reduce as a running attempt.
TEST(SlottedSimTest, SnapshotFollowsTheSeam) {
  std::vector<sched::Snapshot> seen;
  Status s = RunFake([&](const sched::Snapshot& snap) {
    seen.push_back(snap);
    sched::Decision d;
    const sched::JobView& j = snap.jobs.front();
    if (!j.pending_maps.empty()) d.assignments = {Map(j.id, j.pending_maps[0])};
    else if (!j.ready_reduces.empty()) d.assignments = {Reduce(j.id, j.ready_reduces[0].index)};
    return d;
  }, false, {{1, 1, {3}}});
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(seen.size(), 4u);  // map in slot 1, reduce in slots 2-4
  const sched::Snapshot& first = seen[0];
  ASSERT_EQ(first.workers.size(), 1u);
  EXPECT_EQ(first.workers[0].id, 1u);
  EXPECT_EQ(first.workers[0].unified_slots, 2);
  EXPECT_EQ(first.workers[0].free_unified, 2);
  EXPECT_EQ(first.workers[0].map_slots + first.workers[0].reduce_slots, 0);
  EXPECT_EQ(first.now, 1);
  const sched::JobView& j1 = first.jobs[0];
  EXPECT_EQ(j1.submit_time, 1);
  EXPECT_TRUE(j1.ready_reduces.empty());
  EXPECT_EQ(j1.estimate.source, sched::EstimateSource::kHint);
  EXPECT_EQ(j1.estimate.map_seconds_remaining, 1);
  EXPECT_EQ(j1.estimate.reduce_source, sched::EstimateSource::kHint);
  EXPECT_EQ(j1.estimate.reduce_seconds_total, 3);
  const sched::JobView& j2 = seen[1].jobs[0];
  EXPECT_EQ(seen[1].now, 2);
  EXPECT_EQ(j2.maps_done, 1);
  EXPECT_EQ(j2.estimate.map_seconds_remaining, 0);
  ASSERT_EQ(j2.ready_reduces.size(), 1u);
  const sched::JobView& j3 = seen[2].jobs[0];
  EXPECT_EQ(seen[2].workers[0].free_unified, 1);
  EXPECT_TRUE(j3.ready_reduces.empty());
  EXPECT_EQ(j3.reduces_running, 1);
  ASSERT_EQ(j3.running.size(), 1u);
  EXPECT_EQ(j3.running[0].kind, sched::TaskKind::kReduce);
  EXPECT_EQ(j3.running[0].slot, sched::SlotKind::kUnified);
  EXPECT_EQ(j3.running[0].start_time, 2);
  EXPECT_EQ(j3.estimate.reduce_seconds_remaining, 2);
}

// Preemptive: each unfinished reduce unit is a ready 1-unit reduce, at most N of them.
TEST(SlottedSimTest, PreemptiveListsAtMostNUnits) {
  std::vector<size_t> listed;
  Status s = RunFake([&](const sched::Snapshot& snap) {
    const sched::JobView& j = snap.jobs.front();
    listed.push_back(j.ready_reduces.size());
    sched::Decision d;
    if (!j.pending_maps.empty()) d.assignments = {Map(j.id, 0)};
    // Take the last listed unit: units need not finish in index order.
    else d.assignments = {Reduce(j.id, j.ready_reduces.back().index)};
    return d;
  }, true, {{1, 1, {2, 1}}});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(listed, (std::vector<size_t>{0, 2, 2, 1}));
}

}  // namespace
}  // namespace mr::model
