#include "trace/event.h"

#include <array>
#include <type_traits>

namespace mr::trace {
namespace {

// The one spelling of every event name, in EventType order.
constexpr std::array<std::string_view, kEventTypes> kNames = {
    "",                       // kUnknown
    "job_submit",             // kJobSubmit
    "job_start",              // kJobStart
    "estimate",               // kEstimate
    "decision",               // kDecision
    "share",                  // kShare
    "attempt_start",          // kAttemptStart
    "attempt_end",            // kAttemptEnd
    "reduce_place",           // kReducePlace
    "reduce_backup_dropped",  // kReduceBackupDropped
    "fetch_start",            // kFetchStart
    "fetch_end",              // kFetchEnd
    "reduce_fetch_failed",    // kReduceFetchFailed
    "served",                 // kServed
    "commit",                 // kCommit
    "reexecute",              // kReexecute
    "worker_lost",            // kWorkerLost
    "blacklist",              // kBlacklist
    "master_restart",         // kMasterRestart
    "map_recovered",          // kMapRecovered
    "maps_done",              // kMapsDone
    "job_end",                // kJobEnd
    "allocation",             // kAllocation
};

template <EventType type, class T>
constexpr bool At = std::is_same_v<std::variant_alternative_t<static_cast<size_t>(type), Event>, T>;
static_assert(At<EventType::kUnknown, Unknown> && At<EventType::kJobSubmit, JobSubmit> &&
              At<EventType::kJobStart, JobStart> && At<EventType::kEstimate, Estimate> &&
              At<EventType::kDecision, Decision> && At<EventType::kShare, Share> &&
              At<EventType::kAttemptStart, AttemptStart> && At<EventType::kAttemptEnd, AttemptEnd> &&
              At<EventType::kReducePlace, ReducePlace> && At<EventType::kReduceBackupDropped, ReduceBackupDropped> &&
              At<EventType::kFetchStart, FetchStart> && At<EventType::kFetchEnd, FetchEnd> &&
              At<EventType::kReduceFetchFailed, ReduceFetchFailed> && At<EventType::kServed, Served> &&
              At<EventType::kCommit, Commit> && At<EventType::kReexecute, Reexecute> &&
              At<EventType::kWorkerLost, WorkerLost> && At<EventType::kBlacklist, Blacklist> &&
              At<EventType::kMasterRestart, MasterRestart> && At<EventType::kMapRecovered, MapRecovered> &&
              At<EventType::kMapsDone, MapsDone> && At<EventType::kJobEnd, JobEnd> &&
              At<EventType::kAllocation, Allocation>,
              "Event's alternatives must follow EventType");

}  // namespace

std::string_view EventTypeName(EventType type) { return kNames[static_cast<size_t>(type)]; }

EventType EventTypeFromName(std::string_view name) {
  for (size_t i = 1; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<EventType>(i);
  }
  return EventType::kUnknown;
}

EventType TypeOf(const Event& e) { return static_cast<EventType>(e.index()); }

std::string_view NameOf(const Event& e) {
  if (const auto* u = std::get_if<Unknown>(&e)) return u->name;
  return EventTypeName(TypeOf(e));
}

double TimeOf(const Event& e) {
  return std::visit([](const auto& ev) { return ev.t; }, e);
}

const std::string& JobOf(const Event& e) {
  return std::visit([](const auto& ev) -> const std::string& { return ev.job; }, e);
}

void SetJob(Event& e, std::string job) {
  std::visit([&](auto& ev) { ev.job = std::move(job); }, e);
}

}  // namespace mr::trace
