// JSON forms of job and worker status, shared by `mr status --json` and the
// status page's /api (docs/web.md lists the fields).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "mr.pb.h"

namespace mr::master {

nlohmann::json JobStatusToJson(const proto::JobStatus& st);

// combine.records_out / combine.records_in over the job's committed maps; nullopt when no
// combiner ran (a job without one, or none finished yet).
std::optional<double> CombineRatio(const proto::JobStatus& st);

}  // namespace mr::master
