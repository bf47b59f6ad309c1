// An experiment: one cluster shape, one workload and the policies to compare on it, run live
// and predicted (docs/experiments.md). Plain data: the file parser (experiment_file.h) fills
// it, the workload importers (workload_import.h) turn its workload into jobs, the runner
// (runner.h) plays those jobs on a local cluster and through the task-level simulator.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/straggler.h"
#include "common/worker_labels.h"
#include "model/tasksim/task_sim.h"

namespace mr::experiment {

// Workers of one kind; a cluster is one or more groups.
struct WorkerGroup {
  int count = 1;
  int map_slots = 1;
  int reduce_slots = 1;
  double speed = 1.0;            // mr worker --speed
  double shuffle_bandwidth = 0;  // bytes/s egress cap per worker; 0 = unlimited
  int unified_slots = 0;         // mr worker --unified-slots: each runs a map or a reduce
  // mr worker --straggler-*: the group's straggler injection (disabled: none). Worker k of
  // the group (from 0) draws with seed straggler.seed + k, live and in the simulator.
  StragglerSpec straggler{};
  // mr worker --label: every worker of the group carries these (labels: {class: fast}).
  WorkerLabels labels{};
  // mr worker --shuffle-link-rate: auto, off or a declared wire rate (docs/multi-host.md).
  std::string shuffle_link_rate = "auto";
  // mr worker --fetches-per-source: fetches in flight per reducer and source worker.
  int fetches_per_source = 2;
  // mr worker --receiver-shares: share-0 fetches wait for this host's link (docs/multi-host.md).
  bool receiver_shares = true;
};

// How a synthetic task spends its work time (mr submit synthetic --work).
enum class WorkMode {
  kBurn,   // burns CPU: a slot needs a core, so slots <= cores
  kSleep,  // holds its slot without CPU: emulates a cluster with more slots than cores
};
// "burn" / "sleep".
const char* WorkModeName(WorkMode mode);

// Where the live runs happen (the file's `cluster: kind:`; docs/experiments.md).
enum class ClusterKind {
  kLocal,  // the embedded local cluster of `mr run`: every daemon on loopback
  kNetns,  // scripts/netns-cluster.sh: master and each worker on a host (network namespace)
           // of its own, every link shaped to link_rate with tc tbf (docs/multi-host.md)
};

struct ClusterShape {
  ClusterKind kind = ClusterKind::kLocal;
  // kNetns: every host's link rate, bytes/s, shaped both ways (the host's egress and its
  // ingress at the switch). The simulator's shuffle bandwidth of a worker without a
  // software cap (ToClusterSpec).
  double link_rate = 0;
  std::vector<WorkerGroup> groups;
  // The simulator's receivers' links (model::ClusterSpec::receiver_links; the file's
  // `receiver_links: on|off`): by default on for kNetns, whose hosts receive through a shaped
  // link, off for kLocal, whose software cap limits only the senders.
  bool receiver_links = false;
  uint32_t heartbeat_ms = 20;    // mr master --heartbeat-ms
  double slow_start = 0.05;      // every job's --slow-start
  // Every job's --work. Part of the shape, not of the workload, because the calibration
  // measures the slots' rate in this mode (a sleeping slot does not share a core).
  WorkMode work = WorkMode::kBurn;
};

// How the workload's jobs are made.
enum class WorkloadKind {
  kGenerator,  // a seeded generator (name + parameters)
  kCsv,        // the documented job CSV (docs/experiments.md)
  kSwim,       // a SWIM trace (Facebook 2009 samples), compressed by documented rules
};

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::kGenerator;
  std::string path;                           // kCsv, kSwim: absolute, or relative to the file
  std::string generator;                      // kGenerator: its name
  std::map<std::string, std::string> params;  // generator / SWIM mapping parameters, as typed
  uint64_t seed = 1;
  bool batch = false;  // every job submitted at t = 0 (makespan is then meaningful)
};

struct PolicyRun {
  std::string policy;                          // a live policy (scheduler/registry.cc)
  std::string label;                           // unique in the experiment; names its results
  std::map<std::string, std::string> options;  // its options (the policy table checks them)
  // The master's --placement flags (name without "--" -> text, e.g. placement -> dep,
  // placement-d -> 100; scheduler/map_placement.h); empty = pull.
  std::map<std::string, std::string> placement;
  // `speculative: on|off` (default off): the live jobs are submitted with --speculative on
  // and the predictions run the LATE speculator (map backups; the simulator has no reduce
  // backups) after the policy, with the master's default thresholds.
  bool speculative = false;
  // A batch order (docs/makespan.md, "Batch orders in experiments"): "johnson" or
  // "reverse-johnson" submits the batch's jobs in that order of the makespan planner, one
  // after the other, under `policy` fifo; "balancedpools" plans BalancedPools' pools and
  // runs them as queues of `policy` capacity (the runner adds the queues option), each job
  // submitted to its pool's queue in the pool's order; "" submits them in the workload's order.
  std::string batch_order;
};

// What the report shows (the file's `report:` key; docs/experiments.md, "Report"). Stored
// beside the results (report.h, report.json) so that `mr experiment report DIR` rebuilds the
// same report.
struct ReportSpec {
  int tail_percentile = 90;   // the tail of the error columns, in (50, 100)
  bool scatter = true;        // plots/scatter.png: predicted vs measured per job
  bool cdf = true;            // plots/cdf.png: response-time CDF per policy
  bool gantt = true;          // plots/gantt.png: one job's tasks over time
  std::string gantt_run;      // LABEL-REP of the run it is drawn from; empty = the first by name
  std::string gantt_job = "slowest";  // slowest, fastest, or a job's index in the workload
  // The band judgement (experiment/band.h): each run replayed, and each policy predicted,
  // band_runs times, once as it is and band_runs - 1 times with every task duration moved
  // by a uniform draw on (-band_jitter, band_jitter) seconds (seeds 1 ..). 0 runs = no band.
  int band_runs = 8;
  double band_jitter = 0.001;
  // A named variant of the prediction's band (docs/experiments.md, "Why predictions miss"):
  // with band_map_time_cv > 0 its members 1 .. band_runs - 1 also draw every map's time
  // from a log-normal law of this coefficient of variation around the job's map time
  // (model::ClusterSpec::map_time_cv, seed + k), as live maps of equal work vary; the replay's
  // band is unchanged (its durations are the run's own). 0 = the 1 ms band only (default).
  double band_map_time_cv = 0;
};

struct Experiment {
  std::string name;         // results go to results/NAME/
  std::string source_path;  // the experiment file
  ClusterShape cluster;
  WorkloadSpec workload;
  std::vector<PolicyRun> policies;
  int repetitions = 1;      // live runs per policy
  ReportSpec report;
};

// The jobs a workload makes, in the simulator's terms (model::TaskJob: arrival, maps, map
// seconds and bytes per map, reducers, reduce seconds). The live runner submits each as a
// synthetic job with the same numbers at its arrival; the simulator takes them as they are.
using JobList = std::vector<model::TaskJob>;

}  // namespace mr::experiment
