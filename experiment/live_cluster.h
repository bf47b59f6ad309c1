// LiveCluster: the runner's view of a running local cluster (a master and workers as real
// processes), behind an interface so that the experiment library does not spawn processes
// itself: `mr experiment` provides the implementation (cli/experiment_cluster.cc, on the
// embedded cluster of `mr run`), a test may provide a fake. The cluster stops when the
// object is destroyed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "model/tasksim/task_sim.h"

namespace mr::experiment {

// A job as the master reports it.
struct LiveJobState {
  uint64_t id = 0;
  bool ended = false;        // SUCCEEDED, FAILED or KILLED
  bool succeeded = false;
  double submit_time = 0;    // master's clock, Unix epoch seconds
  double end_time = 0;       // valid once ended
  std::string error;
};

class LiveCluster {
 public:
  virtual ~LiveCluster() = default;
  // Submits `job` as a synthetic job (maps, map seconds and bytes, reducers, reduce
  // seconds, its hints and parameters) named `name`; returns the master's job id.
  // Submit and Poll are safe to call from two different threads.
  virtual Result<uint64_t> Submit(const model::TaskJob& job, const std::string& name) = 0;
  // Every job the master knows.
  virtual Result<std::vector<LiveJobState>> Poll() = 0;
  // The master's trace directory (STATE/traces): job-NNNNNN.jsonl per job.
  virtual std::string TraceDir() const = 0;
  // Directory holding the daemons' logs.
  virtual std::string LogDir() const = 0;
  // CPU seconds the cluster's processes (master and workers) have used so far, for the
  // calibration of the shuffle's CPU cost; FailedPrecondition where they cannot be read.
  virtual Result<double> CpuSeconds() { return Status(StatusCode::kFailedPrecondition, "the cluster's CPU time is not readable"); }
};

// Starts a cluster of `shape` running `policy` with its scratch files under `dir`.
using LiveClusterFactory = std::function<Result<std::unique_ptr<LiveCluster>>(
    const ClusterShape& shape, const PolicyRun& policy, const std::string& dir)>;

}  // namespace mr::experiment
