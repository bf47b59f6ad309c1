// RunExperiment (experiment/runner.h) against a fake cluster whose jobs never end: the failed
// run keeps the traces the master had written (RUN/traces), and a rerun sets the failed run's
// directory aside (RUN.failed-K) instead of deleting it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#include "common/file_util.h"
#include "experiment/calibration.h"
#include "experiment/live_run.h"
#include "experiment/runner.h"

namespace mr::experiment {
namespace {

// Each submitted job writes its trace's first line at once and then never ends.
class StuckCluster : public LiveCluster {
 public:
  explicit StuckCluster(std::string dir) : trace_dir_(JoinPath(dir, "traces")) { (void)MakeDirs(trace_dir_); }

  Result<uint64_t> Submit(const model::TaskJob&, const std::string& name) override {
    std::lock_guard<std::mutex> lock(mu_);
    const uint64_t id = ++submitted_;
    MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(trace_dir_, TraceFileName(id)), "{\"name\":\"" + name + "\"}\n"));
    return id;
  }
  Result<std::vector<LiveJobState>> Poll() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<LiveJobState> out;
    for (uint64_t id = 1; id <= submitted_; ++id) out.push_back(LiveJobState{id, false, false, 1000, 0, ""});
    return out;
  }
  std::string TraceDir() const override { return trace_dir_; }
  std::string LogDir() const override { return ""; }

 private:
  const std::string trace_dir_;
  std::mutex mu_;
  uint64_t submitted_ = 0;
};

TEST(RunExperimentTest, AFailedRunKeepsItsTracesAndARerunSetsThemAside) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string root = JoinPath(tmp != nullptr ? tmp : "/tmp", "runner_test_failed");
  (void)RemoveAll(root);
  Experiment e;
  e.name = "stuck";
  e.cluster.groups.push_back(WorkerGroup{});
  PolicyRun fifo;
  fifo.policy = fifo.label = "fifo";
  e.policies.push_back(fifo);
  JobList jobs(2);
  for (model::TaskJob& j : jobs) {
    j.maps = 1;
    j.map_seconds = 0.1;
    j.reducers = 1;
  }
  RunnerOptions o;
  o.results_root = root;
  o.timeout = 0.3;
  o.calibration_path = JoinPath(root, "calibration.json");
  Calibration calib;
  calib.shape_hash = ShapeHash(e.cluster);
  calib.link_rate = 1e8;
  ASSERT_TRUE(MakeDirs(root).ok());
  ASSERT_TRUE(WriteFileAtomically(o.calibration_path, CalibrationJson(calib)).ok());
  o.factory = [](const ClusterShape&, const PolicyRun&, const std::string& dir) -> Result<std::unique_ptr<LiveCluster>> {
    return std::unique_ptr<LiveCluster>(new StuckCluster(dir));
  };

  const std::string run = JoinPath(root, "stuck/runs/fifo-1");
  Status first = RunExperiment(e, jobs, o);
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.message().find("traces kept in " + JoinPath(run, "traces")), std::string::npos) << first.message();
  EXPECT_TRUE(PathExists(JoinPath(run, "traces/job-000001.jsonl")));
  EXPECT_TRUE(PathExists(JoinPath(run, "traces/job-000002.jsonl")));
  EXPECT_FALSE(PathExists(JoinPath(run, "DONE")));
  EXPECT_FALSE(PathExists(JoinPath(run, "cluster")));  // the cluster's scratch still goes

  ASSERT_FALSE(RunExperiment(e, jobs, o).ok());
  EXPECT_TRUE(PathExists(JoinPath(run + ".failed-1", "traces/job-000001.jsonl")));
  EXPECT_TRUE(PathExists(JoinPath(run, "traces/job-000001.jsonl")));  // the redo's own
  EXPECT_FALSE(PathExists(run + ".failed-2"));
  (void)RemoveAll(root);
}

}  // namespace
}  // namespace mr::experiment
