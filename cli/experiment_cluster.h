// The LiveCluster of `mr experiment` (experiment/live_cluster.h): an embedded LocalCluster
// (real processes on loopback, as `mr run` starts) of an experiment's shape and policy,
// with one client connection for submitting and one for polling, so the runner's
// submitter and waiting threads never share a connection.
#pragma once

#include "experiment/live_cluster.h"
#include "jobs/job_request.h"

namespace mr::cli {

// Starts the cluster: master with the shape's heartbeat and the policy with its options,
// one worker per worker of each group with that group's map, reduce and unified slots,
// speed and shuffle cap. Every job it submits runs in the shape's work mode (--work).
Result<std::unique_ptr<experiment::LiveCluster>> StartExperimentCluster(const experiment::ClusterShape& shape,
                                                                        const experiment::PolicyRun& policy,
                                                                        const std::string& dir);

// What the cluster submits for job j: a synthetic job named `name` writing to `output`, with
// j's maps, reducers, work and per-job parameters, the shape's slow start and work mode, and
// backups allowed exactly when `speculative` (the experiment's `speculative:`).
jobs::JobRequest ExperimentJobRequest(const model::TaskJob& j, const std::string& name, const std::string& output,
                                      double slow_start, experiment::WorkMode work, bool speculative);

}  // namespace mr::cli
