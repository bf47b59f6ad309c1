// The events of a job's trace (docs/trace-format.md): one struct per event type, the
// event names spelled once (EventType and its name table), and Event, the variant a
// trace is read into and written from (trace/writer.h, trace/reader.h).
//
// Every event has `t` (seconds since the Unix epoch, the master's clock) and `job`
// ("job-000007"). Every other field is optional: the writer writes a field if and only
// if it has a value, and the reader gives a field a value if and only if the line has it
// with the right JSON type (a trace from an older master, or a hand-made one, may lack
// any field; consumers choose a default or refuse, as before the module existed). So a
// struct says which fields an event may carry, and the master sets exactly the ones it
// traces. Numbers keep their JSON kind: integer fields are written as integers, the
// others as floating point (2.0, not 2), so the bytes are the ones the master always
// wrote. Plain data; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mr::trace {

using Counters = std::map<std::string, int64_t>;  // counter name -> value

// The order of the alternatives of Event (kUnknown first).
enum class EventType {
  kUnknown,
  kJobSubmit,
  kJobStart,
  kEstimate,
  kDecision,
  kShare,
  kAttemptStart,
  kAttemptEnd,
  kReducePlace,
  kReduceBackupDropped,
  kFetchStart,
  kFetchEnd,
  kReduceFetchFailed,
  kServed,
  kCommit,
  kReexecute,
  kWorkerLost,
  kBlacklist,
  kMasterRestart,
  kMapRecovered,
  kMapsDone,
  kJobEnd,
  kAllocation,
};

// An event whose name this build does not know: read and skipped by every consumer.
struct Unknown {
  double t = 0;
  std::string job{};
  std::string name{};  // its "event"
};

// The master accepted the job.
struct JobSubmit {
  double t = 0;
  std::string job{};
  std::optional<std::string> name{}, kind{};  // kind: wordcount, sort, ...
  std::optional<int64_t> maps{}, reduces{};
  std::optional<std::string> policy{}, output{};
  // The capacity scheduler's queue the job named (mr submit --queue); absent: none, i.e. the
  // queue named "default" under --policy capacity.
  std::optional<std::string> queue{};
};

// The job's first task was assigned.
struct JobStart {
  double t = 0;
  std::string job{};
};

// The size estimate the policies use (at submit and after each map), and the reduce work.
struct Estimate {
  double t = 0;
  std::string job{};
  std::optional<std::string> source{};  // hint, profile, online
  std::optional<double> map_seconds{}, map_seconds_remaining{};
  std::optional<double> shuffle_bytes{}, shuffle_bytes_remaining{};
  std::optional<std::string> reduce_source{};  // as source, or none
  std::optional<double> reduce_seconds{}, reduce_seconds_remaining{};
};

// A scheduling round assigned tasks of this job.
struct Decision {
  double t = 0;
  std::string job{};
  std::optional<int64_t> worker{};
  std::optional<std::string> policy{}, note{};
  std::optional<std::vector<std::string>> tasks{};  // task ids
};

// The policy changed the job's shuffle share (0..1).
struct Share {
  double t = 0;
  std::string job{};
  std::optional<double> share{};
};

// An attempt was assigned to a slot.
struct AttemptStart {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};  // "m-00003", "r-00001"
  std::optional<int64_t> attempt{}, worker{};
  std::optional<std::string> slot{};  // map, reduce, unified
  std::optional<bool> backup{};       // true for a second attempt of a running task
};

// An attempt finished, failed, was killed or lost with its worker.
struct AttemptEnd {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> attempt{}, worker{};
  std::optional<double> start{};  // worker-measured start
  // The master's clock when the worker's report of this end reached it (t and start are the
  // worker's): until then the master counted the slot busy. Absent in older traces.
  std::optional<double> reported{};
  std::optional<uint64_t> bytes_in{}, bytes_out{}, records_in{}, records_out{};
  std::optional<std::string> slot{};
  std::optional<std::string> status{};  // ok, failed, lost, killed
  std::optional<std::string> error{}, stderr_tail{};
  std::optional<Counters> counters{};  // the attempt's other counters
};

// A reducer (or a reduce's backup) was placed on a worker to fetch.
struct ReducePlace {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> worker{}, maps_done{};
  std::optional<bool> backup{};
};

// A reduce backup that had not started running ended.
struct ReduceBackupDropped {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> worker{}, maps_fetched{};
  std::optional<std::string> reason{};
};

