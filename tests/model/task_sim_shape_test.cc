// The task-level simulator's cluster shape, each feature against a hand-worked
// schedule or a closed form: per-worker speeds, unified slots, per-job map-time laws
// (log-normal, the straggling-mappers delayed tails), replayed durations, and
// attempt failures with retries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/tasksim/map_time.h"
#include "common/rng.h"
#include "model/tasksim/task_sim.h"
#include "model/tasksim/task_workload.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::LivePolicy;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::Worker;

// N equal maps of work w on one-slot workers of speeds s_i: worker i ends a map every
// w / s_i, so the proportional split gives it N s_i / S maps (S = sum of speeds) and
// every worker ends its last at N w / S. Greedy FIFO reaches that exactly when the
// shares are whole:
//  * speeds 1, 2, 4, 14 maps of 1 s: 2 + 4 + 8 maps, all done at 14 / 7 = 2;
//  * speeds 1, 1, 0.5, 5 maps of 1 s: 2 + 2 + 1 maps, all done at 5 / 2.5 = 2;
//  * speeds 3, 1, 12 maps of 0.5 s: 9 + 3 maps, all done at 6 / 4 = 1.5.
// No shuffle bytes and a 0-s reducer, so the job completes when its maps do.
TEST(TaskSimShapeTest, EqualMapsFinishWhenTheProportionalSplitSays) {
  struct Case {
    std::vector<double> speeds;
    int maps;
    double work;
  };
  for (const Case& k : {Case{{1, 2, 4}, 14, 1.0}, Case{{1, 1, 0.5}, 5, 1.0},
                        Case{{3, 1}, 12, 0.5}}) {
    ClusterSpec c;
    c.workers = static_cast<int>(k.speeds.size());
    c.shuffle_bandwidth = 1;
    c.speeds = k.speeds;
    double sum = 0;
    for (double s : k.speeds) sum += s;
    std::vector<TaskJob> jobs = {MapOnlyJob(0, k.maps, k.work)};
    auto fifo = LivePolicy("fifo");
    TaskSimResult r = MustRun(jobs, c, *fifo);
    ASSERT_EQ(r.completion.size(), 1u);
    EXPECT_DOUBLE_EQ(r.completion[0], k.maps * k.work / sum) << k.speeds.size() << " workers";
    EXPECT_DOUBLE_EQ(MapCapacity(c), sum);
  }
}

// One worker whose only slot is unified, a job of two 1-s maps of 10 bytes each, one
// reducer of 0.5 s, a 10 byte/s link. The maps take the slot in turn: [0, 1], [1, 2].
// The reducer is placed at slow start (1 map done) so m0's bytes move in [1, 2] and
// m1's in [2, 3]; the reduce then takes the same slot: [3, 3.5]. A second job
// arriving at 3.2 finds the slot held by that reduce (not preempted): its map runs
// [3.5, 4.5], its bytes [4.5, 5.5], its reduce [5.5, 6].
TEST(TaskSimShapeTest, UnifiedSlotRunsMapsThenTheReduceWithoutPreemption) {
  TaskJob a = MapOnlyJob(0, 2, 1.0);
  a.map_bytes = 10;
  a.reduce_seconds = 0.5;
  TaskJob b = MapOnlyJob(3.2, 1, 1.0);
  b.map_bytes = 10;
  b.reduce_seconds = 0.5;
  std::vector<TaskJob> jobs = {a, b};
  ClusterSpec c = ClusterOf({Worker(0, 0, 1, 1.0, 10.0)});
  std::vector<sched::SlotKind> reduce_slots;
  auto fifo = LivePolicy("fifo");
  testing::ScriptedScheduler watch([&](const sched::Snapshot& snap) {
    for (const auto& j : snap.jobs) {
      for (const auto& att : j.running) {
        if (att.kind == sched::TaskKind::kReduce) reduce_slots.push_back(att.slot);
      }
    }
    return fifo->Schedule(snap);
  });
  TaskSimResult r = MustRun(jobs, c, watch);
  ASSERT_EQ(r.completion.size(), 2u);
  EXPECT_DOUBLE_EQ(r.completion[0], 3.5);
  EXPECT_DOUBLE_EQ(r.completion[1], 6.0);
  ASSERT_FALSE(reduce_slots.empty()) << "the round at 3.2 sees the running reduce";
  for (sched::SlotKind k : reduce_slots) EXPECT_EQ(k, sched::SlotKind::kUnified);
}

