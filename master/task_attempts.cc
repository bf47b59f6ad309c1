#include "master/task_attempts.h"

#include <algorithm>
#include <tuple>

#include "common/job_id.h"
#include "master/job_trace.h"
#include "trace/attempts.h"
#include "trace/reader.h"

namespace mr::master {

namespace {

// An attempt's state as `mr logs` shows it, from its attempt_end's status.
std::string StateOf(const trace::Attempt& a) {
  if (!a.ended) return a.restart ? "LOST" : "RUNNING";
  const std::string status = a.ended->status.value_or("");
  if (status == "ok") return "SUCCEEDED";
  if (status == "failed") return "FAILED";
  if (status == "killed") return "KILLED";
  if (status == "lost") return "LOST";
  return status.empty() ? "ENDED" : status;
}

}  // namespace

Result<AttemptsQuery> MakeAttemptsQuery(const TrackerState& state, uint64_t job_id, const std::string& task) {
  auto it = state.jobs.find(job_id);
  if (it == state.jobs.end()) return Status::NotFound("no job " + JobIdString(job_id));
  AttemptsQuery q{.job_id = job_id,
                  .task = task,
                  .only = std::nullopt,
                  .trace_path = it->second->trace_path,
                  .trace_written = TraceWrittenWait(state, *it->second)};
  if (!task.empty()) {
    q.only = trace::ParseTaskId(task);
    if (!q.only) return Status::InvalidArgument("bad task '" + task + "' (a map is m-00003, a reduce r-00001)");
  }
  return q;
}

Result<proto::TaskAttemptsReply> CollectTaskAttempts(const AttemptsQuery& q) {
  if (q.trace_written) q.trace_written();
  MR_ASSIGN_OR_RETURN(std::vector<trace::Event> events, trace::ReadTraceFile(q.trace_path));
  const std::optional<trace::TaskRef>& only = q.only;
  proto::TaskAttemptsReply reply;
  for (const trace::Attempt& a : trace::CollectAttempts(events)) {
    if (!a.ref || (only && (only->kind != a.ref->kind || only->index != a.ref->index))) continue;
    proto::TaskAttempt* out = reply.add_attempts();
    char name[32];
    std::snprintf(name, sizeof name, "%c-%05d", a.ref->kind, a.ref->index);
    out->set_task(name);
    out->set_kind(a.ref->kind == 'm' ? proto::MAP : proto::REDUCE);
    out->set_index(static_cast<uint32_t>(a.ref->index));
    out->set_attempt(static_cast<uint32_t>(a.attempt));
    const int64_t worker = a.ended && a.ended->worker ? *a.ended->worker : a.started ? a.started->worker.value_or(0) : 0;
    out->set_worker(static_cast<uint32_t>(worker));
    out->set_state(StateOf(a));
    out->set_start_time(a.ended && a.ended->start ? *a.ended->start : a.started ? a.started->t : 0);
    out->set_end_time(a.ended ? a.ended->t : 0);
    if (reply.attempts_size() >= kMaxTaskAttempts) break;
  }
  if (only && reply.attempts_size() == 0) {
    return Status::NotFound("no attempt of " + q.task + " in " + JobIdString(q.job_id) + " yet");
  }
  auto* list = reply.mutable_attempts();
  std::sort(list->begin(), list->end(), [](const proto::TaskAttempt& a, const proto::TaskAttempt& b) {
    return std::make_tuple(a.kind(), a.index(), a.attempt()) < std::make_tuple(b.kind(), b.index(), b.attempt());
  });
  return reply;
}

void NameAttemptWorkers(const TrackerState& state, proto::TaskAttemptsReply& reply) {
  for (proto::TaskAttempt& out : *reply.mutable_attempts()) {
    if (auto w = state.workers.find(static_cast<WorkerId>(out.worker())); w != state.workers.end()) {
      out.set_worker_name(WorkerName(w->second.labels, w->second.info.host()));
      out.set_host(w->second.info.host());
      out.set_port(w->second.info.shuffle_port());
    }
  }
}

}  // namespace mr::master
