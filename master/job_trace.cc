#include "master/job_trace.h"

#include "common/log.h"

namespace mr::master {

using sched::TaskKind;

void Trace(JobRecord& job, trace::Event event) {
  trace::SetJob(event, JobIdString(job.id));
  job.trace->Append(std::move(event));
}

void FlushTraces(TrackerState& state) {
  for (auto& [id, job] : state.jobs) {
    Status s = job->trace->Flush();
    if (!s.ok()) MR_LOG_WARN("trace {}: {}", JobIdString(id), s.ToString());
  }
}

std::function<void()> TraceWrittenWait(const TrackerState& state, const JobRecord& job) {
  std::shared_ptr<TraceQueue> queue = state.options.trace_queue;
  if (!queue) return [] {};
  return [queue, ticket = job.trace->ticket()] { queue->WaitWritten(ticket); };
}

void TraceEstimate(JobRecord& job, double now) {
  sched::SizeEstimate e = job.Estimate(now);
  if (e.source == sched::EstimateSource::kNone) return;
  Trace(job, trace::Estimate{.t = now,
                             .source = sched::EstimateSourceName(e.source),
                             .map_seconds = e.map_seconds_total,
                             .map_seconds_remaining = e.map_seconds_remaining,
                             .shuffle_bytes = e.shuffle_bytes_total,
                             .shuffle_bytes_remaining = e.shuffle_bytes_remaining,
                             .reduce_source = sched::EstimateSourceName(e.reduce_source),
                             .reduce_seconds = e.reduce_seconds_total,
                             .reduce_seconds_remaining = e.reduce_seconds_remaining});
  job.traced_source = e.source;
}

const char* FetchCauseName(proto::FetchCause c) {
  switch (c) {
    case proto::FETCH_SOURCE_CORRUPT: return "source_corrupt";
    case proto::FETCH_LOCAL: return "local";
    case proto::FETCH_UNREACHABLE: return "unreachable";
    default: return "unspecified";
  }
}

trace::AttemptEnd AttemptEndEvent(const proto::TaskReport& r, WorkerId worker, const char* slot, double reported) {
  TaskKind kind = r.kind() == proto::MAP ? TaskKind::kMap : TaskKind::kReduce;
  trace::AttemptEnd ev{.t = r.end_time(),
                       .task = TaskIdString(kind, static_cast<int>(r.index())),
                       .attempt = r.attempt(),
                       .worker = worker,
                       .start = r.start_time(),
                       .reported = reported,
                       .bytes_in = r.bytes_in(),
                       .bytes_out = r.bytes_out(),
                       .records_in = r.records_in(),
                       .records_out = r.records_out(),
                       .slot = slot};
  const std::string phase = kind == TaskKind::kMap ? "map." : "reduce.";
  trace::Counters counters;
  for (const auto& c : r.counters()) {
    const std::string& n = c.name();
    if (n.rfind(phase, 0) == 0 && (n.ends_with(".records_in") || n.ends_with(".records_out") ||
                                   n.ends_with(".bytes_in") || n.ends_with(".bytes_out"))) {
      continue;
    }
    counters[n] = c.value();
  }
  if (!counters.empty()) ev.counters = std::move(counters);
  return ev;
}

}  // namespace mr::master
