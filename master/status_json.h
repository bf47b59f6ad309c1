// JSON forms of job and worker status, shared by `mr status --json` and the
// status page's /api (docs/web.md lists the fields).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "common/worker_labels.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {

nlohmann::json JobStatusToJson(const proto::JobStatus& st);

// A worker's labels as a JSON object, {"class": "fast", "rack": "r1"} ({} for none).
nlohmann::json LabelsToJson(const WorkerLabels& labels);
// One of StatusReply.worker_rows as `mr status --json` prints it (docs/web.md).
nlohmann::json WorkerRowToJson(const proto::WorkerRow& w);

// A policy's queue and its use, as /api/cluster's "queues" lists them (docs/web.md).
nlohmann::json QueueUseToJson(const sched::QueueUse& q);

// combine.records_out / combine.records_in over the job's committed maps; nullopt when no
// combiner ran (a job without one, or none finished yet).
std::optional<double> CombineRatio(const proto::JobStatus& st);

}  // namespace mr::master
