// JSON forms of job and worker status, shared by `mr status --json` and the
// status page's /api (docs/web.md lists the fields).
#pragma once

#include <nlohmann/json.hpp>

#include "mr.pb.h"

namespace mr::master {

nlohmann::json JobStatusToJson(const proto::JobStatus& st);

}  // namespace mr::master
