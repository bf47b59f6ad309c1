// A recorded run read back from its job traces (docs/trace-format.md) as (a) the jobs the
// task-level simulator replays — each job's arrival, its maps' and reduces' MEASURED
// durations, its map output bytes and the size hint the policy saw — and (b) what the run
// measured per job (response time, time to the end of its shuffle). docs/model.md, "Replaying a recorded run",
// states the rules: only a task's successful attempt counts (failed, killed and lost attempts
// are counted, not replayed); a job without a successful job_end is excluded and reported.
// Traces are read by trace/reader.h, attempts by trace::CollectAttempts. Pure functions
// except ReadTraces and ReadRecordedRun (read files); thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "trace/event.h"

namespace mr::experiment {

// Where a task's replayed (successful) attempt ran: the master's worker id and the attempt's
// number (0 when the trace does not say).
struct TaskPlace {
  int64_t worker = 0;
  int64_t attempt = 0;
  // Seconds the master counted its slot busy beyond the duration: from the attempt's
  // assignment (attempt_start) to the master's receipt of its end (attempt_end's
  // `reported`), minus the worker-measured duration; -1 when the trace lacks either.
  double overhead = -1;
};

// What the run measured for one job. Times are seconds; arrival is after the run's first
// job_submit (RecordedRun::t0).
struct RecordedJob {
  std::string id;      // "job-000007"
  std::string name;    // job_submit's name
  std::string policy;  // the policy the master ran (job_submit's)
  double arrival = 0;
  double response = 0;  // job_end's response_time (submit to job end)
  // Submit to the end of the job's shuffle: its last successful fetch_end, or its last
  // successful map's end when it fetched nothing — when the tandem model's job departs.
  double shuffle_done = 0;
  int failed_attempts = 0;  // attempt_end status failed (all tasks)
  int killed_attempts = 0;  // status killed: a losing backup, a kill, a reduce sent back to fetch
  int lost_attempts = 0;    // status lost: its worker was lost
  // Per map, resp. reduce, where the attempt whose duration is replayed ran.
  std::vector<TaskPlace> maps_ran;
  std::vector<TaskPlace> reduces_ran;
};

// A job in the traces that cannot be replayed, and why ("no job_end: unfinished", ...).
struct ExcludedJob {
  std::string id;
  std::string reason;
};

// One source worker's shuffle server as the successful fetches from it show it.
struct LinkUse {
  double bytes = 0;
  double busy_seconds = 0;  // length of the union of the fetches' [start, t]
};

// A decision whose note names the policy's round ("asrpt: round 12, ..."): when, in seconds
// after the run's t0, and the round's index.
struct RoundNote {
  double t = 0;
  uint64_t index = 0;
};

struct RecordedRun {
  JobList jobs;                       // replayable jobs, by arrival (then job id)
  std::vector<RecordedJob> measured;  // measured[i] is jobs[i]'s outcome
  std::vector<ExcludedJob> excluded;  // by job id
  std::string policy;                 // the policy of every replayable job; "mixed" if several
  double t0 = 0;                      // the first job_submit's t (epoch seconds), all traces
  // The run's first attempt_start after t0 (every job): no round offered slots before it.
  double first_assignment = 0;
  std::map<int64_t, LinkUse> links;   // per source worker id, over all jobs
  std::vector<RoundNote> rounds;      // every decision of every job that names its round
  // The rounds in which the live policy re-planned, in seconds after t0, ascending: the
  // distinct times of the run's allocation events (flex records one per job at every plan;
  // policies that record no allocations leave it empty). The replay runs its periodic rounds
  // at these times (model::ClusterSpec::round_times) instead of an exact 0.1 s grid.
  std::vector<double> replans;
  // Per worker id, seconds its clock runs ahead of the master's. A trace mixes two clocks:
  // the master's (attempt_start, reported, reduce_place, maps_done) and each worker's
  // converted to it with an offset measured once at its handshake (attempt_end's t and
  // start, fetch_end), which a loaded host can get wrong by tens of milliseconds (62 ms in
  // an asrpt-2x1-seed1 run at load average 20). The middle of the bounds its attempts
  // give — each start after its assignment, each end before its report's receipt; only
  // workers whose ends carry `reported`. Gaps from a master event to a worker event are
  // measured on the master's clock with it (docs/model.md, "Worker clocks").
  std::map<int64_t, double> worker_clock_offsets;
  // Seconds from a reducer's placement to its last fetch's end (on the master's clock:
  // worker_clock_offsets), for reducers placed once their job's maps were done (the median;
  // 0 when none was): live, the round that places a reducer cannot start it — the placement
  // reaches its worker with a heartbeat, the worker fetches (even nothing) and reports it
  // ready — so a slot freed meanwhile goes to another task. The replay's
  // ClusterSpec::reduce_ready_delay.
  double reduce_ready_delay = 0;
  // Seconds from an attempt's end to the next attempt's start on its worker when a task was
  // waiting (the median over back-to-back attempts: the end's report, the next round, the
  // assignment's delivery), which the recorded durations leave out; 0 when none. The
  // replay's ClusterSpec::decision_latency: without it a replay runs ahead of the run by a
  // few ms per task and a policy with clocked rounds (asrpt) plans a round with other tasks
  // done than live.
  double slot_turnover = 0;
  // Seconds from a job's submission to the first assignment after it on a worker that ran
  // nothing then (the median over submissions that found an idle worker; 0 when none): live,
  // an idle worker hears of a new job only at its next periodic heartbeat, so jobs submitted
  // within that wait are offered together. The replay's ClusterSpec::arrival_latency
  // (docs/model.md, "An arrival waits for a heartbeat").
  double arrival_wait = 0;
};

// When the live policy's round clock started, on the run's clock (seconds after t0), as its
// decisions' round notes show it: a decision in round N at t means the clock started at or
// before t - N x round; the latest time all notes allow, moved back by whole rounds to at
// most 0 (the phase is what matters: live, the master calls the policy from its start, jobs
// or not, so its rounds do not start at the first assignment). nullopt without notes or with
// round <= 0. The replay passes it as ClusterSpec::policy_start.
std::optional<double> RoundClockStart(const RecordedRun& run, double round);

// The traces do not carry what the user asked of each job (pool, weight, FLEX's metric,
// deadline, SLA, slot bounds): gives each replayed job whose live id is in `by_id` those
// parameters, keeping the size hints its trace recorded (what the master saw). A job not in
// the map keeps the defaults. `mr experiment` passes each job's workload row; without it a
// flex replay under weighted response time or tardiness ran every job at weight 1 with no
// deadline.
void AttachJobParams(const std::map<uint64_t, sched::JobParams>& by_id, RecordedRun* run);

// Moves every recorded task duration of `run` by a draw uniform on (-seconds, seconds) (at
// least 0 after it), from Rng(seed), jobs in order, maps before reduces: `mr model predict
// --jitter`. A replay's own sensitivity to timing far below a live run's noise (equal tasks
// ending within milliseconds decide what runs next): bench/asrpt/replay_band.py replays a
// run under several seeds. REQUIRES: seconds >= 0; 0 leaves the run as it is.
void JitterDurations(double seconds, uint64_t seed, RecordedRun* run);

// Builds a run from parsed traces, one event list per job (trace::ParseTraceLines).
// InvalidArgument for a trace without job_submit, two traces of one job, an attempt with a
// bad task id, or an event missing a field the replay needs (naming the job and event:
// "job-000002: attempt_end without a numeric 'start'").
Result<RecordedRun> RecordedRunFromTraces(const std::vector<std::vector<trace::Event>>& traces);

// The trace files `path` stands for: itself if a file, else the *.jsonl files in the
// directory (a master's STATE directory stands for its traces/ subdirectory). NotFound for a
// missing path or a directory without traces.
Result<std::vector<std::string>> TraceFiles(const std::string& path);
// The parsed events of every trace file `paths` name (TraceFiles), one list per file;
// InvalidArgument for an empty trace, a line that is not JSON named by file and line.
Result<std::vector<std::vector<trace::Event>>> ReadTraces(const std::vector<std::string>& paths);

// Reads `paths`: trace files, or directories whose *.jsonl files are traces (a master's
// STATE directory stands for its traces/ subdirectory). NotFound for a missing path or a
// directory without traces; a line that is not JSON is named by file and line, a trace
// the replay cannot use by its job id.
Result<RecordedRun> ReadRecordedRun(const std::vector<std::string>& paths);

// The per-worker shuffle rate the run achieved: for each source worker the bytes fetched
// from it over the time some fetch from it was in flight (the union of its successful
// fetch_end [start, t]), averaged over the workers that served. Fetches, not `served`
// reports: a served report window (up to 250 ms) is counted whole even when the link sent
// for part of it, which reads a 20 MB/s cap as 15-18 MB/s. 0 when nothing was fetched.
double MeasuredShuffleRate(const RecordedRun& run);

}  // namespace mr::experiment
