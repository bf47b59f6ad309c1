// The JSON field names of every event type, next to the member they fill: the one list
// the writer and the reader both walk (trace/writer.cc, trace/reader.cc), so a field
// cannot be written under one name and read under another. Internal to trace/.
// Fields(e, visit) calls visit(name, member) for each event-specific member of e, e
// const (writing) or not (reading). `event`, `t` and `job` are the callers'.
#pragma once

#include <type_traits>

#include "trace/event.h"

namespace mr::trace::internal {

template <class S, class T>
concept Is = std::is_same_v<std::remove_const_t<S>, T>;

template <Is<Unknown> S, class V> void Fields(S&, V&) {}
template <Is<JobStart> S, class V> void Fields(S&, V&) {}

template <Is<JobSubmit> S, class V> void Fields(S& e, V& v) {
  v("name", e.name); v("kind", e.kind); v("maps", e.maps); v("reduces", e.reduces);
  v("policy", e.policy); v("output", e.output); v("queue", e.queue);
}

template <Is<Estimate> S, class V> void Fields(S& e, V& v) {
  v("source", e.source); v("map_seconds", e.map_seconds); v("map_seconds_remaining", e.map_seconds_remaining);
  v("shuffle_bytes", e.shuffle_bytes); v("shuffle_bytes_remaining", e.shuffle_bytes_remaining);
  v("reduce_source", e.reduce_source); v("reduce_seconds", e.reduce_seconds);
  v("reduce_seconds_remaining", e.reduce_seconds_remaining);
}

template <Is<Decision> S, class V> void Fields(S& e, V& v) {
  v("worker", e.worker); v("policy", e.policy); v("note", e.note); v("tasks", e.tasks);
}

template <Is<Share> S, class V> void Fields(S& e, V& v) { v("share", e.share); }

template <Is<AttemptStart> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("attempt", e.attempt); v("worker", e.worker); v("slot", e.slot); v("backup", e.backup);
}

template <Is<AttemptEnd> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("attempt", e.attempt); v("worker", e.worker); v("start", e.start);
  v("reported", e.reported); v("bytes_in", e.bytes_in); v("bytes_out", e.bytes_out); v("records_in", e.records_in);
  v("records_out", e.records_out); v("slot", e.slot); v("status", e.status); v("error", e.error);
  v("stderr_tail", e.stderr_tail); v("counters", e.counters);
}

template <Is<ReducePlace> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("worker", e.worker); v("maps_done", e.maps_done); v("backup", e.backup);
}

template <Is<ReduceBackupDropped> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("worker", e.worker); v("maps_fetched", e.maps_fetched); v("reason", e.reason);
}

template <Is<FetchStart> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("map", e.map); v("src_worker", e.src_worker);
}

template <Is<FetchEnd> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("map", e.map); v("src_worker", e.src_worker); v("worker", e.worker);
  v("start", e.start); v("bytes", e.bytes); v("status", e.status); v("error", e.error); v("cause", e.cause);
}

template <Is<ReduceFetchFailed> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("worker", e.worker); v("failures", e.failures); v("error", e.error);
}

template <Is<Served> S, class V> void Fields(S& e, V& v) {
  v("worker", e.worker); v("start", e.start); v("bytes", e.bytes);
}

template <Is<Commit> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("attempt", e.attempt); v("file", e.file);
}

template <Is<Reexecute> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("attempt", e.attempt); v("reason", e.reason);
}

template <Is<WorkerLost> S, class V> void Fields(S& e, V& v) { v("worker", e.worker); v("reason", e.reason); }

template <Is<Blacklist> S, class V> void Fields(S& e, V& v) { v("worker", e.worker); v("in_force", e.in_force); }

template <Is<MasterRestart> S, class V> void Fields(S& e, V& v) {
  v("reduces_committed", e.reduces_committed); v("maps_awaiting", e.maps_awaiting);
}

template <Is<MapRecovered> S, class V> void Fields(S& e, V& v) {
  v("task", e.task); v("attempt", e.attempt); v("worker", e.worker); v("bytes_out", e.bytes_out);
}

template <Is<MapsDone> S, class V> void Fields(S& e, V& v) { v("sojourn", e.sojourn); }

template <Is<JobEnd> S, class V> void Fields(S& e, V& v) {
  v("status", e.status); v("error", e.error); v("response_time", e.response_time); v("sojourn", e.sojourn);
  v("counters", e.counters);
}

template <Is<Allocation> S, class V> void Fields(S& e, V& v) {
  v("policy", e.policy); v("slot", e.slot); v("slots", e.slots); v("min_slots", e.min_slots);
  v("max_slots", e.max_slots); v("rank", e.rank); v("order", e.order); v("metric", e.metric);
  v("predicted", e.predicted); v("completion", e.completion); v("reason", e.reason);
}

}  // namespace mr::trace::internal
