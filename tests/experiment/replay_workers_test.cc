#include "experiment/replay_workers.h"

#include <gtest/gtest.h>

#include "common/straggler.h"

namespace mr::experiment {
namespace {

constexpr char kLog[] =
    "[17:49:03.535] [master] [info] listening on 127.0.0.1:1\n"
    "[17:49:03.535] [master] [info] worker 1 registered: 127.0.0.1:39769 map=1 reduce=1 unified=0 speed=0.5 "
    "straggler=exp T=0.2 rate=5 seed=12 labels=-\n"
    "[17:49:03.536] [master] [info] worker 2 registered: 127.0.0.1:42539 map=1 reduce=1 unified=0 speed=1 "
    "straggler=off labels=-\n";

model::WorkerSpec Spec(double speed, uint64_t straggler_seed) {
  model::WorkerSpec w;
  w.speed = speed;
  w.shuffle_bandwidth = 1e6;
  if (straggler_seed > 0) {
    w.straggler.enabled = true;
    w.straggler.offset = 0.2;
    w.straggler.rate = 5;
    w.straggler.seed = straggler_seed;
  }
  return w;
}

TEST(ReplayWorkersTest, RegistrationsFromTheMasterLog) {
  const auto r = ParseRegistrations(kLog);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r.at(1).speed, 0.5);
  EXPECT_TRUE(r.at(1).straggler);
  EXPECT_EQ(r.at(1).straggler_seed, 12u);
  EXPECT_DOUBLE_EQ(r.at(2).speed, 1);
  EXPECT_FALSE(r.at(2).straggler);
}

// The shape lists the fast worker first; the master's worker 1 is the slow one. After the
// alignment the simulator's worker 0 is the slow one, and a map that took 1.0 s on it
// (attempt 1 of job 1's map 0) is (1.0 - its straggler hold there) x 0.5 s of work; a
// reduce of 0.4 s on the fast worker stays 0.4 s.
TEST(ReplayWorkersTest, WorkersInTheMastersOrderAndDurationsAsWork) {
  model::ClusterSpec cluster;
  cluster.worker_specs = {Spec(1, 0), Spec(0.5, 12)};
  EXPECT_TRUE(NeedsAlignment(cluster));
  RecordedRun run;
  model::TaskJob job;
  job.maps = 1;
  job.reducers = 1;
  job.map_durations = {1.0};
  job.reduce_durations = {0.4};
  run.jobs = {job};
  RecordedJob m;
  m.id = "job-000001";
  m.maps_ran = {{1, 1}};
  m.reduces_ran = {{2, 2}};
  run.measured = {m};
  ASSERT_TRUE(AlignReplayWorkers(ParseRegistrations(kLog), &cluster, &run).ok());
  EXPECT_DOUBLE_EQ(cluster.worker_specs[0].speed, 0.5);
  EXPECT_DOUBLE_EQ(cluster.worker_specs[1].speed, 1);
  const double hold = StragglerDelay(cluster.worker_specs[0].straggler, 1, 0, 1);
  ASSERT_GT(hold, 0.2 - 1e-12);  // at least the offset
  EXPECT_DOUBLE_EQ(run.jobs[0].map_durations[0], (1.0 - hold) * 0.5);
  EXPECT_DOUBLE_EQ(run.jobs[0].reduce_durations[0], 0.4);
}

TEST(ReplayWorkersTest, AMismatchIsRefusedAndEqualWorkersNeedNothing) {
  model::ClusterSpec cluster;
  cluster.worker_specs = {Spec(1, 0), Spec(0.5, 13)};  // seed 13: the log's worker 1 has 12
  RecordedRun run;
  Status s = AlignReplayWorkers(ParseRegistrations(kLog), &cluster, &run);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("worker 1 matches none"), std::string::npos) << s.message();
  cluster.worker_specs = {Spec(1, 0)};
  EXPECT_FALSE(AlignReplayWorkers(ParseRegistrations(kLog), &cluster, &run).ok()) << "two registered, one worker";
  cluster.worker_specs = {Spec(1, 0), Spec(1, 0)};
  EXPECT_FALSE(NeedsAlignment(cluster));
}

}  // namespace
}  // namespace mr::experiment
