// The live-run prediction of an experiment (experiment/prediction.h): with `speculative: on`
// the task-level simulator runs the LATE speculator after the policy, as the live master does.
#include "experiment/prediction.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr::experiment {
namespace {

// Three workers at speed 1 and one at 0.1, one map slot each; one job of 12 maps of 1 s.
// Without backups the slow worker's first map alone takes 10 s; LATE backs it up.
TEST(PredictionTest, SpeculativeRunsTheSpeculatorInThePrediction) {
  ClusterShape shape;
  shape.groups = {WorkerGroup{3, 1, 1, 1.0}, WorkerGroup{1, 1, 1, 0.1}};
  shape.work = WorkMode::kSleep;
  model::TaskJob job;
  job.maps = 12;
  job.map_seconds = 1;
  job.map_bytes = 1000;
  job.reducers = 1;
  job.reduce_seconds = 0.1;
  Calibration calibration;
  calibration.link_rate = 100e6;
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

}  // namespace
}  // namespace mr::experiment
