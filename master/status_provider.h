// StatusProvider: what the HTTP status page asks the master for. The master
// implements it by hopping onto its state thread, so Get() may be called from
// any thread. Paths and JSON shapes are documented in docs/web.md:
//   /api/cluster  /api/workers  /api/jobs  /api/jobs/<id>  /api/jobs/<id>/trace
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::master {

class StatusProvider {
 public:
  virtual ~StatusProvider() = default;
  // Returns the JSON document for an /api/... path; NotFound for an unknown
  // path or job.
  virtual Result<std::string> Get(std::string_view api_path) = 0;
};

}  // namespace mr::master
