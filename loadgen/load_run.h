// `mr loadgen`: one real master driven by thousands of simulated workers over real TCP
// (docs/master-load.md). The workers (SimWorker) share a few io threads; the run goes
// through phases, each measured as the difference of two readings:
//   register  every worker connects (at `ramp_per_second`) and registers;
//   idle      no job: the cost of heartbeats alone;
//   jobs      `jobs` synthetic jobs (maps x reducers), `concurrent_jobs` in flight,
//             submitted and awaited through the client protocol: job throughput;
//   restart   (with `restart`) one longer job runs, the run prints kRestartCue and waits
//             for the connections to drop (whoever drives the run kills the master with
//             SIGKILL and starts it again on the same state directory and port), then
//             times: every worker registered again, the first assignment after the loss,
//             the job's end.
// Per phase: heartbeats per second (the workers' replies and the master's count), the
// reply round trip the workers saw (p50/p99), the master's heartbeat handling, round and
// decision-per-free-slot times (/api/cluster "timings", p50/p99), its CPU and memory (/proc).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/log_histogram.h"
#include "common/status.h"
#include "common/units.h"
#include "loadgen/master_probe.h"
#include "loadgen/sim_tasks.h"

namespace mr::loadgen {

inline constexpr const char* kRestartCue = "loadgen: restart the master now";

struct LoadOptions {
  HostPort master;
  ProbeTarget probe;            // the master's status page and pid, for its own numbers
  int workers = 1000;
  int threads = 1;              // io threads the simulated workers share
  double ramp_per_second = 1000;  // workers started per second
  SimTaskOptions tasks;         // slots and default task times of every simulated worker
  double register_timeout = 120;
  double idle_seconds = 3;
  int jobs = 10;
  int concurrent_jobs = 2;
  uint32_t maps = 200;
  uint32_t reducers = 20;
  std::string out_dir;          // the jobs' output directories go under it (absolute)
  bool restart = false;
  uint32_t restart_maps = 0;    // 0: three waves of the cluster's map slots
  double restart_map_seconds = 1;
  double restart_timeout = 120;  // for the master to go and for the recovery
  std::string json_path;        // also write the results as JSON here
};

struct PhaseResult {
  std::string name;
  double seconds = 0;
  uint64_t replies = 0;               // heartbeat replies the workers received
  LogHistogram reply_us;
  MasterReading master;               // the master's counters over the phase (differences)
  double master_cpu_seconds = 0;
  double master_rss_mib = 0, master_hwm_mib = 0;  // at the phase's end
  uint64_t maps = 0, reduces = 0;     // attempts that succeeded in the phase
};

struct JobsResult {
  int submitted = 0, succeeded = 0;
  std::vector<std::string> failures;  // "job-000003: FAILED: why"
  double seconds = 0;
  std::vector<double> response_seconds;
};

struct RecoveryResult {
  bool ran = false;
  double lost_at = 0;                 // seconds from the cue to the first lost connection
  double all_registered = -1;         // from the first loss to every worker registered again
  double first_assignment = -1;       // from the first loss to the first assignment received
  double job_end = -1;                // from the first loss to the job's end
  std::string job_state;
};

struct LoadResult {
  int workers = 0;
  std::vector<PhaseResult> phases;
  JobsResult jobs;
  RecoveryResult recovery;
  uint64_t connect_failures = 0, losses = 0, reduces_failed = 0;
};

// Runs the phases against options.master; the table goes to `out` (and JSON to
// options.json_path). Errors: InvalidArgument for options out of range, NetworkError when
// the master cannot be reached or not every worker registered in time, Internal for a job
// that did not succeed (the table is written first).
Status RunLoad(const LoadOptions& options, std::ostream& out);

// The results as the table RunLoad prints.
void PrintLoadTable(const LoadOptions& options, const LoadResult& result, std::ostream& out);
std::string LoadResultJson(const LoadOptions& options, const LoadResult& result);

}  // namespace mr::loadgen
