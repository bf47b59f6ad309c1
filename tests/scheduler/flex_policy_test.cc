// flex, the live policy (scheduler/policies/flex_scheduler.h): its row, that it never breaks
// a job's minimum or maximum and leaves no slot idle while a job below its maximum has a
// task (random snapshots), that each of the per-job flags and the policy's options changes a
// decision, epochs, and the allocations it reports for the trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "scheduler/policies/flex_scheduler.h"
#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"
#include "test_util.h"

namespace mr::sched {
namespace {

using testing::CheckContract;
using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;

std::unique_ptr<Scheduler> Flex(const std::map<std::string, std::string>& options = {}) {
  PolicyOptions o;
  for (const auto& [name, value] : options) {
    for (const OptionSpec& spec : FindPolicy("flex")->options) {
      if (name == spec.name) {
        EXPECT_TRUE(o.Set(spec, value).ok()) << name;
      }
    }
  }
  auto s = CreateScheduler("flex", o);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(*s) : nullptr;
}

// A job in its map phase with one map done (so measured: no new-phase minimum), `pending`
// maps waiting and `seconds` of map work left.
JobView Job(JobId id, int pending, double seconds) {
  JobView j = MakeJob(id, pending, 0);
  j.maps_total = pending + 1;
  j.maps_done = 1;
  for (int& m : j.pending_maps) ++m;
  j.estimate.source = EstimateSource::kOnline;
  j.estimate.map_seconds_remaining = seconds;
  return j;
}

// One worker with `slots` free map slots, jobs A (id 1, 10 maps, 1000 s) and B (id 2,
// 10 maps, 100 s): B is the smaller.
Snapshot TwoJobs(int slots = 10) {
  Snapshot snap;
  snap.now = 0;
  snap.workers = {MakeWorker(1, slots)};
  snap.jobs = {Job(1, 10, 1000), Job(2, 10, 100)};
  return snap;
}

std::map<JobId, int> Decide(Scheduler& s, const Snapshot& snap) {
  Decision d = s.Schedule(snap);
  EXPECT_TRUE(CheckContract(snap, d));
  return MapsPerJob(d);
}

TEST(FlexPolicyTest, RegisteredWithItsOptions) {
  auto s = Flex();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "flex");
  EXPECT_EQ(s->scope(), SnapshotScope::kCluster);
  auto defaults = ResolvePolicyOptions("flex", {});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->Double("flex-epoch"), 1.0);
  EXPECT_EQ(defaults->String("flex-metric"), "response-time");
  EXPECT_EQ(defaults->String("flex-replan"), "epoch") << "the paper's";
  EXPECT_EQ(defaults->String("flex-new-phase"), "always") << "the paper's";
  for (const char* option : {"flex-replan", "flex-new-phase"}) {
    PolicyOptions wrong;
    wrong.SetValue(option, std::string("sometimes"));
    EXPECT_EQ(CreateScheduler("flex", wrong).status().code(), StatusCode::kInvalidArgument) << option;
  }
  PolicyOptions bad;
  bad.SetValue("flex-metric", std::string("speed"));
  Status st = CreateScheduler("flex", bad).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("--flex-metric: unknown metric 'speed'"), std::string::npos) << st.ToString();
}

// Response time: the smaller job first, at its maximum (its 10 tasks); the other gets the rest.
TEST(FlexPolicyTest, ResponseTimePutsTheSmallerJobFirst) {
  auto s = Flex();
  Snapshot snap = TwoJobs(12);
  Decision d = s->Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 2}, {2, 10}}));
  // The allocations it reports, per job, for the trace and mr status.
  ASSERT_EQ(d.allocations.size(), 2u);
  for (const JobAllocation& a : d.allocations) {
    EXPECT_EQ(a.slot, SlotKind::kMap);
    EXPECT_EQ(a.metric, "response-time");
    EXPECT_EQ(a.slots, a.job == 2 ? 10 : 2);
    EXPECT_EQ(a.rank, a.job == 2 ? 0 : 1);
    EXPECT_EQ(a.max_slots, 10);
    EXPECT_FALSE(a.order.empty());
    // B on 10 slots: 100 s / 10 = 10 s; A: 2 slots for 10 s, then its 10: 980 / 10 more.
    EXPECT_NEAR(a.completion, a.job == 2 ? 10 : 10 + 98, 1e-6);
    EXPECT_NEAR(a.predicted, 10 + 108, 1e-6) << "the sum of the response times (arrival 0)";
  }
  EXPECT_NE(d.note.find("flex: epoch 1 planned map: 2 jobs on 12 slots"), std::string::npos) << d.note;
}

