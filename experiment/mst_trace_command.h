// The work of `mr model mst-trace`: a recorded run's measured mean sojourn time next to the
// straggling-mappers model's prediction from the run's measured per-node rates and service
// times, with the model's assumptions the run violates (experiment/mst_trace.h). It lives
// here, not in model/, because it reads traces (web/); the flags are parsed in
// cli/model/cmd_mst_trace.cc. Single-threaded.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"

namespace mr::experiment {

struct MstTraceOptions {
  std::vector<std::string> traces;  // trace files, or directories of *.jsonl traces
  bool json = false;                // one JSON object instead of the text report
};

// Reads the traces and prints the report. Every error (unreadable or inconsistent traces)
// is bad input.
Status RunMstTraceCommand(const MstTraceOptions& o, std::ostream& out);

}  // namespace mr::experiment
