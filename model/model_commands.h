// The work behind `mr model` subcommands, separated from flag parsing so the
// sweep and slowdown runs can be called (and tested) without argv. Internal to
// model/; single-threaded.
#pragma once

#include <cstdint>
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

// Prints "mr model: <message>" on stderr and returns exit_code.
int Fail(const Status& status, int exit_code = 2);
// 2 for bad input (InvalidArgument, NotFound), 1 for anything else.
int ExitCodeFor(const Status& status);

// "google" (GenerateGoogleLike), "lognormal" (GenerateLogNormal) or "poisson"
// (exponential sizes, mean 1); rebalanced applies to all three.
Result<std::vector<TandemJob>> GenerateByKind(const std::string& kind, const GoogleLikeOptions& o);

struct SweepLists {
  std::vector<double> loads;
  std::vector<std::string> policies;
  std::vector<std::string> variants;  // "original" and/or "rebalanced"
};
// Comma-separated lists; InvalidArgument/NotFound for a bad load, policy or variant.
Status ParseSweepLists(const std::string& loads, const std::string& policies,
                       const std::string& variants, SweepLists& out);

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
  SweepLists lists;
};
// CSV of mean slowdown T/max(x,y) per log-spaced size bucket, one column per policy.
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
};
// Runs the live policy on the task-level simulator and, for comparison, the
// fluid model's counterpart (MakeFluidCounterpart, e.g. fair -> ps) on the same sizes. Prints
// the tandem CSV (x, y in fluid units) and a '#' summary line (which also counts failed jobs,
// failed attempts, backups and kills when there were any). NotFound / InvalidArgument
// for a bad policy, cluster or workload; Internal for an invalid decision.
Status RunTaskSimCommand(const TaskSimOptions& o, std::ostream& out);

}  // namespace mr::model