// Item 1's flags, each shown to change the decision on the same snapshot.
TEST(FlexPolicyTest, EachPerJobFlagChangesTheDecision) {
  const std::map<JobId, int> plain{{1, 2}, {2, 10}};
  {
    SCOPED_TRACE("baseline");
    EXPECT_EQ(Decide(*Flex(), TwoJobs(12)), plain);
  }
  {
    SCOPED_TRACE("--metric weighted-response-time --weight: the heavy large job first");
    Snapshot snap = TwoJobs(12);
    for (JobView& j : snap.jobs) j.params.metric = "weighted-response-time";
    EXPECT_EQ(Decide(*Flex(), snap), plain) << "equal weights: as response time";
    snap.jobs[0].params.weight = 100;
    EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 10}, {2, 2}}));
  }
  {
    SCOPED_TRACE("--flex-metric: the cluster's metric for jobs that name none");
    Snapshot snap = TwoJobs(12);
    snap.jobs[0].params.weight = 100;
    EXPECT_EQ(Decide(*Flex(), snap), plain) << "response time ignores weights";
    EXPECT_EQ(Decide(*Flex({{"flex-metric", "weighted-response-time"}}), snap),
              (std::map<JobId, int>{{1, 10}, {2, 2}}));
  }
  {
    SCOPED_TRACE("--metric tardiness --deadline: the job that can still make its deadline first");
    Snapshot snap = TwoJobs(12);
    for (JobView& j : snap.jobs) j.params.metric = "tardiness";
    snap.jobs[0].params.deadline = 101;  // A at 10 slots: 100 s; after B: 108 s
    snap.jobs[1].params.deadline = 1000;
    EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 10}, {2, 2}}));
    snap.jobs[0].params.deadline = 1000;
    snap.jobs[1].params.deadline = 11;
    EXPECT_EQ(Decide(*Flex(), snap), plain);
  }
  {
    SCOPED_TRACE("--metric sla --sla: A's step is early, B's late");
    Snapshot snap = TwoJobs(12);
    for (JobView& j : snap.jobs) j.params.metric = "sla";
    snap.jobs[0].params.sla = "101:10";
    snap.jobs[1].params.sla = "500:1";
    EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 10}, {2, 2}}));
  }
  {
    SCOPED_TRACE("--min-slots: A keeps 5 although B comes first");
    Snapshot snap = TwoJobs(12);
    snap.jobs[0].params.min_slots = 5;
    EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 5}, {2, 7}}));
  }
  {
    SCOPED_TRACE("--max-slots: B at most 3; the slots it leaves go to A");
    Snapshot snap = TwoJobs(12);
    snap.jobs[1].params.max_slots = 3;
    EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 9}, {2, 3}}));
  }
}

TEST(FlexPolicyTest, PoolMinimaAndMaximaFromThePoolsFile) {
  const std::string path = (std::filesystem::temp_directory_path() / "flex_pools.txt").string();
  {
    std::ofstream f(path);
    f << "pool big min_maps=6\npool small max_maps=4\n";
  }
  Snapshot snap = TwoJobs(12);
  snap.jobs[0].params.pool = "big";
  snap.jobs[1].params.pool = "small";
  EXPECT_EQ(Decide(*Flex({{"flex-pools", path}}), snap), (std::map<JobId, int>{{1, 8}, {2, 4}}))
      << "B capped at its pool's 4; A above its pool's 6";
  // Minima above the cluster are normalised, never refused.
  {
    std::ofstream f(path);
    f << "pool big min_maps=30\npool small min_maps=30\n";
  }
  EXPECT_EQ(Decide(*Flex({{"flex-pools", path}}), snap), (std::map<JobId, int>{{1, 6}, {2, 6}}));
  std::filesystem::remove(path);
  // A pool whose minimum is above its maximum is a line error.
  EXPECT_EQ(PoolTable::Parse("pool p min_maps=5 max_maps=3\n", "pools.txt").status().message(),
            "pools.txt:1: min_maps 5 is above max_maps 3");
}

