// The work behind the `mr model` commands of the fluid model and the task-level simulator
// (tandem, gen, sweep, slowdown, tasksim): each takes its options struct and an output
// stream and returns a Status, so it runs (and is tested) without argv or a process. The
// flags that fill the structs are parsed in cli/model/. Errors: InvalidArgument / NotFound
// (IoError for a file) for bad input, anything else for a failure of the model itself;
// cli/commands.h maps them to exit codes. Single-threaded.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/tasksim/task_sim.h"
#include "model/tasksim/task_workload.h"
#include "model/fluid/workload.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/policy_options.h"

namespace mr::model {

struct TandemOptions {
  std::string workload;  // fluid CSV arrival,x,y, or a task-level JSON workload (as tasksim's)
  std::string policy;    // a fluid policy (MakeTandemPolicy)
  int k = 100;           // klps's k
  // The cluster a JSON workload's sizes are for (workers, map_slots, unified_slots,
  // shuffle_bandwidth are read); required for a JSON workload, unused for a CSV one.
  std::optional<ClusterSpec> cluster;
};
// Simulates the workload under the policy and prints the CSV job,arrival,x,y,completion,
// response and a '#' line with the mean response, the lower bound's and their ratio.
Status RunTandemCommand(const TandemOptions& o, std::ostream& out);

// "google" (GenerateGoogleLike), "lognormal" (GenerateLogNormal) or "poisson"
// (exponential sizes, mean 1); rebalanced applies to all three.
Result<std::vector<TandemJob>> GenerateByKind(const std::string& kind, const GoogleLikeOptions& o);

struct GenOptions {
  GoogleLikeOptions workload;
  std::string kind = "google";  // as GenerateByKind
  std::string out;              // the CSV file written
};
// Generates the workload, writes it to o.out and prints "wrote FILE: <its stats>".
Status RunGenCommand(const GenOptions& o, std::ostream& out);

struct SweepLists {
  std::vector<double> loads;
  std::vector<std::string> policies;
  std::vector<std::string> variants;  // "original" and/or "rebalanced"
};

struct SweepOptions {
  int64_t jobs = 20000;
  uint64_t seed = 1;
  int k = 100;
  bool csv = false;
  SweepLists lists;
};
// For each variant and load: a Google-like workload, the lower bound, and each
// policy's mean response divided by the bound's mean (relative E[T]).
Status RunSweepCommand(const SweepOptions& o, std::ostream& out);

struct SlowdownOptions {
  double load = 0.75;
  int64_t jobs = 200000;
  uint64_t seed = 1;
  int buckets = 20;
  int k = 100;
  SweepLists lists;  // only the policies are read
};
// CSV of mean slowdown T/max(x,y) per log-spaced size bucket, one column per policy.
// InvalidArgument unless buckets >= 1, load > 0 and jobs >= 1.
Status RunSlowdownCommand(const SlowdownOptions& o, std::ostream& out);

struct TaskSimOptions {
  std::string workload;    // fluid CSV or bench/policies workload JSON
  std::string policy;                   // a live policy (sched::KnownPolicies())
  sched::PolicyOptions policy_options;  // its options, over the table's defaults
  ClusterSpec cluster;
  TaskShape shape;
  MapTimeDist map_time;    // given to every job (kClusterDefault: leave them as loaded)
  sched::PlacementConfig placement;  // --placement (pull: none)
  bool speculate = false;  // run the LATE speculator (default thresholds) after the policy
  bool per_worker = false;  // then a '# worker=' line per worker (TaskSimResult::worker_maps)
};
// Runs the live policy on the task-level simulator and, for comparison, the
// fluid model's counterpart (MakeFluidCounterpart, e.g. fair -> ps) on the same sizes. Prints
// the tandem CSV (x, y in fluid units) and a '#' summary line (which also counts failed jobs,
// failed attempts, backups and kills when there were any). NotFound / InvalidArgument
// for a bad policy, cluster or workload; Internal for an invalid decision.
Status RunTaskSimCommand(const TaskSimOptions& o, std::ostream& out);

}  // namespace mr::model
