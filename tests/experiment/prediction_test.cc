// The live-run prediction of an experiment (experiment/prediction.h): with `speculative: on`
// the task-level simulator runs the LATE speculator after the policy, as the live master does.
#include "experiment/prediction.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr::experiment {
namespace {

// One job of `maps` maps of 1 s (1000 bytes out each) and one 0.1 s reduce.
model::TaskJob OneSecondMaps(int maps) {
  model::TaskJob job;
  job.maps = maps;
  job.map_seconds = 1;
  job.map_bytes = 1000;
  job.reducers = 1;
  job.reduce_seconds = 0.1;
  return job;
}

// A calibration whose link (100 MB/s) makes the shuffle of those maps negligible.
Calibration FastLink() {
  Calibration calibration;
  calibration.link_rate = 100e6;
  return calibration;
}

// Three workers at speed 1 and one at 0.1, one map slot each; one job of 12 maps of 1 s.
// Without backups the slow worker's first map alone takes 10 s; LATE backs it up.
TEST(PredictionTest, SpeculativeRunsTheSpeculatorInThePrediction) {
  ClusterShape shape;
  shape.groups = {WorkerGroup{3, 1, 1, 1.0}, WorkerGroup{1, 1, 1, 0.1}};
  shape.work = WorkMode::kSleep;
  const model::TaskJob job = OneSecondMaps(12);
  const Calibration calibration = FastLink();
  PolicyRun off;
  off.policy = off.label = "fifo";
  PolicyRun on = off;
  on.speculative = true;
  Result<std::vector<double>> without = PredictResponses({job}, shape, calibration, off);
  Result<std::vector<double>> with = PredictResponses({job}, shape, calibration, on);
  ASSERT_TRUE(without.ok()) << without.status().ToString();
  ASSERT_TRUE(with.ok()) << with.status().ToString();
  ASSERT_EQ(without->size(), 1u);
  ASSERT_EQ(with->size(), 1u);
  EXPECT_GE((*without)[0], 10.0) << "the slow worker's map holds the job";
  EXPECT_LT((*with)[0], 0.6 * (*without)[0]) << "a backup of the slow map wins";
}

// The band's named variant (ReportSpec::band_map_time_cv): its drawn members also draw each
// map's time from the log-normal law, so a job of 30 equal 1 s maps on 3 slots ends at a
// different time in each member; the default band moves every duration by at most 1 ms, so
// the same job's band is at most a few ms wide. Member 0 is the prediction itself.
TEST(PredictionTest, TheMapTimeBandDrawsEveryMapsTime) {
  ClusterShape shape;
  shape.groups = {WorkerGroup{3, 1, 1, 1.0}};
  shape.work = WorkMode::kSleep;
  const model::TaskJob job = OneSecondMaps(30);
  const Calibration calibration = FastLink();
  PolicyRun fifo;
  fifo.policy = fifo.label = "fifo";
  Result<std::vector<double>> alone = PredictResponses({job}, shape, calibration, fifo);
  Result<std::vector<Band>> plain = PredictionBand({job}, shape, calibration, fifo, 8, 0.001);
  Result<std::vector<Band>> drawn = PredictionBand({job}, shape, calibration, fifo, 8, 0.001, 0.3);
  ASSERT_TRUE(alone.ok() && plain.ok() && drawn.ok());
  ASSERT_EQ(plain->size(), 1u);
  ASSERT_EQ(drawn->size(), 1u);
  EXPECT_NEAR((*alone)[0], 10.1, 0.05) << "10 waves of 1 s maps, then the 0.1 s reduce";
  EXPECT_LT((*plain)[0].hi - (*plain)[0].lo, 0.02) << "1 ms per duration: at most 11 durations in a chain";
  EXPECT_GT((*drawn)[0].hi - (*drawn)[0].lo, 0.3) << "map times drawn with cv 0.3 differ between members";
  EXPECT_LE((*drawn)[0].lo, (*alone)[0]);
  EXPECT_GE((*drawn)[0].hi, (*alone)[0]);
}

}  // namespace
}  // namespace mr::experiment