// A new phase (no task finished) gets at least one slot, so it can be measured.
TEST(FlexPolicyTest, ANewPhaseGetsASlot) {
  Snapshot snap = TwoJobs(12);
  snap.jobs.push_back(MakeJob(3, 10, 0));  // nothing done yet; hinted at 5000 s, the largest
  snap.jobs[2].estimate.source = EstimateSource::kHint;
  snap.jobs[2].estimate.map_seconds_remaining = 5000;
  EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 1}, {2, 10}, {3, 1}}));
  // flex-new-phase unestimated: the hint is its estimate, so no measuring slot; last in the
  // order (the largest), it gets what A and B leave: nothing.
  EXPECT_EQ(Decide(*Flex({{"flex-new-phase", "unestimated"}}), snap), (std::map<JobId, int>{{1, 2}, {2, 10}}));
  snap.jobs[2].estimate.source = EstimateSource::kNone;  // no estimate: the same slot under both
  const std::map<JobId, int> unknown = Decide(*Flex(), snap);
  EXPECT_GE(unknown.count(3) ? unknown.at(3) : 0, 1);
  EXPECT_EQ(Decide(*Flex({{"flex-new-phase", "unestimated"}}), snap), unknown);
  snap.jobs[2].estimate.source = EstimateSource::kHint;
  snap.jobs[2].maps_done = 1;  // measured: last in the order, no slot left for it
  snap.jobs[2].pending_maps.pop_back();
  EXPECT_EQ(Decide(*Flex(), snap), (std::map<JobId, int>{{1, 2}, {2, 10}}));
}

// Allocations hold for an epoch; a new epoch recomputes them from the snapshot's estimates.
TEST(FlexPolicyTest, AllocationsAreRecomputedEachEpoch) {
  for (double epoch : {1.0, 0.25}) {
    auto s = Flex({{"flex-epoch", epoch == 1.0 ? "1s" : "250ms"}});
    Snapshot snap = TwoJobs(12);
    snap.workers[0].free_map = 0;  // every slot busy: only the plan happens
    Decision first = s->Schedule(snap);
    EXPECT_EQ(first.allocations.size(), 2u);
    // B turns out large, A small (re-estimated after a task), at t = 0.5.
    snap.now = 0.5;
    snap.jobs[0].estimate.map_seconds_remaining = 50;
    snap.jobs[1].estimate.map_seconds_remaining = 5000;
    Decision second = s->Schedule(snap);
    if (epoch == 1.0) {
      EXPECT_TRUE(second.allocations.empty()) << "within the epoch";
    } else {
      ASSERT_EQ(second.allocations.size(), 2u);
      EXPECT_EQ(second.allocations[0].job, 1u);
      EXPECT_EQ(second.allocations[0].rank, 0) << "A now first";
    }
  }
  // A job arriving inside an epoch waits for the next epoch (the paper recomputes at epochs
  // only); under flex-replan membership it is planned at once.
  for (const char* replan : {"epoch", "membership"}) {
    SCOPED_TRACE(replan);
    auto s = Flex({{"flex-replan", replan}});
    Snapshot snap = TwoJobs(12);
    snap.workers[0].free_map = 0;
    (void)s->Schedule(snap);
    snap.now = 0.1;
    snap.jobs.push_back(Job(3, 4, 4));
    EXPECT_EQ(s->Schedule(snap).allocations.size(), std::string(replan) == "epoch" ? 0u : 3u);
    snap.now = 1.0;  // the next epoch plans all three either way
    EXPECT_EQ(s->Schedule(snap).allocations.size(), 3u);
  }
}

// The epoch clock starts with the first job, not with the master's first round: the master
// runs rounds (its share refresh) before any job arrives, and a clock started there would
// put the epochs at a phase to the arrivals that no prediction or replay can reproduce (the
// simulator's first round is at the first arrival). After an idle spell it starts again.
TEST(FlexPolicyTest, TheEpochClockStartsWithTheFirstJob) {
  auto s = Flex({{"flex-epoch", "1s"}});
  Snapshot idle;
  idle.workers = {MakeWorker(1, 12)};
  for (double t : {0.0, 0.1, 0.2}) {
    idle.now = t;
    EXPECT_TRUE(s->Schedule(idle).allocations.empty());
  }
  Snapshot snap = TwoJobs(12);
  snap.workers[0].free_map = 0;  // every slot busy: only the plan happens
  snap.now = 0.7;                // the first job: its own epoch begins now
  EXPECT_EQ(s->Schedule(snap).allocations.size(), 2u) << "planned at its arrival";
  snap.now = 1.2;  // 1.0 would be an epoch on a clock started at 0; this one began at 0.7
  EXPECT_TRUE(s->Schedule(snap).allocations.empty()) << "within the epoch begun at 0.7";
  snap.now = 1.7;
  EXPECT_EQ(s->Schedule(snap).allocations.size(), 2u) << "the next epoch, at 0.7 + 1";
  idle.now = 2.0;  // every job done
  (void)s->Schedule(idle);
  snap.now = 2.3;  // the next arrival starts the clock again
  EXPECT_EQ(s->Schedule(snap).allocations.size(), 2u);
  snap.now = 3.0;
  EXPECT_TRUE(s->Schedule(snap).allocations.empty()) << "within the epoch begun at 2.3";
  // The simulator runs no round while idle: a round none of whose jobs the previous one saw
  // starts the clock too (jobs 1 and 2 done, job 3 arrived, no round between).
  Snapshot next = TwoJobs(12);
  next.workers[0].free_map = 0;
  next.jobs = {Job(3, 10, 100)};
  next.now = 3.1;
  EXPECT_EQ(s->Schedule(next).allocations.size(), 1u) << "a new busy spell: planned at once";
  next.now = 3.3;  // 3.3 is an epoch on the clock begun at 2.3, not on the one begun at 3.1
  EXPECT_TRUE(s->Schedule(next).allocations.empty());
}

