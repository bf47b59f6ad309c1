// The master's record of one job: its spec, map and reduce tasks with their
// states, size estimates, counters and trace. Plain data plus small queries;
// all mutation happens in JobTracker on the master's state thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/job_id.h"
#include "jobs/input_split.h"
#include "master/trace_writer.h"
#include "model/makespan/profile_fold.h"
#include "mr.pb.h"
#include "store.pb.h"
#include "scheduler/snapshot.h"

namespace mr::master {

using WorkerId = uint32_t;

struct MapTask {
  enum class State { kPending, kRunning, kDone };
  State state = State::kPending;
  jobs::Split split;
  uint32_t attempt = 0;         // id of the running or done attempt
  uint32_t next_attempt = 1;    // ids are never reused (persisted)
  uint32_t failures = 0;        // failed attempts (lost workers do not count)
  std::string status_line;      // the latest attempt's reporter:status: (streaming), "" if none
  WorkerId worker = 0;          // where the running / done attempt is
  WorkerId last_failed_worker = 0;
  bool unified = false;         // running in a unified slot
  double start_time = 0;
  double end_time = 0;
  std::vector<uint64_t> partition_bytes;
  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
  google::protobuf::RepeatedPtrField<proto::Counter> counters;  // of the done attempt; leave the job's sum if re-executed
  // Done before a master restart, on a worker that has not registered again yet: held as
  // running (no slot, worker 0) until that worker offers the output or the wait ends.
  std::optional<proto::StoredTask> awaiting;
  // Blame (docs/reliability.md, "Blame and bounds"): unproven (UNREACHABLE) fetch failures
  // of the done attempt, per reducer index, cleared when it is superseded; and how often
  // this map's output could not be served (each ends in a re-execution or the job's end).
  std::map<uint32_t, uint32_t> unreachable_reports;
  uint32_t unserved = 0;
  double progress = 0;          // of the running attempt, from its RUNNING reports ([0, 1])
  // A second running attempt (a policy's backup Assignment, for speculation): the first of
  // the two to succeed counts and the other is killed. Only while state is kRunning.
  struct Backup {
    uint32_t attempt = 0;
    WorkerId worker = 0;
    bool unified = false;
    double start_time = 0;
    double progress = 0;
  };
  std::optional<Backup> backup;
  // Pending and waiting in this worker's queue (a policy's Decision::queue): only that
  // worker may run it. 0 = in no queue. Cleared when the worker is lost or blacklisted.
  WorkerId queued_at = 0;

