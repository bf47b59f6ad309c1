// The plain view of the cluster a Scheduler decides on, and the decisions it
// returns. No networking, no master internals: the live master, the task-level
// simulator in model/ and unit tests all build these structs and drive the same
// policy objects. Sizes follow docs/policies.md ("Size units"): x = map work in slot-seconds,
// y = shuffle work in seconds at full cluster shuffle capacity.
#pragma once

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace mr::sched {

using JobId = uint64_t;
using WorkerId = uint32_t;

enum class TaskKind { kMap, kReduce };
enum class SlotKind { kMap, kReduce, kUnified };

struct WorkerView {
  WorkerId id = 0;
  int map_slots = 0;
  int reduce_slots = 0;
  int unified_slots = 0;   // a unified slot runs either a map or a reduce task
  int free_map = 0;
  int free_reduce = 0;
  int free_unified = 0;
  double speed = 1.0;
  double shuffle_bandwidth = 0;  // bytes/s egress cap; 0 = unlimited
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
};

// A reduce task whose partition data is all local on `worker`: it can take a
// reduce (or unified) slot there.
struct ReadyReduce {
  int index = 0;
  WorkerId worker = 0;
};

struct JobView {
  JobId id = 0;
  std::string name;
  std::string pool;        // fair-scheduler pool ("" = default)
  double weight = 1.0;
  double submit_time = 0;  // arrival r_i
  int maps_total = 0;
  int maps_running = 0;
  int maps_done = 0;
  std::vector<int> pending_maps;            // map indices waiting for a slot
  int reduces_total = 0;
  int reduces_fetching = 0;                 // placed, still fetching (no slot held)
  int reduces_running = 0;                  // holding a reduce slot
  int reduces_done = 0;
  std::vector<ReadyReduce> ready_reduces;   // waiting for a reduce slot
  double shuffle_bytes_available = 0;       // produced by finished maps, not yet fetched
  SizeEstimate estimate;
};

struct Snapshot {
  double now = 0;                        // from the injected Clock
  std::vector<WorkerView> workers;
  std::vector<JobView> jobs;             // unfinished jobs, in arrival order
  double shuffle_capacity = 0;           // sum of worker caps (bytes/s); 0 = unlimited
};

struct Assignment {
  JobId job = 0;
  TaskKind kind = TaskKind::kMap;
  int index = 0;
  WorkerId worker = 0;
  SlotKind slot = SlotKind::kMap;
};

// Per-job values of a Decision, ordered by job id. A sorted vector, not a node
// per job: a fair decision fills it for every job with shuffle data (hundreds),
// and building and freeing a std::map of that size cost a fifth of the
// decision. Same interface as std::map for find, operator[], insert_or_assign
// and ordered iteration; inserting in increasing id order is O(1) each.
using ShareMap = boost::container::flat_map<JobId, double>;

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
  std::string note;  // short human-readable reason, for the trace
};

}  // namespace mr::sched
