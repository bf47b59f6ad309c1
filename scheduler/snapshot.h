// The plain view of the cluster a Scheduler decides on, and the decisions it
// returns. No networking, no master internals: the live master, the task-level
// simulator in model/ and unit tests all build these structs and drive the same
// policy objects. Sizes follow docs/policies.md ("Size units"): x = map work in slot-seconds,
// y = shuffle work in seconds at full cluster shuffle capacity.
#pragma once

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/worker_labels.h"
#include "scheduler/job_params.h"

namespace mr::sched {

using JobId = uint64_t;
using WorkerId = uint32_t;

enum class TaskKind { kMap, kReduce };
enum class SlotKind { kMap, kReduce, kUnified };
// "map", "reduce", "unified": as traces and status name a slot kind.
inline const char* SlotKindName(SlotKind k) {
  return k == SlotKind::kMap ? "map" : k == SlotKind::kReduce ? "reduce" : "unified";
}

struct WorkerView {
  WorkerId id = 0;
  int map_slots = 0;
  int reduce_slots = 0;
  int unified_slots = 0;   // a unified slot runs either a map or a reduce task
  // Free slots: of the heartbeating worker only, or of every worker when the policy's
  // scope() is kCluster.
  int free_map = 0;
  int free_reduce = 0;
  int free_unified = 0;
  double speed = 1.0;      // declared (--speed)
  double shuffle_bandwidth = 0;  // bytes/s egress cap; 0 = unlimited
  // Measured on this worker (for placement): map tasks it finished per second of map-slot
  // time, i.e. 1 / the mean duration of its last finished map attempts (MapRateMeter in
  // scheduler/map_rate.h; 0 = none finished yet).
  double map_task_rate = 0;
  // The same for reduce tasks (its last finished reduce attempts; 0 = none finished yet):
  // the speculator's estimate of a fresh reduce attempt here.
  double reduce_task_rate = 0;
  int queued_maps = 0;     // maps queued at this worker (Decision::queue), all jobs
  // The address it registered with (`mr worker --host`): the host a split's bytes are local
  // to when the split names it (MapLocality). "" in simulators, where every map is alike.
  std::string host;
  // Its labels (mr worker --label, an experiment's worker group, WorkerSpec::labels): sorted
  // by key, shared on copy (common/worker_labels.h).
  WorkerLabels labels;
};

// Where a job's size estimate came from (shown in status and trace).
enum class EstimateSource { kNone, kHint, kProfile, kOnline };
const char* EstimateSourceName(EstimateSource s);

struct SizeEstimate {
  EstimateSource source = EstimateSource::kNone;
  double map_seconds_total = 0;      // x_i in slot-seconds (all maps)
  double map_seconds_remaining = 0;  // x_i(t)
  double shuffle_bytes_total = 0;    // intermediate bytes of the job
  double shuffle_bytes_remaining = 0;
  // Reduce work in slot-seconds (all reduces / the reduces not done), for policies that
  // place map and reduce tasks on one pool of unified slots (ASRPT). Filled from the
  // --hint-reduce-seconds hint, a stored profile, or online from finished reduces; 0 when
  // none of those is known yet (reduce_source says which).
  EstimateSource reduce_source = EstimateSource::kNone;
  double reduce_seconds_total = 0;
  double reduce_seconds_remaining = 0;
};

// A reduce task whose partition data is all local on `worker`: it can take a
// reduce (or unified) slot there.
struct ReadyReduce {
  int index = 0;
  WorkerId worker = 0;
};

// A running attempt of a task (for speculation). A task may have two: its first
// attempt and a backup.
struct RunningAttempt {
  TaskKind kind = TaskKind::kMap;
  int index = 0;
  uint32_t attempt = 0;
  WorkerId worker = 0;
  SlotKind slot = SlotKind::kMap;
  double start_time = 0;  // on the snapshot's clock
  double progress = 0;    // [0, 1] as last reported by the worker (0 = none yet)
  bool backup = false;    // started by a backup Assignment
};

// A pending map queued at one worker's queue (Decision::queue): only that worker may run it.
struct QueuedMap {
  int index = 0;
  WorkerId worker = 0;
};

// Where a job's map inputs live (Hadoop's split locations; docs/multi-host.md, "Locality"):
// a split names the host that holds its bytes, the data server's, or none when the path is
// shared (every host reads it alike). Built once per job and shared by every snapshot.
struct MapLocality {
  std::vector<std::string> hosts;  // distinct addresses, as WorkerView::host names them
  std::vector<int> host_of_map;    // per map index: its position in `hosts`; -1 = every host
};

struct JobView {
  JobId id = 0;
  std::string name;
  double submit_time = 0;  // arrival r_i
  // What the user asked of the job: pool, weight, size hints, speculation (mr submit flags;
  // scheduler/job_params.h). Policies that do not use a field ignore it.
  JobParams params;
  int maps_total = 0;
  int maps_running = 0;
  int maps_done = 0;
  // Map indices waiting for a slot and queued at no worker: any worker may run them.
  std::vector<int> pending_maps;
  // Where its maps' splits live; null = every map is as near to every worker. The shared
  // map-picking helpers (SlotFiller, TaskPlacer, through scheduler/util/map_locality.h)
  // place a map on a worker of its split's host first when one has a free slot.
  std::shared_ptr<const MapLocality> locality;
  std::vector<QueuedMap> queued_maps;       // waiting in one worker's queue
  std::vector<RunningAttempt> running;      // every running map and reduce attempt
  int reduces_total = 0;
  int reduces_fetching = 0;                 // placed, still fetching (no slot held)
  int reduces_running = 0;                  // holding a reduce slot
  int reduces_done = 0;
  std::vector<ReadyReduce> ready_reduces;   // waiting for a reduce slot
  // Reduce indices whose backup (speculation) is still fetching its partition on another
  // worker: it holds a slot there and counts against SpeculativeCap, but is not running yet.
  std::vector<int> reduce_backups_fetching;
  double shuffle_bytes_available = 0;       // produced by finished maps, not yet fetched
  SizeEstimate estimate;
};

struct Snapshot {
  double now = 0;                        // from the injected Clock
  WorkerId heartbeating = 0;             // whose heartbeat triggered the round; 0 = none
  std::vector<WorkerView> workers;
  std::vector<JobView> jobs;             // unfinished jobs, in arrival order
  double shuffle_capacity = 0;           // sum of worker caps (bytes/s); 0 = unlimited
  // Whether the driver runs reduce backups (the live master does; the task-level simulator
  // does not model a backup's second fetch of its partition, so the speculator offers it none).
  bool reduce_backups = true;
};

// Start a task on a free slot of `worker`. The task is a pending map, a map queued at
// `worker`, a ready reduce on `worker`, or (backup = true) a task that is running now and has
// no backup yet: a second attempt starts, the first to succeed counts and the other is
// killed (speculative execution: scheduler/speculator.h places them after the policy's
// decision). A backup is on another worker than the attempt it backs up. A reduce backup is
// of a running reduce: it takes the slot at once, fetches its partition again on its worker
// and runs when it holds every run. The task-level simulator refuses reduce backups.
struct Assignment {
  JobId job = 0;
  TaskKind kind = TaskKind::kMap;
  int index = 0;
  WorkerId worker = 0;
  SlotKind slot = SlotKind::kMap;
  bool backup = false;
};

// Kill one running attempt; its slot frees. The task runs on in its other attempt if it has
// one, and otherwise becomes pending again (a kill is not a failure: it is not counted
// against max attempts).
struct Kill {
  JobId job = 0;
  TaskKind kind = TaskKind::kMap;
  int index = 0;
  uint32_t attempt = 0;
  std::string reason;  // for the trace
};

// Put a pending (or queued) map into `worker`'s queue: dispatch at arrival, the
// straggling-mappers paper's model of a mapper node. A lost or blacklisted worker's queue
// returns to pending.
struct QueueMap {
  JobId job = 0;
  int index = 0;
  WorkerId worker = 0;
};

// Per-job values of a Decision, ordered by job id. A sorted vector, not a node
// per job: a fair decision fills it for every job with shuffle data (hundreds),
// and building and freeing a std::map of that size cost a fifth of the
// decision. Same interface as std::map for find, operator[], insert_or_assign
// and ordered iteration; inserting in increasing id order is O(1) each.
using ShareMap = boost::container::flat_map<JobId, double>;

// What an allocating policy (flex) decided for one job and one pool of slots when it
// recomputed its allocations: the master writes it to the job's trace (event "allocation")
// and keeps the last one per pool for `mr status` and the job page; the simulators may
// ignore it. Empty between epochs and for the other policies.
struct JobAllocation {
  JobId job = 0;
  SlotKind slot = SlotKind::kMap;  // the pool: map, reduce or unified slots
  int slots = 0;                   // the job's allocation until the next epoch
  int min_slots = 0;               // its minimum (normalised) and maximum in this pool
  int max_slots = 0;
  int rank = 0;                    // its place in the winning order (0 = first)
  std::string order;               // the winning order's name ("generic-rap", ...)
  std::string metric;              // the metric the job is scheduled for
  double predicted = 0;            // the pool's predicted objective under that order
  double completion = 0;           // the job's predicted completion of this phase (snapshot clock)
};

struct Decision {
  std::vector<Assignment> assignments;
  // Fraction of every worker's shuffle capacity each job is served at. Jobs
  // absent from the map get none while others with a share have data to send;
  // capacity nobody can use is lent to the rest (work conservation happens in
  // the shuffle server). Values in [0, 1], summing to at most 1.
  ShareMap shuffle_shares;
  // Target map slots per job (may be fractional); recorded in the trace and
  // used by the fluid model. Optional.
  ShareMap map_shares;
  std::vector<Kill> kills;
  std::vector<QueueMap> queue;  // applied before the assignments of the same decision
  std::vector<JobAllocation> allocations;  // see JobAllocation
  std::string note;  // short human-readable reason, for the trace
};

}  // namespace mr::sched