// Map and reduce slots are allocated separately; unified slots as one pool.
TEST(FlexPolicyTest, MapReduceAndUnifiedPools) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 4, 2, 0)};
  snap.jobs = {Job(1, 6, 60)};
  JobView r = MakeJob(2, 0, 0);
  r.reduces_total = 3;
  r.ready_reduces = {{0, 1}, {1, 1}, {2, 1}};
  snap.jobs.push_back(r);
  Decision d = Flex()->Schedule(snap);
  ASSERT_TRUE(CheckContract(snap, d));
  int maps = 0, reduces = 0;
  for (const Assignment& a : d.assignments) (a.kind == TaskKind::kMap ? maps : reduces)++;
  EXPECT_EQ(maps, 4);
  EXPECT_EQ(reduces, 2);
  for (const JobAllocation& a : d.allocations) EXPECT_EQ(a.slot, a.job == 1 ? SlotKind::kMap : SlotKind::kReduce);

  snap.workers = {MakeWorker(1, 0, 0, 5)};
  d = Flex()->Schedule(snap);
  ASSERT_TRUE(CheckContract(snap, d));
  EXPECT_EQ(d.assignments.size(), 5u);
  for (const JobAllocation& a : d.allocations) EXPECT_EQ(a.slot, SlotKind::kUnified);
}

// On random snapshots (all slots free): every job gets at least min(its minimum, its tasks)
// when the minima fit, never more than its maximum, and no map slot stays free while a job
// below its maximum has a pending map.
TEST(FlexPolicyTest, NeverBreaksAMinimumOrAMaximumAndLeavesNoSlotIdle) {
  std::mt19937 rng(25);
  for (int trial = 0; trial < 300; ++trial) {
    Snapshot snap;
    const int workers = 1 + static_cast<int>(rng() % 4);
    int slots = 0;
    for (int w = 1; w <= workers; ++w) {
      const int n = 1 + static_cast<int>(rng() % 6);
      snap.workers.push_back(MakeWorker(w, n));
      slots += n;
    }
    const int jobs = 1 + static_cast<int>(rng() % 7);
    int minima = 0;
    static const char* kMetrics[] = {"", "stretch", "weighted-response-time", "tardiness", "makespan", "max-lateness"};
    for (int j = 1; j <= jobs; ++j) {
      JobView job = Job(j, 1 + static_cast<int>(rng() % 12), 1 + static_cast<double>(rng() % 500));
      job.params.metric = kMetrics[rng() % 6];
      job.params.deadline = 5 + static_cast<double>(rng() % 200);
      job.params.weight = 1 + static_cast<double>(rng() % 4);
      if (rng() % 3 == 0) job.params.max_slots = 1 + static_cast<int>(rng() % 5);
      if (rng() % 3 == 0) job.params.min_slots = static_cast<int>(rng() % 4);
      if (job.params.max_slots > 0) job.params.min_slots = std::min(job.params.min_slots, job.params.max_slots);
      minima += job.params.min_slots;
      snap.jobs.push_back(job);
    }
    Decision d = Flex()->Schedule(snap);
    ASSERT_TRUE(CheckContract(snap, d));
    std::map<JobId, int> maps = MapsPerJob(d);
    int used = 0, free_capacity = 0;
    for (const JobView& j : snap.jobs) {
      const int pending = static_cast<int>(j.pending_maps.size());
      const int max = j.params.max_slots > 0 ? std::min(pending, j.params.max_slots) : pending;
      EXPECT_LE(maps[j.id], max) << "trial " << trial << " job " << j.id;
      if (minima <= slots) {
        EXPECT_GE(maps[j.id], std::min(j.params.min_slots, pending)) << "trial " << trial;
      }
      used += maps[j.id];
      free_capacity += max - maps[j.id];
    }
    EXPECT_EQ(used, std::min(slots, used + free_capacity)) << "trial " << trial << ": a slot idle";
  }
}