// The delayed-exponential tail: T + Exp(rate Delta) has mean T + 1/Delta and standard
// deviation 1/Delta; the Pareto tail with minimum T and shape alpha has mean
// alpha T / (alpha - 1) and variance alpha T^2 / ((alpha - 1)^2 (alpha - 2)). The mean
// of n seeded samples is within 4 standard errors (sd / sqrt(n)) of it, and no sample
// is below T.
TEST(TaskSimShapeTest, DelayedTailSamplesHaveTheClosedFormMean) {
  const int n = 200000;
  struct Case {
    MapTimeDist d;
    double mean, sd;
  };
  MapTimeDist exp_tail;
  exp_tail.kind = MapTimeDist::Kind::kDelayedExp;
  exp_tail.offset = 2;
  exp_tail.rate = 0.5;
  MapTimeDist pareto;
  pareto.kind = MapTimeDist::Kind::kDelayedPareto;
  pareto.offset = 1;
  pareto.alpha = 3;
  MapTimeDist lognormal;
  lognormal.kind = MapTimeDist::Kind::kLogNormal;
  lognormal.cv = 0.5;
  for (const Case& k : {Case{exp_tail, 2 + 1 / 0.5, 1 / 0.5},
                        Case{pareto, 3 * 1.0 / 2, std::sqrt(3.0 / (4 * 1))},
                        Case{lognormal, 1.0, 0.5}}) {
    EXPECT_DOUBLE_EQ(k.d.Mean(), k.mean) << k.d.ToString();
    Rng rng(17);
    double sum = 0, min = 1e300;
    for (int i = 0; i < n; ++i) {
      double x = k.d.Sample(rng);
      sum += x;
      min = std::min(min, x);
    }
    EXPECT_NEAR(sum / n, k.mean, 4 * k.sd / std::sqrt(double(n))) << k.d.ToString();
    EXPECT_GE(min, k.d.kind == MapTimeDist::Kind::kLogNormal ? 0.0 : k.d.offset);
  }
}

// A job's own law drives its maps: one slot runs 2000 maps of 0.01 s back to back
// with the factor T + Exp(Delta), T = 1, Delta = 1 (mean 2), so the job ends near
// 2000 x 0.01 x 2 = 40 s (sd of the sum 0.01 x 1 x sqrt(2000)). A job beside it with
// the fixed law ends exactly where its maps say.
TEST(TaskSimShapeTest, JobMapTimeLawDrivesItsMaps) {
  TaskJob tail = MapOnlyJob(0, 2000, 0.01);
  tail.map_time.kind = MapTimeDist::Kind::kDelayedExp;
  tail.map_time.offset = 1;
  tail.map_time.rate = 1;
  TaskJob fixed = MapOnlyJob(0, 10, 0.5);
  fixed.map_time.kind = MapTimeDist::Kind::kFixed;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0), Worker(1, 1, 0, 1.0)});
  c.map_time_cv = 0.8;  // the fixed law overrides the cluster's noise
  // FIFO: job 0 (tail) takes both slots until its maps are all started; arrival order
  // is by input order for equal arrivals, so put the fixed job first.
  std::vector<TaskJob> jobs = {fixed, tail};
  auto fifo = LivePolicy("fifo");
  TaskSimResult r = MustRun(jobs, c, *fifo);
  EXPECT_DOUBLE_EQ(r.completion[0], 2.5);  // 10 maps of 0.5 s on 2 slots
  // The tail job has both slots from 2.5 on: about 40 / 2 = 20 s more.
  EXPECT_NEAR(r.completion[1], 2.5 + 20, 4 * 0.01 * std::sqrt(2000.0) / 2 + 0.05);
}