  // The backup becomes the attempt that counts (the other one ended); REQUIRES: backup.
  void PromoteBackup() {
    attempt = backup->attempt;
    worker = backup->worker;
    unified = backup->unified;
    start_time = backup->start_time;
    progress = backup->progress;
    backup.reset();
  }
  // Exchanges the running attempt with its backup; REQUIRES: backup.
  void SwapWithBackup() {
    Backup mine{attempt, worker, unified, start_time, progress};
    PromoteBackup();
    backup = mine;
  }
  // The share of the map's work its running attempts have done (the further of the two), in
  // [0, 1]; 0 unless running. Status and JobRecord::Progress count a task by it.
  double RunningShare() const {
    if (state != State::kRunning) return 0;
    return std::clamp(std::max(progress, backup ? backup->progress : 0.0), 0.0, 1.0);
  }
};

// An unproven fetch failure re-executes the map once this many reports of one reducer,
// or reports of this many distinct reducers, name the same done attempt.
inline constexpr uint32_t kUnreachableReportsOfOneReducer = 3;
inline constexpr size_t kUnreachableReducers = 2;

struct ReduceTask {
  // kUnplaced -> kFetching (placed on `worker`, no slot) -> kReady (all data
  // local) -> kRunning (holds a slot) -> kDone (committed).
  enum class State { kUnplaced, kFetching, kReady, kRunning, kDone };
  State state = State::kUnplaced;
  WorkerId worker = 0;
  bool unified = false;
  uint32_t attempt = 0;
  uint32_t next_attempt = 1;
  uint32_t failures = 0;
  std::string status_line;  // the latest attempt's reporter:status: (streaming), "" if none
  WorkerId last_failed_worker = 0;  // a re-placement goes elsewhere if it can
  uint32_t maps_fetched = 0;
  uint64_t shuffle_bytes = 0;            // of its finished fetches (in JobRecord::shuffle_bytes_fetched)
  uint64_t shuffle_bytes_in_flight = 0;  // received by its fetches in flight, while kFetching
  double start_time = 0;
  double end_time = 0;
  double progress = 0;  // of the running attempt, from its RUNNING reports ([0, 1])
  // A second attempt on another worker (speculation: a policy's backup Assignment of a
  // running reduce). It holds its slot from the start, fetches the partition again there,
  // and runs once it holds every run and every map is done (attempt 0 until then). The first
  // of the two to succeed commits and the other is killed. Only while state is kRunning;
  // never stored: a master restart re-runs the reduce from its placement.
  struct Backup {
    WorkerId worker = 0;
    bool unified = false;
    bool ready = false;      // holds every run
    uint32_t attempt = 0;    // 0 while fetching
    uint32_t maps_fetched = 0;
    double start_time = 0;   // placed, then started
    double progress = 0;
  };
  std::optional<Backup> backup;
  // As MapTask::RunningShare: the running attempt's reported share of the work, 0 unless running.
  double RunningShare() const { return state == State::kRunning ? std::clamp(progress, 0.0, 1.0) : 0.0; }
  // The running backup becomes the attempt that counts (the other one ended). REQUIRES: a
  // backup that runs (attempt != 0).
  void PromoteBackup() {
    const Backup b = *backup;
    backup.reset();
    worker = b.worker;
    unified = b.unified;
    attempt = b.attempt;
    start_time = b.start_time;
    progress = b.progress;
  }
};

// Job counters that count attempts rather than records (Hadoop's NUM_FAILED_MAPS etc.):
// the only trace in the job's counters of attempts that did not commit.
inline constexpr const char* kFailedMapsCounter = "job.failed_maps";
inline constexpr const char* kFailedReducesCounter = "job.failed_reduces";
inline constexpr const char* kKilledMapsCounter = "job.killed_maps";        // lost with a worker, or superseded
inline constexpr const char* kKilledReducesCounter = "job.killed_reduces";  // lost with a worker, or superseded
// Speculative execution (scheduler/speculator.h): backup map attempts started, and those that
// succeeded first (the attempt they backed up is then killed, counted in job.killed_maps).
inline constexpr const char* kBackupMapsCounter = "job.backup_maps";
inline constexpr const char* kBackupMapsWonCounter = "job.backup_maps_won";
// The same for reduces; a losing reduce attempt is counted in job.killed_reduces.
inline constexpr const char* kBackupReducesCounter = "job.backup_reduces";
inline constexpr const char* kBackupReducesWonCounter = "job.backup_reduces_won";

// The measured shuffle rate in status covers fetches of this many recent seconds.
inline constexpr double kShuffleRateWindow = 2.0;

// kKilled: ended by `mr kill` (or an interrupted `mr run`); like kFailed it leaves no output.
enum class JobState { kRunning, kSucceeded, kFailed, kKilled };
const char* JobStateName(JobState s);
// The inverse of JobStateName; nullopt for a name it never returns.
std::optional<JobState> ParseJobState(const std::string& name);
// The error a job killed by `mr kill` reports (status, trace, store).
inline constexpr const char* kKilledByUser = "killed by user";

// A job's progress by bytes (docs/web.md, "Progress"). Map: input read over all splits'
// bytes (tasks when the job reads no input, as synthetic jobs). Shuffle: bytes fetched over
// the map output expected — the output so far extrapolated, by input bytes (or maps), to the
// maps still to run, so it never reads "all fetched" while maps are pending. Reduce: the
// reduces' input merged over the whole map output (tasks when there is none). Each in [0, 1];
// a succeeded job is 1 everywhere; failed and killed jobs keep what they reached.
struct PhaseProgress {
  uint64_t input_bytes = 0;
  double input_bytes_read = 0;
  double shuffle_bytes_expected = 0;
  double reduce_bytes_merged = 0;
  double map = 0, shuffle = 0, reduce = 0;
};

struct JobRecord {
  uint64_t id = 0;
  proto::JobSpec spec;
  JobState state = JobState::kRunning;
  // Ended, its trace handed to the seal (master/job_seal.h) and not yet back: status shows
  // it RUNNING in phase "sealing", waiters stay parked, retention keeps it.
  bool sealing = false;
  std::string error;
  double submit_time = 0;
  double start_time = 0;   // first task assigned
  double end_time = 0;
  // When the master learned that the job's last map finished, i.e. every map output is
  // available to the reducers (0 = not yet, or a map runs again): the job's sojourn time
  // in the straggling-mappers paper's sense is maps_done_time - submit_time.
  double maps_done_time = 0;
  std::vector<MapTask> maps;
  std::vector<ReduceTask> reduces;
  bool slow_start_reached = false;                   // reducers may be placed
  double share = 0;                                   // current shuffle share
  std::map<WorkerId, std::vector<bool>> locations_sent;  // per worker hosting reduces
  // The sum over committed attempts only (a done map's, a committed reduce's): a map
  // re-executed after its output was lost takes its counters back out, so retries and
  // kills never inflate map.records_in. Plus the job.* attempt counts above.
  mutable std::shared_ptr<const sched::MapLocality> locality;  // Locality()'s cache
  mutable bool locality_built = false;
  std::map<std::string, int64_t> counters;
  std::map<WorkerId, int> worker_failures;            // blacklisting per job
  std::unique_ptr<TraceWriter> trace;
  std::string trace_path;
  // The ARIA profile folded as the trace is written (model/makespan/profile_fold.h), for
  // the seal. Set at submit; null for a job restored after a restart, whose earlier events
  // this master never saw: its seal parses the trace file instead (master/job_seal.h).
  std::shared_ptr<model::ProfileFold> profile_fold;

