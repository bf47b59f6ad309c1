// `mr model mst-trace`: a recorded run's measured mean sojourn time next to the straggling-
// mappers model's prediction from the run's measured per-node rates and service times, with
// the model's assumptions the run violates (experiment/mst_trace.h). It lives here, not in
// model/, because it reads traces (web/); cli/cmd_model.cc dispatches it. argv[0] is
// "mst-trace". Returns the exit status of `mr model`: 0 ok, 2 bad usage or input (one line
// on stderr).
#pragma once

namespace mr::experiment {

inline constexpr char kMstTraceSummary[] =
    "straggling mappers: a run's measured MST vs the model's from its measured rates";

int MstTraceMain(int argc, char** argv);

}  // namespace mr::experiment
