#include "worker/attempt_runner.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include "common/file_util.h"
#include "common/job_id.h"
#include "common/log.h"
#include "common/units.h"
#include "common/utf8.h"
#include "jobs/job.h"
#include "shuffle/task_log.h"
#include "worker/task/attempt_log.h"
#include "worker/task/map_task.h"
#include "worker/task/reduce_task.h"
#include "worker/task_output.h"

namespace mr::worker {

namespace {

using Body = std::function<Status(const jobs::Job&, proto::TaskReport*)>;

void FillCounters(const TaskCounters& c, proto::TaskReport* r) {
  r->set_records_in(c.records_in);
  r->set_bytes_in(c.bytes_in);
  r->set_records_out(c.records_out);
  r->set_bytes_out(c.bytes_out);
  auto add = [r](const std::string& name, int64_t v) {
    auto* x = r->add_counters();
    x->set_name(name);
    x->set_value(v);
  };
  const char* phase = r->kind() == proto::MAP ? "map" : "reduce";
  add(std::string(phase) + ".records_in", static_cast<int64_t>(c.records_in));
  add(std::string(phase) + ".records_out", static_cast<int64_t>(c.records_out));
  add(std::string(phase) + ".bytes_in", static_cast<int64_t>(c.bytes_in));
  add(std::string(phase) + ".bytes_out", static_cast<int64_t>(c.bytes_out));
  if (r->kind() == proto::MAP) {
    add("map.spills", static_cast<int64_t>(c.spills));
    add("combine.records_in", static_cast<int64_t>(c.combine_in));
    add("combine.records_out", static_cast<int64_t>(c.combine_out));
  }
  for (const auto& [k, v] : c.user) add("user." + k, v);
}

// A map that held its slot for a slow or straggling worker says how long, in ms, beside
// its measured work: map.work_ms, map.speed_hold_ms, map.straggler_delay_ms.
void FillHoldCounters(const MapTaskResult& m, proto::TaskReport* r) {
  if (m.speed_hold_seconds <= 0 && m.straggler_delay_seconds <= 0) return;
  auto add = [r](const char* name, double seconds) {
    auto* x = r->add_counters();
    x->set_name(name);
    x->set_value(static_cast<int64_t>(std::llround(seconds * 1000)));
  };
  add("map.work_ms", m.work_seconds);
  add("map.speed_hold_ms", m.speed_hold_seconds);
  add("map.straggler_delay_ms", m.straggler_delay_seconds);
}

// A task's result once its file is where the master commits it from: Publish's error
// replaces a successful result.
template <typename R>
R MaybePublish(const TaskOutput& output, R result) {
  Status s = output.Publish();
  if (!s.ok()) return s;
  return result;
}

// Where the attempt's output file goes (worker/task_output.h): in place, or through the
// job's output server.
Result<TaskOutput> PrepareOutput(const proto::Assignment& a, const AttemptContext& ctx) {
  const jobs::OutputStore* remote = nullptr;
  if (!a.spec().output_server().empty()) {
    if (!ctx.remote_outputs) return Status::FailedPrecondition("this worker cannot write output to a data server");
    MR_ASSIGN_OR_RETURN(remote, ctx.remote_outputs(a.spec().output_server()));
  }
  return TaskOutput::Prepare(a, ctx.work_dir, remote);
}

// The task's status line goes to the RUNNING reports (through the watch) and the final one.
std::function<void(std::string)> StatusSink(AttemptWatch& watch, proto::TaskReport* report) {
  return [&watch, report](std::string status) {
    report->set_task_status(SanitizeUtf8(status));
    watch.SetStatus(std::move(status));
  };
}

Status MapBody(const proto::Assignment& a, const AttemptContext& ctx, AttemptWatch& watch, const jobs::Job& job,
               AttemptLog* log, proto::TaskReport* report) {
  MapTaskSpec spec = MakeMapTaskSpec(a, ctx, job);
  const bool remote = ctx.remote_inputs && ReadsRemotely(a.split().host(), ctx.host);
  if (remote) {
    MR_ASSIGN_OR_RETURN(spec.input_source, ctx.remote_inputs(a.split().host()));
  }
  spec.log = log;
  spec.progress = watch.progress();
  spec.fraction = watch.fraction();
  spec.stderr_tail = report->mutable_stderr_tail();
  spec.status_sink = StatusSink(watch, report);
  // A map-only job's map writes its output file under OUTPUT/_temporary, as a reduce does.
  std::optional<TaskOutput> output;
  if (spec.num_reduces == 0) {
    MR_ASSIGN_OR_RETURN(output, PrepareOutput(a, ctx));
    spec.output_path = output->path();
  }
  auto result = RunMapTask(spec, watch.cancel());
  if (result.ok() && output) result = MaybePublish(*output, std::move(result));
  if (!result.ok()) {
    if (output) output->Discard();
    return result.status();
  }
  for (const auto& p : result->index.partitions) report->add_partition_bytes(p.length);
  FillCounters(result->counters, report);
  FillHoldCounters(*result, report);
  if (!a.split().host().empty()) {  // the local/remote share of a job whose inputs are on a data server
    auto* x = report->add_counters();
    x->set_name(remote ? "map.input_remote_bytes" : "map.input_local_bytes");
    x->set_value(static_cast<int64_t>(a.split().length()));
  }
  return Status::Ok();
}

Status ReduceBody(const proto::Assignment& a, const AttemptContext& ctx, AttemptWatch& watch, const jobs::Job& job,
                  AttemptLog* log, proto::TaskReport* report) {
  ReduceTaskSpec spec;
  spec.log = log;
  spec.job_id = a.job_id();
  spec.reduce_index = a.index();
  spec.job = &job;
  spec.speed = ctx.speed;
  spec.progress = watch.progress();
  spec.fraction = watch.fraction();
  spec.stderr_tail = report->mutable_stderr_tail();
  spec.status_sink = StatusSink(watch, report);
  spec.work_dir = ctx.work_dir;
  spec.identity = IdentityOf(a);
  for (uint32_t m = 0; m < a.num_maps(); ++m) {
    spec.run_files.push_back(shuffle::ReducerRunPath(ctx.work_dir, a.job_id(), a.index(), m));
  }
  MR_ASSIGN_OR_RETURN(spec.run_crcs, ctx.fetches->RunCrcs(a.job_id(), a.index(), a.num_maps()));
  MR_ASSIGN_OR_RETURN(std::vector<shuffle::RunExtent> extents,
                      ctx.fetches->RunExtents(a.job_id(), a.index(), a.num_maps()));
  for (const shuffle::RunExtent& e : extents) spec.run_ranges.push_back(RunRange{e.offset, e.length});
  MR_ASSIGN_OR_RETURN(TaskOutput output, PrepareOutput(a, ctx));
  spec.output_path = output.path();
  auto result = RunReduceTaskWithRefetch(spec, watch.cancel(), [&](uint32_t map, RunRange* range) {
    shuffle::RunExtent e;
    auto crc = ctx.fetches->Refetch(a.job_id(), a.index(), map, &e);
    *range = RunRange{e.offset, e.length};
    return crc;
  });
  if (result.ok()) result = MaybePublish(output, std::move(result));
  if (!result.ok()) {
    output.Discard();
    if (result.status().code() == StatusCode::kUnavailable) {
      report->set_maps_fetched(ctx.fetches->FetchedCount(a.job_id(), a.index()));
    }
    return result.status();
  }
  FillCounters(result->counters, report);
  return Status::Ok();
}

// "map m-00003 attempt 1 of job-000001": how the attempt's log names it.
std::string AttemptTitle(const proto::Assignment& a) {
  char task[32];
  std::snprintf(task, sizeof task, "%c-%05u", a.kind() == proto::MAP ? 'm' : 'r', a.index());
  return std::string(a.kind() == proto::MAP ? "map " : "reduce ") + task + " attempt " + std::to_string(a.attempt()) +
         " of " + JobIdString(a.job_id());
}

// Opens the attempt's log (shuffle/task_log.h), first making room for a job new here: the
// logs of all but the kTaskLogJobsKept - 1 most recent jobs go. Null (with a warning in
// the worker's log) when it cannot be made: the attempt runs without one.
std::unique_ptr<AttemptLog> OpenAttemptLog(const proto::Assignment& a, const AttemptContext& ctx) {
  if (!IsDirectory(shuffle::TaskLogJobDir(ctx.work_dir, a.job_id()))) {
    Status pruned = shuffle::PruneTaskLogs(ctx.work_dir, shuffle::kTaskLogJobsKept - 1);
    if (!pruned.ok()) MR_LOG_WARN("pruning task logs: {}", pruned.ToString());
  }
  auto log = AttemptLog::Open(
      shuffle::TaskLogPath(ctx.work_dir, a.job_id(), a.kind() == proto::MAP, a.index(), a.attempt()));
  if (!log.ok()) {
    MR_LOG_WARN("{}: no task log: {}", AttemptTitle(a), log.status().ToString());
    return nullptr;
  }
  std::string start = AttemptTitle(a) + " starts";
  if (a.kind() == proto::MAP && a.has_split() && !a.split().path().empty()) {
    start += ": split " + a.split().path() + " bytes " + std::to_string(a.split().offset()) + "+" +
             std::to_string(a.split().length());
  } else if (a.kind() == proto::REDUCE) {
    start += ": the runs of " + std::to_string(a.num_maps()) + (a.num_maps() == 1 ? " map" : " maps");
  }
  (*log)->Note(start);
  return std::move(log).value();
}

// The attempt's last line in its log: its end, how long it ran, what it read and wrote or
// why it failed.
void NoteEnd(AttemptLog* log, const proto::TaskReport& r) {
  if (log == nullptr) return;
  if (log->dropped() > 0) {
    log->Note(std::to_string(log->dropped()) + " bytes of the task's stderr were dropped past the log's cap");
  }
  char line[256];
  std::snprintf(line, sizeof line, "attempt %s after %.3f s", proto::TaskState_Name(r.state()).c_str(),
                r.end_time() - r.start_time());
  std::string text = line;
  if (r.state() == proto::SUCCEEDED) {
    text += ": " + std::to_string(r.records_in()) + " records in (" + std::to_string(r.bytes_in()) + " bytes), " +
            std::to_string(r.records_out()) + " records out (" + std::to_string(r.bytes_out()) + " bytes)";
  } else if (!r.error().empty()) {
    text += ": " + r.error();
  }
  log->Note(text);
}

}  // namespace

bool ReadsRemotely(const std::string& split_host, const std::string& worker_host) {
  if (split_host.empty()) return false;
  auto hp = ParseHostPort(split_host);
  return !hp.ok() || hp->host != worker_host;
}

jobs::TaskIdentity IdentityOf(const proto::Assignment& a) {
  jobs::TaskIdentity t;
  t.job_id = a.job_id();
  t.is_map = a.kind() == proto::MAP;
  t.index = a.index();
  t.attempt = a.attempt();
  t.num_maps = a.num_maps();
  t.num_reduces = a.spec().reducers();
  t.job_name = a.spec().name();
  t.output_dir = a.spec().output();
  if (t.is_map && a.has_split()) {
    const proto::InputSplit& s = a.split();
    t.input_path = s.path();
    const bool nominal = s.nominal_length() > 0;
    t.input_start = nominal ? s.nominal_offset() : s.offset();
    t.input_length = nominal ? s.nominal_length() : s.length();
  }
  return t;
}

MapTaskSpec MakeMapTaskSpec(const proto::Assignment& a, const AttemptContext& ctx, const jobs::Job& job) {
  MapTaskSpec spec;
  spec.job_id = a.job_id();
  spec.map_index = a.index();
  spec.attempt = a.attempt();
  spec.job = &job;
  spec.split.path = a.split().path();
  spec.split.file_index = a.split().file_index();
  spec.split.offset = a.split().offset();
  spec.split.length = a.split().length();
  spec.split.host = a.split().host();
  spec.split.nominal_offset = a.split().nominal_offset();
  spec.split.nominal_length = a.split().nominal_length();
  spec.input_source = ctx.input_source;
  spec.num_reduces = a.spec().reducers();
  if (a.spec().sort_buffer_bytes() > 0) spec.sort_buffer_bytes = a.spec().sort_buffer_bytes();
  if (ctx.sort_buffer_bytes > 0) spec.sort_buffer_bytes = ctx.sort_buffer_bytes;
  spec.work_dir = ctx.work_dir;
  spec.sync_output_index = ctx.sync_map_outputs;
  spec.speed = ctx.speed;
  spec.straggler = ctx.straggler;
  spec.identity = IdentityOf(a);
  return spec;
}

proto::TaskReport RunAttempt(const proto::Assignment& a, const AttemptContext& ctx, AttemptWatch& watch) {
  proto::TaskReport report;
  report.set_job_id(a.job_id());
  report.set_kind(a.kind());
  report.set_index(a.index());
  report.set_attempt(a.attempt());
  report.set_start_time(ctx.clock->Now());
  std::unique_ptr<AttemptLog> log = OpenAttemptLog(a, ctx);
  AttemptLogCapture capture(log.get());  // the worker's lines from this thread go in too
  jobs::Params params(a.spec().params().begin(), a.spec().params().end());
  auto job = jobs::CreateJob(a.spec().job(), params);
  Status status = !job.ok()                ? job.status()
                  : a.kind() == proto::MAP ? MapBody(a, ctx, watch, **job, log.get(), &report)
                                           : ReduceBody(a, ctx, watch, **job, log.get(), &report);
  if (watch.timed_out()) {
    char why[96];
    std::snprintf(why, sizeof why, "no progress for %g s (task timeout)", ctx.task_timeout);
    status = Status::Aborted(why);
  }
  report.set_end_time(ctx.clock->Now());
  if (status.ok()) report.clear_stderr_tail();  // only a failure's tail is news
  report.set_state(status.ok() ? proto::SUCCEEDED : proto::FAILED);
  // A reduce whose input must be fetched again (a run's source is gone) is not at fault:
  // it gives its slot back and waits for the run (the master puts it back to fetching).
  if (a.kind() == proto::REDUCE && status.code() == StatusCode::kUnavailable) report.set_state(proto::KILLED);
  // Killed at the master's request: whatever the body returned, the attempt ends KILLED
  // (its partial output was removed when the task saw the cancel).
  if (watch.killed() && !status.ok()) {
    report.set_state(proto::KILLED);
    status = Status::Aborted("killed by the master");
  }
  if (!status.ok()) {
    // For the user (mr status, the page, the job's reason): the message, not the internal
    // status-code name; the log below keeps both.
    report.set_error(SanitizeUtf8(status.message()));
    // The master refuses a NUL in text fields (master/message_checks.cc): a child may write one.
    std::string tail = SanitizeUtf8(report.stderr_tail());
    std::replace(tail.begin(), tail.end(), '\0', '?');
    report.set_stderr_tail(std::move(tail));
    MR_LOG_WARN("{} {}/{} attempt {} {}: {}", a.kind() == proto::MAP ? "map" : "reduce", a.job_id(), a.index(),
                a.attempt(), report.state() == proto::KILLED ? "killed" : "failed", status.ToString());
  }
  NoteEnd(log.get(), report);
  return report;
}

}  // namespace mr::worker