  int maps_done = 0;
  int maps_running = 0;
  int reduces_done = 0;
  int reduces_running = 0;
  double map_seconds_done = 0;     // sum of finished map durations
  // Committed reduces whose duration this master saw (not those committed before a
  // restart), and the sum of their durations: the online reduce estimate.
  int reduces_measured = 0;
  double reduce_seconds_done = 0;
  uint64_t map_input_bytes = 0;    // sum over finished maps
  uint64_t input_bytes = 0;        // all splits
  std::optional<proto::JobProfile> profile;   // earlier runs of this job name
  sched::EstimateSource traced_source = sched::EstimateSource::kNone;
  uint64_t map_output_bytes = 0;   // sum over finished maps
  uint64_t shuffle_bytes_fetched = 0;   // by finished fetches of the placed reducers
  std::string policy;              // the policy it runs (ran) under
  // Frozen at the end, so a finished job's status does not move with later profiles.
  std::optional<sched::SizeEstimate> final_estimate;
  // Frozen at the end too (and persisted): a restarted master has no task states to
  // compute it from, and the page must read the same before and after.
  std::optional<PhaseProgress> final_progress;
  // The measured shuffle rate (docs/web.md). Recent: the source servers' `served` reports
  // (bytes sent in [start, end]) of the last kShuffleRateWindow seconds. Mean: the
  // successful fetches' span and bytes.
  struct Served {
    double start = 0, end = 0;
    uint64_t bytes = 0;
  };
  std::deque<Served> recent_served;
  double served_first_start = 0;   // of the first report (0: none yet)
  double shuffle_first_start = 0;
  double shuffle_last_end = 0;
  uint64_t fetch_bytes = 0;
  // The latest failed attempt (map or reduce) with its error and stderr tail, for `mr
  // status JOB` and the page; persisted with the job.
  std::optional<proto::FailedAttempt> last_failed_attempt;
  // An allocating policy's (flex) latest allocation per pool (index: sched::SlotKind), and
  // when it was computed; for `mr status JOB` and the page. Not persisted: the policy's
  // inputs are (the spec's parameters, the submit time), and a restarted master's policy
  // recomputes the plan from them at its first round with slots.
  std::optional<sched::JobAllocation> allocation[3];
  double allocation_time[3] = {0, 0, 0};
  // Set by Recovery for a resumed job: its next allocations are the first ones this master
  // computed, which the trace marks (reason "restart"); cleared once they are recorded.
  bool allocation_after_restart = false;

  bool finished() const { return state != JobState::kRunning; }
  // A reduce starts only once every map of its job is done, even when its reducer already
  // holds every run: a map that runs again (its output lost with a worker, or unserved)
  // finishes before any reduce starts, so a succeeded job always has a committed attempt of
  // every map in its counters and no map attempt ends after one of its reduces started.
  bool ReduceMayStart(const ReduceTask& t) const {
    return t.state == ReduceTask::State::kReady && maps_done == static_cast<int>(maps.size());
  }
  // counters += sign * c (sign is +1 when an attempt commits, -1 when it is superseded).
  void AddCounters(const google::protobuf::RepeatedPtrField<proto::Counter>& c, int64_t sign);
  // While running, the active phases joined by '+' ("map", "map+shuffle",
  // "shuffle+reduce"); "" once the job has ended (docs/web.md, "State and phase").
  std::string phase() const;
  PhaseProgress Progress() const;
  // Bytes the reducers have received: shuffle_bytes_fetched plus what the fetching reducers'
  // fetches still in flight have received (their last reports), so "fetched" moves while
  // bytes flow, as the measured rate does. What status shows as shuffle_bytes_fetched.
  uint64_t ShuffleBytesReceived() const;
  // Size estimate (docs/policies.md, "Size estimates"): online once sched::kOnlineAfterMaps maps have
  // finished (or all have), else the user's hint, else the job-name profile.
  // Where the maps' splits live, for placement (sched::JobView::locality): each split's
  // host is the address of the data server that holds it (Split::host without its port),
  // none for a shared path. Built from the splits on first use (they never change) and
  // shared by every snapshot; null when no split names a host.
  const std::shared_ptr<const sched::MapLocality>& Locality() const;
  sched::SizeEstimate Estimate(double now) const;
  // Bytes/s sent for this job over the last kShuffleRateWindow seconds before now (each
  // report's bytes spread over its interval), and fetched over the whole shuffle so far.
  double RecentShuffleRate(double now) const;
  double MeanShuffleRate() const;
  void RecordFetch(double start, double end, uint64_t bytes);
  void RecordServed(double start, double end, uint64_t bytes);
  std::string TaskName(sched::TaskKind kind, int index) const;
};

std::string TaskIdString(sched::TaskKind kind, int index);  // "m-00003", "r-00001"

}  // namespace mr::master
