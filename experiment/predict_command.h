// The work of `mr model predict`: replays a recorded run's traces through the task-level
// simulator under a live policy and prints the per-job prediction (or what-if) CSV of
// replay_prediction.h. It lives here, not in model/, because it reads traces (web/); the
// flags are parsed in cli/model/cmd_predict.cc. Single-threaded.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/policy_options.h"
#include "scheduler/stages/map_placement.h"

namespace mr::experiment {

struct PredictOptions {
  std::vector<std::string> traces;  // trace files, or directories of *.jsonl traces
  std::string policy;               // a live policy
  sched::PolicyOptions policy_options;
  sched::PlacementConfig placement;  // the run's --placement: replayed with the same stage
  // The recorded cluster: from an experiment file's cluster section when cluster_from is
  // set (then only slow_start, if slow_start_given, and decision_latency are read from
  // `cluster`), else `cluster` as the flags gave it.
  std::string cluster_from;
  model::ClusterSpec cluster;
  bool slow_start_given = false;
  // Every worker's egress cap: a rate, or fitted from the traces' fetches (MeasuredShuffleRate)
  // when measured_bandwidth; neither with cluster_from: the file's caps.
  std::optional<double> shuffle_bandwidth;
  bool measured_bandwidth = false;
  // Every recorded task duration moved by a draw on (-jitter, jitter) from jitter_seed
  // (JitterDurations, trace_replay.h); 0 = as recorded.
  double jitter = 0;
  uint64_t jitter_seed = 1;
  // Where to write the simulator's schedule (replay_schedule.h); empty = nowhere.
  std::string schedule_out;
};

// Reads the traces, resolves the cluster and prints WritePrediction's CSV (and, for a
// measured bandwidth, a '#' line saying from how many source workers); with schedule_out,
// writes WriteSchedule's lines there. InvalidArgument /
// NotFound / IoError for bad traces, experiment file or options; other codes for a failure
// of the simulation.
Status RunPredictCommand(const PredictOptions& o, std::ostream& out);

}  // namespace mr::experiment
