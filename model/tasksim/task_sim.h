// Task-level discrete-event simulator of the real cluster that drives a LIVE
// sched::Scheduler through the same seam as the master: at every event it builds
// the sched::Snapshot the master would build (one worker's free slots per round, or
// every worker's for a kCluster policy; size estimates from hints then online;
// running attempts, measured map rates, worker queues, job parameters), calls
// Schedule(), checks every queue entry, assignment (backups included), kill and share
// (an invalid decision is an error: the run doubles as a contract check of the
// policy) and applies them. Workers have their own slots (map, reduce, unified),
// speed and egress cap; a task's attempts may fail and be retried. A finished map's
// output waits on its worker and is sent at that worker's egress cap, split by the
// shuffle shares with unused capacity lent (as shuffle/net/share_limiter does), and, with
// ClusterSpec::receiver_links, received at most at the receiver's link rate;
// reduces run once all their job's data has arrived. Between events rates are
// constant, so time jumps exactly from event to event. Single-threaded; the
// scheduler is borrowed for the run. docs/model.md describes what is modelled.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/straggler.h"
#include "common/worker_labels.h"
#include "model/tasksim/map_time.h"
#include "scheduler/scheduler.h"
#include "scheduler/stages/speculator.h"

namespace mr::model {

// One job as the cluster sees it (the shape of `mr submit synthetic`).
struct TaskJob {
  double arrival = 0;
  int maps = 1;
  double map_seconds = 0;  // slot-seconds per map task on a worker of speed 1
  double map_bytes = 0;    // map output bytes per map task
  int reducers = 1;
  double reduce_seconds = 0;  // per reduce task, once all its job's data has arrived
  // How map durations vary: a factor times map_seconds (map_time.h). The default
  // (kClusterDefault) uses ClusterSpec::map_time_cv.
  MapTimeDist map_time;
  // Replay of a recorded run: when non-empty (size maps, resp. reducers) task i's work
  // is durations[i] seconds on a worker of speed 1, for every attempt of it; map_time and
  // map_seconds / reduce_seconds are then not used for durations (map_seconds still
  // gives the job's fluid size and may be 0).
  std::vector<double> map_durations;
  std::vector<double> reduce_durations;
  // Replay of a recorded run: when non-empty (size maps, resp. reducers), the seconds task
  // i's attempts hold their slot beyond their duration. Live, the master counts a slot busy
  // from the assignment until the worker's report of the end reaches it, which the
  // worker-measured duration leaves out: the assignment's delivery and the end's report,
  // under a millisecond as a rule but hundreds on a loaded host. The size estimates see only
  // the duration, as the master's see the worker-measured one. Under host_cores the
  // overhead is shared like work.
  std::vector<double> map_overheads;
  std::vector<double> reduce_overheads;
  // What the user asked of the job, as `mr submit`'s flags say it (scheduler/job_params.h):
  // pool, weight, speculative, and the size hints (hint_map_seconds and hint_shuffle_bytes
  // both 0: the policy sees no estimate until two maps are done; hint_reduce_seconds 0: no
  // reduce estimate until a reduce is done). The policy sees it as JobView::params.
  sched::JobParams params;
};

// One worker's shape (as `mr worker --map-slots --reduce-slots --unified-slots --speed`).
struct WorkerSpec {
  int map_slots = 1;
  int reduce_slots = 1;
  int unified_slots = 0;         // run a map or a reduce; reduces are not preempted
  double speed = 1.0;            // a task of work w seconds takes w / speed here
  double shuffle_bandwidth = 0;  // egress cap, bytes/s; must be > 0
  // As `mr worker --straggler-*`: each map attempt here runs StragglerDelay(straggler, job
  // id, map index, attempt number) seconds longer (the same pure draw as the worker's).
  // Under host_cores the delay is shared like work (the live hold needs no core): an
  // approximation that overstates it while more attempts run than there are cores.
  StragglerSpec straggler;
  // As `mr worker --label`: what policies see in WorkerView::labels (checked when made:
  // common/worker_labels.h).
  WorkerLabels labels;
};

// Cluster shape and the master's knobs that matter for timing. The homogeneous
// fields describe `workers` equal workers; `speeds` gives them different speeds, and
// a non-empty `worker_specs` replaces all of them with a list of workers.
struct ClusterSpec {
  int workers = 1;
  int map_slots = 1;             // per worker
  int reduce_slots = 1;          // per worker
  int unified_slots = 0;         // per worker
  double shuffle_bandwidth = 0;  // per worker egress cap, bytes/s; must be > 0
  std::vector<double> speeds;    // per worker (size workers); empty = all 1
  std::vector<WorkerSpec> worker_specs;
  double slow_start = 0.05;      // fraction of maps done before reducers are placed
  // Receivers' links (docs/model.md, "Receivers' links"): false = one station per source, each
  // worker's shuffle_bandwidth is its egress and receivers are unlimited (the shares'
  // contract; a loopback cluster under a software cap). true = each worker's link also limits
  // what it receives to its shuffle_bandwidth (the namespace cluster's hosts, shaped both
  // ways): the output at a source is split among the workers holding the job's reducers (equal
  // partitions), the part for the source's own worker is fetched at once (it crosses no link),
  // and the rates of the flows (job, source, receiver) are the weighted max-min fair allocation
  // of every egress and ingress, positive shares first, share 0 on what they leave.
  bool receiver_links = false;
  // Seconds from an event (arrival, map end, a job's shuffle end, reduce end) to
  // the scheduling round that reacts to it: the master only decides when a
  // worker heartbeats. 0 = the finished task's immediate heartbeat. A round reacting to
  // an end sees only the slots freed by ends reported (ended) by then, not those of ends
  // in its latency: live, the master handles one report at a time, so each reported end
  // gets a round of its own, in report order (docs/model.md, "A round per report").
  double decision_latency = 0;
  // Seconds from a job's arrival to the round that offers it to the workers (at least
  // decision_latency): live, a worker with a free slot hears of new work only at its next
  // periodic heartbeat (`mr master --heartbeat-ms`, 20 ms; only a task's end makes a worker
  // heartbeat at once, worker/master_link.h), so jobs arriving within that wait are offered
  // together and a sharing policy (fair) splits the idle slots among them. A round due
  // earlier (an end's) still sees the new job. 0 = the arrival's round comes
  // decision_latency after it (docs/model.md, "An arrival waits for a heartbeat").
  double arrival_latency = 0;
  // Map durations vary on a real cluster (3 maps time-sharing 2 cores, say), and a
  // worker whose maps happen to run faster takes more of a job's maps, so more of
  // its output: the job's busiest shuffle link carries more than an even share.
  // With map_time_cv > 0 each map's duration is its job's map_seconds times a
  // log-normal factor with mean 1 and this coefficient of variation, drawn from
  // `seed` (deterministic). 0 = every map exactly map_seconds.
  double map_time_cv = 0;
  uint64_t seed = 1;
  // Each attempt fails with this probability (drawn from a stream of its own, seeded
  // from `seed`) after running failure_point of its duration; the task is pending
  // again (a reduce: ready again on its worker). A task's max_attempts-th failure
  // fails its job, as in the master.
  double failure_prob = 0;
  double failure_point = 0.5;
  int max_attempts = 4;
  // Heartbeat-scope policies are offered a round only by a worker that could take a
  // pending task (as the master does). With idle_rounds, also by a worker with a free
  // slot while some attempt runs without a backup, so a speculating policy can place one.
  bool idle_rounds = false;
  // Processor sharing of one host's cores (the local cluster: every worker a process on
  // one machine, every synthetic task burning CPU). 0 = every slot has a core of its own
  // (a real cluster). With host_cores = C > 0, while n attempts run anywhere in the
  // cluster each progresses at its worker's speed times min(1, C / n), so a task alone
  // gets a whole core and three tasks on two cores get two thirds of one each.
  int host_cores = 0;
  // The shuffle's CPU on that host (with host_cores > 0): core-seconds per byte moved
  // (writing map output, serving, fetching and merging it). While the links carry R bytes/s
  // in total, the attempts share host_cores - shuffle_cpu_per_byte x R cores (at least a
  // tenth of host_cores). 0 = the shuffle costs no CPU.
  double shuffle_cpu_per_byte = 0;
  // No scheduling round before this time (seconds on the simulator's clock; rounds due
  // earlier are held until then). A replay sets it to the run's first assignment: live, the
  // first round waits for a worker's heartbeat and sees the jobs submitted by then, and a
  // batch's first decision depends on which those are (docs/model.md).
  double first_round = 0;
  // The master's periodic round (master/job_tracker.h, kShareRefreshSeconds: 0.1 s): live, a
  // heartbeat runs the policy when a task could be placed or when no round has run for this
  // long, so a policy whose decisions depend on the clock (flex's epochs, asrpt's rounds)
  // re-plans within this long of its boundary even while every slot is busy. With
  // refresh_rounds = P > 0 the simulator runs a round whenever P seconds pass without one
  // while a job is active (after first_round). 0 = rounds only at events (arrivals, task
  // ends, shuffle ends): a clock-driven policy then re-plans at the first event after its
  // boundary.
  double refresh_rounds = 0;
  // The rounds the live master ran, as a replay reads them from the run's traces (seconds on
  // the simulator's clock, ascending; experiment/trace_replay.h, RecordedRun::replans). When
  // non-empty they replace refresh_rounds' grid: a round runs at each of these times while a
  // job is active, and an event's round runs only where some worker could take a task. Live,
  // the periodic round comes at the first heartbeat 0.1 s after the previous round, so its
  // phase drifts by milliseconds per period; a clock-driven policy (flex's epochs) re-plans
  // at the first round after its boundary, and when the boundary falls among task ends which
  // side of them the re-plan lands on decides the plan. A grid of exactly refresh_rounds
  // cannot reproduce that phase; the recorded rounds can. Empty: refresh_rounds applies.
  std::vector<double> round_times;
  // Seconds from a job's reducer placement (at slow start) to the earliest moment its
  // reducers can be ready to run. Live, the round that places reducers cannot start them:
  // the placement reaches the worker with its next heartbeat, the worker fetches (even an
  // empty partition) and reports READY in a later one, so slots that free meanwhile go to
  // other tasks. 0 = ready as soon as the job's data has moved (at placement when there is
  // none to move).
  double reduce_ready_delay = 0;
  // The policy's first call, with no job yet, at this time (seconds on the simulator's
  // clock; negative = before the first arrival's clock zero). Live, the master runs the
  // policy from its start, jobs or not (the periodic round), so a policy whose rounds are
  // clocked (asrpt's asrpt-round) counts them from the master's start, not from the first
  // assignment. A replay sets it to the phase the run's decisions show. Unset: the first call
  // is the first round. Must not be after the first job's arrival.
  std::optional<double> policy_start = std::nullopt;
  // Record every attempt's start and end in TaskSimResult::schedule (`mr model predict
  // --schedule-out`). Off: the schedule stays empty; nothing else changes.
  bool record_schedule = false;
};

// The failure draws come from Rng(seed ^ kFailureSeedSalt), one Uniform() per attempt in
// the order attempts start (an attempt fails when it is < failure_prob), so that turning
// failures on does not change the map durations drawn from Rng(seed).
inline constexpr uint64_t kFailureSeedSalt = 0x9e3779b97f4a7c15ULL;

// The workers `cluster` describes (worker_specs, or the homogeneous fields and speeds).
std::vector<WorkerSpec> ResolveWorkers(const ClusterSpec& cluster);
// Sum over workers of (map + unified slots) x speed: the map station's capacity in
// slot-seconds per second (sched::Capacity::map_slot_speed).
double MapCapacity(const ClusterSpec& cluster);
// Sum of the workers' egress caps, bytes/s.
double ShuffleCapacity(const ClusterSpec& cluster);

// One line of the simulator's schedule (ClusterSpec::record_schedule): an attempt started
// (kStart, at its assignment) or stopped (kEnd: its status says how), as a trace's
// attempt_start / attempt_end say it of a live run.
struct TaskSimScheduleEvent {
  enum class Kind { kStart, kEnd };
  enum class Status { kRunning, kOk, kFailed, kKilled };  // kRunning on a kStart line
  Kind kind = Kind::kStart;
  double t = 0;
  size_t job = 0;  // input index (the jobs' order given to SimulateTasks)
  sched::TaskKind task_kind = sched::TaskKind::kMap;
  int task = 0;
  uint32_t attempt = 1;  // within its task, from 1
  int worker = 1;        // from 1, in ResolveWorkers' order
  sched::SlotKind slot = sched::SlotKind::kMap;
  bool backup = false;
  double start = 0;  // the attempt's start (equal to t on a kStart line)
  Status status = Status::kRunning;
};

struct TaskSimResult {
  std::vector<double> completion;  // per job, in input order
  std::vector<double> response;    // completion - arrival
  // Sojourn time (the straggling-mappers paper's): from arrival until the job's last map
  // finished, i.e. every map output is available to the reducers (as the master's).
  std::vector<double> sojourn;
  double mean_response = 0;
  double mean_sojourn = 0;
  double makespan = 0;
  int64_t events = 0;          // steps of the event loop
  int64_t schedule_calls = 0;  // Scheduler::Schedule() rounds
  int64_t assignments = 0;
  double max_share_sum = 0;  // largest sum of shuffle shares of any decision
  double max_link_load = 0;  // largest (sum of a worker's send rates) / its cap
  std::vector<bool> failed;  // per job: a task failed max_attempts times (completion = then)
  int64_t failed_attempts = 0;
  int64_t backups = 0;       // backup attempts started
  int64_t kills = 0;         // attempts killed: by a Kill, or the loser of a backup race
  // Seconds, summed over reduces, that a ready reduce waited for a slot, split by where the
  // slots were (bench/asrpt/reduce_waits.py reads the same three from a live run's traces):
  // bound: its own worker had no reduce-capable slot free while another worker had one (the
  // cost of binding reducers to workers); full: no worker had one; own_free: its own worker
  // had one and the policy left the reduce waiting (another job's turn, or its allocation).
  double reduce_bound_wait = 0;
  double reduce_full_wait = 0;
  double reduce_own_free_wait = 0;
  // Per worker (in ResolveWorkers' order), its successful map attempts: the straggling-mappers
  // paper's per-node statistics (its simulated Figs. 5, 7, 9, 12). Over a span S, the node's
  // throughput is maps / S, its utilisation busy_seconds / (S x its map slots), its mean
  // response response_seconds / maps (a map's end minus its job's arrival: under a queued
  // placement the map joins the worker's queue at the arrival), and by Little's law its
  // mean number of maps present response_seconds / S. Failed and killed attempts are not
  // counted.
  struct WorkerMaps {
    int64_t maps = 0;
    double busy_seconds = 0;
    double response_seconds = 0;
  };
  std::vector<WorkerMaps> worker_maps;
  // With ClusterSpec::record_schedule: every attempt's start and end, in the order the
  // simulator applied them (time order).
  std::vector<TaskSimScheduleEvent> schedule;
};

// Runs `jobs` (any arrival order) on `cluster` under `scheduler` until every job
// has finished (or failed). InvalidArgument for a bad job or cluster; Internal when
// the policy returns an invalid decision (a busy slot, a task not pending, a map
// queued at another worker, a backup of a task not running or already backed up, a
// kill of an attempt not running, a share outside [0, 1] or summing above 1, an
// unknown job) or leaves work idle with nothing left that could wake it. The scheduler should be fresh (policies may
// keep memory between calls). With a speculator, every round of a worker is followed by the
// speculator's on the slots the policy left free (as the master does), and a worker with a
// free slot while some map runs without a backup is offered rounds; its backups are checked
// like the policy's.
Result<TaskSimResult> SimulateTasks(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                                    sched::Scheduler& scheduler,
                                    const sched::Speculator* speculator = nullptr);

}  // namespace mr::model