// Hadoop 0.20's Fair Scheduler's split of a pool's minimum, worked by hand: floor passes of
// left x weight / total weight over the jobs still short of their demand, then, when a pass
// gives nothing, one ceiling pass heaviest first.
TEST(FlexPolicyTest, SplitByWeightIsTheFairSchedulersPoolSplit) {
  // 10 by weights 1, 2, 2: floor 2, 4, 4.
  EXPECT_EQ(SplitByWeight(10, {10, 10, 10}, {1, 2, 2}), (std::vector<int>{2, 4, 4}));
  // 7 by 1, 1, 1: floor 2 each (1 left); then floor(1/3) = 0: the ceiling pass gives it to
  // the first of the equal weights.
  EXPECT_EQ(SplitByWeight(7, {10, 10, 10}, {1, 1, 1}), (std::vector<int>{3, 2, 2}));
  // 2 among weights 1, 3, 2 (the flex experiments' case: fewer slots than jobs): floor
  // 0, 1, 0 (2 x 3/6 = 1); then 1 left among all three: floors 0; the ceiling pass, heaviest
  // first, gives it to job 2, still short of its demand.
  EXPECT_EQ(SplitByWeight(2, {5, 5, 5}, {1, 3, 2}), (std::vector<int>{0, 2, 0}));
  // Demands bound: job 1 wants 1; the rest is re-split among the others.
  EXPECT_EQ(SplitByWeight(9, {1, 10, 10}, {4, 1, 1}), (std::vector<int>{1, 4, 4}));
  EXPECT_EQ(SplitByWeight(0, {4, 5}, {1, 1}), (std::vector<int>{0, 0}));
  EXPECT_EQ(SplitByWeight(30, {4, 5}, {1, 9}), (std::vector<int>{4, 5}));
  // Equal weights and fewer slots than jobs: as SplitMaxMin (to the lower indices).
  EXPECT_EQ(SplitByWeight(2, {1, 1, 1, 1}, {1, 1, 1, 1}), SplitMaxMin(2, {1, 1, 1, 1}));
}

// flex-pool-split: the pool's minimum of 2 among three jobs of weights 1, 3 and 2 goes to the
// heaviest by default (the paper's platform), to the first two under `even`.
TEST(FlexPolicyTest, PoolSplitOptionChoosesWhoHoldsThePoolsMinimum) {
  const std::string path = (std::filesystem::temp_directory_path() / "flex_split_pools.txt").string();
  {
    std::ofstream f(path);
    f << "pool default min_maps=2\n";
  }
  Snapshot snap = TwoJobs(12);
  snap.jobs.push_back(Job(3, 10, 500));
  const double weights[] = {1, 3, 2};
  for (int k = 0; k < 3; ++k) snap.jobs[k].params.weight = weights[k];
  snap.workers[0].free_map = 0;
  auto minima = [&](const std::string& split) {
    std::map<JobId, int> m;
    for (const JobAllocation& a : Flex({{"flex-pools", path}, {"flex-pool-split", split}})->Schedule(snap).allocations) {
      m[a.job] = a.min_slots;
    }
    return m;
  };
  EXPECT_EQ(minima("weighted"), (std::map<JobId, int>{{1, 0}, {2, 2}, {3, 0}}));
  EXPECT_EQ(minima("even"), (std::map<JobId, int>{{1, 1}, {2, 1}, {3, 0}}));
  std::filesystem::remove(path);
}

TEST(FlexPolicyTest, SplitMaxMinSharesEvenlyUpToEachDemand) {
  EXPECT_EQ(SplitMaxMin(10, {2, 10, 10}), (std::vector<int>{2, 4, 4}));
  EXPECT_EQ(SplitMaxMin(5, {10, 10}), (std::vector<int>{3, 2}));
  EXPECT_EQ(SplitMaxMin(30, {4, 5}), (std::vector<int>{4, 5}));
  EXPECT_EQ(SplitMaxMin(0, {4, 5}), (std::vector<int>{0, 0}));
  EXPECT_EQ(SplitMaxMin(2, {0, 1, 7}), (std::vector<int>{0, 1, 1}));
}

}  // namespace
}  // namespace mr::sched
