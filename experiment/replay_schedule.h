// `mr model predict --schedule-out FILE`: the replay's (or what-if's) schedule as JSON lines in
// the trace's style (docs/trace-format.md), one `attempt_start` per attempt the simulator
// launched and one `attempt_end` per attempt it stopped, on the recorded run's clock (epoch
// seconds: RecordedRun::t0 plus the simulator's time) and with the run's job ids, so a
// divergence of the replay from the run is read by setting the file beside the traces' own
// attempt_start / attempt_end lines. Pure functions; thread-safe.
#pragma once

#include <ostream>

#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"

namespace mr::experiment {

// Writes p.sim.schedule (the prediction must have been run with
// ClusterSpec::record_schedule) in time order. Each line has `event`, `t`, `job`, `task`
// ("m-00003" / "r-00001"), `attempt` (within its task, from 1), `worker` (the simulator's,
// from 1), `slot` (map, reduce, unified); an attempt_start also `backup` when it is one; an
// attempt_end also `start` and `status` (ok, failed, killed).
void WriteSchedule(const RecordedRun& run, const Prediction& p, std::ostream& out);

}  // namespace mr::experiment