TEST(TaskSimShapeTest, ParseMapTimeDist) {
  auto e = ParseMapTimeDist("exp:2,0.5");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->kind, MapTimeDist::Kind::kDelayedExp);
  EXPECT_DOUBLE_EQ(e->Mean(), 4);
  auto p = ParseMapTimeDist("pareto:1,3");
  ASSERT_TRUE(p.ok());
  EXPECT_DOUBLE_EQ(p->Mean(), 1.5);
  auto l = ParseMapTimeDist("lognormal:0.4");
  ASSERT_TRUE(l.ok());
  EXPECT_DOUBLE_EQ(l->cv, 0.4);
  EXPECT_EQ(ParseMapTimeDist("fixed")->kind, MapTimeDist::Kind::kFixed);
  for (const char* bad : {"", "exp", "exp:1", "exp:1,0", "exp:-1,1", "pareto:1,1", "pareto:0,3",
                          "lognormal:-1", "lognormal:1,2", "weibull:1,2", "exp:1,x", "exp:1,2,"}) {
    EXPECT_EQ(ParseMapTimeDist(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

// Replay: maps of 3, 1, 1, 2 s and a 0.5-s reduce on one worker with two map slots.
// FIFO starts m0 and m1 at 0; m1 ends at 1 and m2 runs [1, 2]; m3 runs [2, 4]; m0
// ends at 3, so the maps are done at 4 and the reduce runs [4, 4.5]. On a worker of
// speed 2 every time halves: 2.25. The job's map_seconds (0 here) plays no part.
TEST(TaskSimShapeTest, ReplayedDurationsGiveTheHandComputedCompletion) {
  TaskJob j = MapOnlyJob(0, 4, 0);
  j.map_durations = {3, 1, 1, 2};
  j.reduce_durations = {0.5};
  std::vector<TaskJob> jobs = {j};
  for (double speed : {1.0, 2.0}) {
    ClusterSpec c = ClusterOf({Worker(2, 1, 0, speed)});
    c.map_time_cv = 0.5;  // replayed durations are not noised
    auto fifo = LivePolicy("fifo");
    TaskSimResult r = MustRun(jobs, c, *fifo);
    EXPECT_DOUBLE_EQ(r.completion[0], 4.5 / speed) << speed;
  }
  j.map_durations = {1, 2};  // not one per map
  std::vector<TaskJob> bad = {j};
  auto fifo = LivePolicy("fifo");
  EXPECT_EQ(SimulateTasks(bad, ClusterOf({Worker(1, 1, 0, 1)}), *fifo).status().code(),
            StatusCode::kInvalidArgument);
}

// Failure draws are one per attempt in start order: the map's first attempt (u1), its
// retry (u2), the reduce (u3). A seed with u1 < min(u2, u3) and p between them: the
// first attempt fails, nothing else does. One map of 2 s failing at half its time:
// attempt 0 runs [0, 1] and fails, attempt 1 runs [1, 3]; the job completes at 3.
TEST(TaskSimShapeTest, FailureWithRetryTakesTheHandComputedTime) {
  uint64_t seed = 1;
  double u1 = 0, u_rest = 0;
  for (;; ++seed) {
    Rng draws(seed ^ kFailureSeedSalt);
    u1 = draws.Uniform();
    double u2 = draws.Uniform();
    u_rest = std::min(u2, draws.Uniform());
    if (u1 < u_rest) break;
  }
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.seed = seed;
  c.failure_prob = (u1 + u_rest) / 2;
  c.failure_point = 0.5;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 2.0)};
  auto fifo = LivePolicy("fifo");
  TaskSimResult r = MustRun(jobs, c, *fifo);
  EXPECT_DOUBLE_EQ(r.completion[0], 3.0);
  EXPECT_EQ(r.failed_attempts, 1);
  EXPECT_FALSE(r.failed[0]);
  EXPECT_EQ(r.assignments, 3);  // two map attempts and the reduce
}

// The same for a reduce: draws u1 (the map), u2 (the reduce), u3 (its retry), a seed with
// u2 < min(u1, u3) and p between. A 1-s map, then a 2-s reduce that fails at half its
// time: [1, 2] fails, the retry runs on the same worker (its data is there) [2, 4].
TEST(TaskSimShapeTest, FailedReduceIsRetriedOnItsWorker) {
  uint64_t seed = 1;
  double u2 = 0, u_rest = 0;
  for (;; ++seed) {
    Rng draws(seed ^ kFailureSeedSalt);
    double u1 = draws.Uniform();
    u2 = draws.Uniform();
    u_rest = std::min(u1, draws.Uniform());
    if (u2 < u_rest) break;
  }
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.seed = seed;
  c.failure_prob = (u2 + u_rest) / 2;
  TaskJob j = MapOnlyJob(0, 1, 1.0);
  j.reduce_seconds = 2;
  std::vector<TaskJob> jobs = {j};
  auto fifo = LivePolicy("fifo");
  TaskSimResult r = MustRun(jobs, c, *fifo);
  EXPECT_DOUBLE_EQ(r.completion[0], 4.0);
  EXPECT_EQ(r.failed_attempts, 1);
}

// With every attempt failing (p just below 1; the seed's draws are all below it),
// max_attempts = 3 failures of a 2-s map failing at 1/4 fail the job at 3 x 0.5 = 1.5,
// as the master fails a job at a task's max_attempts-th failure. The other job runs on.
TEST(TaskSimShapeTest, MaxAttemptsFailuresFailTheJob) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0), Worker(1, 1, 0, 1.0)});
  c.failure_prob = 0.999999;
  c.failure_point = 0.25;
  c.max_attempts = 3;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 2.0), MapOnlyJob(10, 1, 2.0)};
  auto fifo = LivePolicy("fifo");
  TaskSimResult r = MustRun(jobs, c, *fifo);
  EXPECT_TRUE(r.failed[0]);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.5);
  EXPECT_TRUE(r.failed[1]);
  EXPECT_DOUBLE_EQ(r.completion[1], 11.5);
  EXPECT_EQ(r.failed_attempts, 6);
}