// A reducer began fetching one map's partition.
struct FetchStart {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{}, map{};  // the reducer, the map
  std::optional<int64_t> src_worker{};
};

// A fetch completed (ok or failed).
struct FetchEnd {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{}, map{};
  std::optional<int64_t> src_worker{}, worker{};  // worker: the fetching reducer's
  std::optional<double> start{};
  std::optional<uint64_t> bytes{};
  std::optional<std::string> status{}, error{}, cause{};  // cause: local, source_corrupt, unreachable
};

// A fetching reducer failed on its own worker.
struct ReduceFetchFailed {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> worker{}, failures{};
  std::optional<std::string> error{};
};

// A worker's shuffle server sent `bytes` of this job's map output in [start, t].
struct Served {
  double t = 0;
  std::string job{};
  std::optional<int64_t> worker{};
  std::optional<double> start{};
  std::optional<uint64_t> bytes{};
};

// The master renamed a reduce attempt's output into place.
struct Commit {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> attempt{};
  std::optional<std::string> file{};
};

// A finished map's output was lost or bad and the map runs again.
struct Reexecute {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> attempt{};
  std::optional<std::string> reason{};
};

// A worker missed heartbeats for the timeout.
struct WorkerLost {
  double t = 0;
  std::string job{};
  std::optional<int64_t> worker{};
  std::optional<std::string> reason{};
};

// A worker failed this job's tasks too often.
struct Blacklist {
  double t = 0;
  std::string job{};
  std::optional<int64_t> worker{};
  std::optional<bool> in_force{};
};

// A restarted master resumed the job.
struct MasterRestart {
  double t = 0;
  std::string job{};
  std::optional<int64_t> reduces_committed{}, maps_awaiting{};
};

// After a master restart a worker offered a done map's output and the master adopted it.
struct MapRecovered {
  double t = 0;
  std::string job{};
  std::optional<std::string> task{};
  std::optional<int64_t> attempt{}, worker{};
  std::optional<uint64_t> bytes_out{};
};

// The master learned that the job's last map finished.
struct MapsDone {
  double t = 0;
  std::string job{};
  std::optional<double> sojourn{};  // seconds from submit
};

// The job finished.
struct JobEnd {
  double t = 0;
  std::string job{};
  std::optional<std::string> status{}, error{};  // status: ok, failed, killed
  std::optional<double> response_time{}, sojourn{};
  std::optional<Counters> counters{};
};

// An allocating policy (flex) recomputed its allocations: this job's share of one pool of
// slots until the next epoch, why (the winning priority order and the metric), and what it
// predicts (docs/policies.md, "flex").
struct Allocation {
  double t = 0;
  std::string job{};
  std::optional<std::string> policy{}, slot{};  // slot: map, reduce, unified
  std::optional<int64_t> slots{}, min_slots{}, max_slots{}, rank{};
  std::optional<std::string> order{}, metric{};
  std::optional<double> predicted{};   // the pool's predicted objective
  std::optional<double> completion{};  // the job's predicted completion of the phase (epoch seconds)
  // "restart": the first plan a restarted master computed for a resumed job, from the job's
  // stored inputs (its spec) - the old master's plan is not carried over. Absent: the
  // policy's own epoch or a change of the pool's jobs.
  std::optional<std::string> reason{};
};

// Alternatives in EventType order: Event::index() is the EventType.
using Event = std::variant<Unknown, JobSubmit, JobStart, Estimate, Decision, Share, AttemptStart, AttemptEnd,
                           ReducePlace, ReduceBackupDropped, FetchStart, FetchEnd, ReduceFetchFailed, Served, Commit,
                           Reexecute, WorkerLost, Blacklist, MasterRestart, MapRecovered, MapsDone, JobEnd,
                           Allocation>;

inline constexpr int kEventTypes = static_cast<int>(std::variant_size_v<Event>);

// "job_submit" for kJobSubmit...; "" for kUnknown. The one spelling of every name.
std::string_view EventTypeName(EventType type);
// The type named `name`; kUnknown for a name no event has.
EventType EventTypeFromName(std::string_view name);

EventType TypeOf(const Event& e);
// The event's name as traced (an Unknown's own name).
std::string_view NameOf(const Event& e);
double TimeOf(const Event& e);
const std::string& JobOf(const Event& e);
void SetJob(Event& e, std::string job);

}  // namespace mr::trace
