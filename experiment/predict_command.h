// `mr model predict`: replays a recorded run's traces through the task-level simulator under
// a live policy and prints the per-job prediction (or what-if) CSV of replay_prediction.h.
// It lives here, not in model/, because it reads traces (web/) — cli/cmd_model.cc
// dispatches it. argv[0] is "predict". Returns the exit status of `mr model`: 0 ok, 2 bad
// usage or input (one line on stderr), 1 a simulation failure.
#pragma once

namespace mr::experiment {

inline constexpr char kPredictSummary[] =
    "replay a recorded run's traces under a policy: per-job error, or a what-if";

int PredictMain(int argc, char** argv);

}  // namespace mr::experiment