// A worker with straggler injection (as `mr worker --straggler-*`): one map slot at speed
// 0.5, three maps of 1 s of work, so each takes 1 / 0.5 = 2 s plus the pure draw for
// (job 1, map i, attempt 1); they run one after another and the job (no bytes, a 0-s
// reducer) completes at 3 × 2 + d0 + d1 + d2. The same worker without injection: 6.
TEST(TaskSimShapeTest, StragglerInjectionAddsEachAttemptsDraw) {
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 3, 1.0)};
  WorkerSpec w = Worker(1, 1, 0, 0.5);
  auto fifo = LivePolicy("fifo");
  EXPECT_DOUBLE_EQ(MustRun(jobs, ClusterOf({w}), *fifo).completion.at(0), 6.0);
  w.straggler.enabled = true;
  w.straggler.offset = 1;
  w.straggler.rate = 2;
  w.straggler.seed = 4;
  double delays = 0;
  for (uint32_t i = 0; i < 3; ++i) {
    const double d = StragglerDelay(w.straggler, 1, i, 1);
    EXPECT_GE(d, 1.0);
    delays += d;
  }
  auto fifo2 = LivePolicy("fifo");
  EXPECT_NEAR(MustRun(jobs, ClusterOf({w}), *fifo2).completion.at(0), 6.0 + delays, 1e-9);
  // A bad injection is refused, naming the worker and the flag.
  w.straggler.rate = 0;
  auto r = SimulateTasks(jobs, ClusterOf({w}), *fifo2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("worker 1: --straggler-rate"), std::string::npos) << r.status().ToString();
}

TEST(TaskSimShapeTest, BadShapesAreInvalidArgument) {
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0)};
  auto fifo = LivePolicy("fifo");
  auto code = [&](const ClusterSpec& c) { return SimulateTasks(jobs, c, *fifo).status().code(); };
  ClusterSpec c;
  c.workers = 2;
  c.shuffle_bandwidth = 1;
  c.speeds = {1};  // one per worker needed
  EXPECT_EQ(code(c), StatusCode::kInvalidArgument);
  c.speeds = {1, 0};
  EXPECT_EQ(code(c), StatusCode::kInvalidArgument);
  c.speeds = {1, 2};
  EXPECT_EQ(code(c), StatusCode::kOk);
  c.map_slots = 0;  // no map-capable slot...
  EXPECT_EQ(code(c), StatusCode::kInvalidArgument);
  c.unified_slots = 1;  // ...until a unified one
  EXPECT_EQ(code(c), StatusCode::kOk);
  EXPECT_EQ(code(ClusterOf({Worker(0, 1, 0, 1)})), StatusCode::kInvalidArgument);
  EXPECT_EQ(code(ClusterOf({Worker(0, 1, 0, 1), Worker(1, 0, 0, 1)})), StatusCode::kOk);
  EXPECT_EQ(code(ClusterOf({Worker(1, 1, 0, 1), Worker(0, 0, 0, 1)})),
            StatusCode::kInvalidArgument);
  ClusterSpec f = ClusterOf({Worker(1, 1, 0, 1)});
  f.failure_prob = 1;
  EXPECT_EQ(code(f), StatusCode::kInvalidArgument);
  f.failure_prob = 0.1;
  f.max_attempts = 0;
  EXPECT_EQ(code(f), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::model
