#include "experiment/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "common/stats.h"
#include "experiment/cluster_shape.h"
#include "trace/attempts.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using trace::EventType;
using trace::RequireNumber;

// The facts of one job's trace the replay uses.
struct JobTrace {
  std::string id, name, policy;
  std::string queue;  // the capacity queue it named ("": none)
  double submit = std::numeric_limits<double>::quiet_NaN();
  int maps = 0;
  int reduces = 0;
  bool ended = false;
  std::string end_status, end_error;
  double response = 0;
  // Its attempts that ended, each with a task id and a worker-measured start.
  std::vector<trace::Attempt> attempts;
  double last_fetch_end = -std::numeric_limits<double>::infinity();
  bool saw_estimate = false;
  double first_start = std::numeric_limits<double>::infinity();  // its first attempt_start
  double hint_map_seconds = 0, hint_shuffle_bytes = 0, hint_reduce_seconds = 0;
  std::vector<RoundNote> rounds;  // t in epoch seconds until the run's t0 is known
  std::vector<double> replans;    // its allocation events' t, epoch seconds
  double maps_done = std::numeric_limits<double>::infinity();  // its first maps_done
  // Per reducer (first placement, not a backup's): when it was placed (the master's clock),
  // its last fetch_end (its worker's clock) and that worker.
  struct ReducerFetch {
    double placed = 0;
    double last_fetch = -std::numeric_limits<double>::infinity();
    int64_t worker = -1;  // -1: the placement named none
  };
  std::map<std::string, ReducerFetch> reducer_fetch;
};

// Allocation events closer than this (seconds) are one round's.
constexpr double kSameRound = 1e-3;

// The round index a decision's note names ("... round 12 ..."), or nullopt.
std::optional<uint64_t> NoteRound(const std::string& note) {
  const size_t at = note.find("round ");
  if (at == std::string::npos) return std::nullopt;
  const char* digits = note.c_str() + at + 6;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(digits, &end, 10);
  if (end == digits) return std::nullopt;
  return static_cast<uint64_t>(n);
}

// A successful fetch from one source worker's shuffle server.
struct Window {
  int64_t worker;
  double start, end, bytes;
};

Status ApplySubmit(const trace::JobSubmit& e, JobTrace& job) {
  if (job.submit == job.submit) return Status::InvalidArgument(job.id + ": two job_submit events");
  job.submit = e.t;
  job.name = e.name.value_or("");
  job.policy = e.policy.value_or("");
  job.queue = e.queue.value_or("");
  MR_ASSIGN_OR_RETURN(int64_t maps, RequireNumber(e.maps, EventType::kJobSubmit, "maps", job.id));
  MR_ASSIGN_OR_RETURN(int64_t reduces, RequireNumber(e.reduces, EventType::kJobSubmit, "reduces", job.id));
  if (maps < 1 || reduces < 0 || maps > 1'000'000 || reduces > 100'000)
    return Status::InvalidArgument(job.id + ": job_submit with bad maps/reduces");
  job.maps = static_cast<int>(maps);
  job.reduces = static_cast<int>(reduces);
  return Status::Ok();
}

Status ApplyFetchEnd(const trace::FetchEnd& e, JobTrace& job, std::vector<Window>& windows) {
  job.last_fetch_end = std::max(job.last_fetch_end, e.t);
  if (e.task) {
    auto it = job.reducer_fetch.find(*e.task);
    if (it != job.reducer_fetch.end()) it->second.last_fetch = std::max(it->second.last_fetch, e.t);
  }
  Window w{};
  MR_ASSIGN_OR_RETURN(w.worker, RequireNumber(e.src_worker, EventType::kFetchEnd, "src_worker", job.id));
  MR_ASSIGN_OR_RETURN(w.start, RequireNumber(e.start, EventType::kFetchEnd, "start", job.id));
  MR_ASSIGN_OR_RETURN(uint64_t bytes, RequireNumber(e.bytes, EventType::kFetchEnd, "bytes", job.id));
  w.bytes = static_cast<double>(bytes);
  w.end = e.t;
  windows.push_back(w);
  return Status::Ok();
}

// The estimate written at submit: a hint (or a stored profile) is what the policy ranked
// the job by before any map ended; "online" means it had none.
Status ApplyFirstEstimate(const trace::Estimate& e, JobTrace& job) {
  job.saw_estimate = true;
  if (e.source == "hint" || e.source == "profile") {
    MR_ASSIGN_OR_RETURN(job.hint_map_seconds, RequireNumber(e.map_seconds, EventType::kEstimate, "map_seconds", job.id));
    MR_ASSIGN_OR_RETURN(job.hint_shuffle_bytes,
                        RequireNumber(e.shuffle_bytes, EventType::kEstimate, "shuffle_bytes", job.id));
  }
  // The reduce estimate has its own source (asrpt and lrpt rank by it); traces written
  // before it existed have none.
  if (e.reduce_source == "hint" || e.reduce_source == "profile") {
    MR_ASSIGN_OR_RETURN(job.hint_reduce_seconds,
                        RequireNumber(e.reduce_seconds, EventType::kEstimate, "reduce_seconds", job.id));
  }
  return Status::Ok();
}

Status ApplyEvent(const trace::Event& ev, JobTrace& job, std::vector<Window>& windows) {
  if (const auto* e = std::get_if<trace::JobSubmit>(&ev)) return ApplySubmit(*e, job);
  if (const auto* e = std::get_if<trace::JobEnd>(&ev)) {
    job.ended = true;
    job.end_status = e->status.value_or("");
    job.end_error = e->error.value_or("");
    MR_ASSIGN_OR_RETURN(job.response, RequireNumber(e->response_time, EventType::kJobEnd, "response_time", job.id));
  } else if (const auto* e = std::get_if<trace::AttemptStart>(&ev)) {
    job.first_start = std::min(job.first_start, e->t);
  } else if (const auto* e = std::get_if<trace::Decision>(&ev); e && e->note) {
    if (std::optional<uint64_t> n = NoteRound(*e->note)) job.rounds.push_back({e->t, *n});
  } else if (const auto* e = std::get_if<trace::Allocation>(&ev)) {
    job.replans.push_back(e->t);
  } else if (const auto* e = std::get_if<trace::MapsDone>(&ev)) {
    job.maps_done = std::min(job.maps_done, e->t);
  } else if (const auto* e = std::get_if<trace::ReducePlace>(&ev); e && e->task && !e->backup.value_or(false)) {
    job.reducer_fetch.emplace(*e->task, JobTrace::ReducerFetch{.placed = e->t, .worker = e->worker.value_or(-1)});
  } else if (const auto* e = std::get_if<trace::FetchEnd>(&ev); e && e->status == "ok") {
    return ApplyFetchEnd(*e, job, windows);
  } else if (const auto* e = std::get_if<trace::Estimate>(&ev); e && !job.saw_estimate) {
    return ApplyFirstEstimate(*e, job);
  }
  return Status::Ok();
}

// The job's ended attempts, each checked for what the replay needs.
Status CollectEnded(const std::vector<trace::Event>& events, JobTrace& job) {
  for (trace::Attempt& a : trace::CollectAttempts(events)) {
    if (!a.ended) continue;
    if (!a.ref) return Status::InvalidArgument(job.id + ": bad task id '" + a.task + "'");
    MR_RETURN_IF_ERROR(RequireNumber(a.ended->start, EventType::kAttemptEnd, "start", job.id).status());
    job.attempts.push_back(std::move(a));
  }
  return Status::Ok();
}

// Per task index of `kind`, the duration of its last successful attempt (the one whose
// output the job used: an earlier success can be lost with its worker and run again), -1
// for none.
std::vector<double> SuccessfulDurations(const std::vector<trace::Attempt>& attempts, char kind, int tasks,
                                        std::vector<double>* bytes_out, std::vector<TaskPlace>* places) {
  std::vector<double> out(tasks, -1);
  places->assign(tasks, TaskPlace{});
  std::vector<double> last_end(tasks, -std::numeric_limits<double>::infinity());
  if (bytes_out != nullptr) bytes_out->assign(tasks, 0);
  for (const trace::Attempt& a : attempts) {
    const trace::AttemptEnd& e = *a.ended;
    const int index = a.ref->index;
    if (a.ref->kind != kind || e.status != "ok" || index >= tasks || e.t < last_end[index]) continue;
    last_end[index] = e.t;
    out[index] = std::max(0.0, e.t - *e.start);
    const double held = a.started && e.reported ? *e.reported - a.started->t : -1;
    (*places)[index] = {e.worker.value_or(0), a.attempt, held >= 0 ? std::max(0.0, held - out[index]) : -1};
    if (bytes_out != nullptr) (*bytes_out)[index] = static_cast<double>(e.bytes_out.value_or(0));
  }
  return out;
}

// Each task's TaskPlace::overhead, or empty when a task's is unknown (an older trace).
std::vector<double> Overheads(const std::vector<TaskPlace>& places) {
  std::vector<double> out;
  for (const TaskPlace& p : places) {
    if (p.overhead < 0) return {};
    out.push_back(p.overhead);
  }
  return out;
}

// Why `job` cannot be replayed, or "" when it can.
std::string ExclusionReason(const JobTrace& job, const std::vector<double>& maps,
                            const std::vector<double>& reduces) {
  if (!job.ended) return "no job_end: unfinished";
  if (job.end_status != "ok") {
    return "ended " + job.end_status + (job.end_error.empty() ? "" : ": " + job.end_error);
  }
  for (size_t i = 0; i < maps.size(); ++i) {
    if (maps[i] < 0) return "map " + std::to_string(i) + " has no successful attempt";
  }
  for (size_t i = 0; i < reduces.size(); ++i) {
    if (reduces[i] < 0) return "reduce " + std::to_string(i) + " has no successful attempt";
  }
  return "";
}

void CountAttempts(const std::vector<trace::Attempt>& attempts, RecordedJob& m) {
  for (const trace::Attempt& a : attempts) {
    if (a.ended->status == "failed") ++m.failed_attempts;
    if (a.ended->status == "killed") ++m.killed_attempts;
    if (a.ended->status == "lost") ++m.lost_attempts;
  }
}

// The replayable job and its measured outcome; arrival is relative to t0.
std::pair<model::TaskJob, RecordedJob> ReplayJob(const JobTrace& job, std::vector<double> maps,
                                                 std::vector<double> reduces,
                                                 const std::vector<double>& map_bytes, double t0) {
  model::TaskJob t;
  t.arrival = job.submit - t0;
  t.maps = job.maps;
  t.reducers = job.reduces;
  // One map_bytes per job in the simulator: the mean keeps the job's total shuffle.
  t.map_bytes = Mean(map_bytes);
  t.map_seconds = Mean(maps);
  t.reduce_seconds = Mean(reduces);
  t.params.hint_map_seconds = job.hint_map_seconds;
  t.params.hint_shuffle_bytes = job.hint_shuffle_bytes;
  t.params.hint_reduce_seconds = job.hint_reduce_seconds;
  t.params.queue = job.queue;  // a capacity run replays with each job in its queue
  t.map_durations = std::move(maps);
  t.reduce_durations = std::move(reduces);
  RecordedJob m;
  m.id = job.id;
  m.name = job.name;
  m.policy = job.policy;
  m.arrival = t.arrival;
  m.response = job.response;
  double shuffle_end = job.last_fetch_end;
  if (!std::isfinite(shuffle_end)) {
    for (const trace::Attempt& a : job.attempts) {
      if (a.ref->kind == 'm' && a.ended->status == "ok") shuffle_end = std::max(shuffle_end, a.ended->t);
    }
  }
  m.shuffle_done = std::isfinite(shuffle_end) ? shuffle_end - job.submit : job.response;
  CountAttempts(job.attempts, m);
  return {std::move(t), std::move(m)};
}

// Per worker, its clock's offset from the master's (RecordedRun::worker_clock_offsets): the
// middle of what its attempts allow. A worker-measured start is after the assignment
// (offset <= start - attempt_start's t) and a worker-measured end before the master's receipt
// of its report (offset >= end - reported). Only workers with both bounds (traces with
// `reported`) get one.
std::map<int64_t, double> WorkerClockOffsets(const std::vector<JobTrace>& jobs) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::map<int64_t, std::pair<double, double>> bounds;  // worker -> (lowest, highest offset)
  for (const JobTrace& job : jobs) {
    for (const trace::Attempt& a : job.attempts) {
      if (!a.started || !a.ended->worker || !a.ended->reported) continue;
      auto [it, fresh] = bounds.try_emplace(*a.ended->worker, -kInf, kInf);
      it->second.first = std::max(it->second.first, a.ended->t - *a.ended->reported);
      it->second.second = std::min(it->second.second, *a.ended->start - a.started->t);
    }
  }
  std::map<int64_t, double> offsets;
  for (const auto& [worker, b] : bounds) offsets[worker] = (b.first + b.second) / 2;
  return offsets;
}

// The median, over the reducers placed once their job's maps were all done (nothing left
// to wait for but the placement's round trip), of placement to the reducer's last fetch_end,
// that end moved to the master's clock by its worker's offset (none known: as recorded);
// 0 when no reducer was. ReducePlace events precede their fetches in a trace.
double ReduceReadyDelay(const std::vector<JobTrace>& jobs, const std::map<int64_t, double>& offsets) {
  std::vector<double> gaps;
  for (const JobTrace& job : jobs) {
    for (const auto& [task, r] : job.reducer_fetch) {
      if (r.placed < job.maps_done || !std::isfinite(r.last_fetch)) continue;
      auto it = offsets.find(r.worker);
      const double fetched = r.last_fetch - (it == offsets.end() ? 0.0 : it->second);
      gaps.push_back(std::max(0.0, fetched - r.placed));
    }
  }
  return gaps.empty() ? 0 : Median(std::move(gaps));
}

// The median, over back-to-back attempts on one worker (the next assigned within the
// master's periodic round of the one before's end: a task was waiting), of the one before's
// end to the next one's worker-measured start: a slot's turnover, which the recorded
// durations (worker start to end) leave out. 0 when no worker ran two such attempts. When
// the one before's end has `reported` (the replay then holds each slot until then:
// TaskPlace::overhead), the gap is from that receipt to the next assignment: the master's
// own reaction.
double SlotTurnover(const std::vector<JobTrace>& jobs) {
  struct Run {
    int64_t worker;
    double assigned, start, end;
    std::optional<double> reported;
  };
  std::vector<Run> runs;
  for (const JobTrace& job : jobs) {
    for (const trace::Attempt& a : job.attempts) {
      if (!a.started || !a.ended->worker) continue;
      runs.push_back({*a.ended->worker, a.started->t, *a.ended->start, a.ended->t, a.ended->reported});
    }
  }
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return std::tie(a.worker, a.assigned) < std::tie(b.worker, b.assigned); });
  std::vector<double> gaps;
  for (size_t i = 1; i < runs.size(); ++i) {
    const Run& prev = runs[i - 1];
    const Run& next = runs[i];
    const double wait = next.assigned - prev.reported.value_or(prev.end);
    if (prev.worker != next.worker || wait < 0 || wait >= kMasterRefreshRounds) continue;
    gaps.push_back(std::max(0.0, prev.reported ? next.assigned - *prev.reported : next.start - prev.end));
  }
  return gaps.empty() ? 0 : Median(std::move(gaps));
}

// Seconds from a job's submission to the first assignment after it on a worker that ran no
// attempt then (its slots counted busy from assignment to the master's receipt of the end):
// the median over submissions that found such a worker and saw it assigned within the
// master's periodic round; 0 when none. Per worker: attempts by assignment, with the latest
// release so far, so a submission costs a binary search per worker.
double ArrivalWait(const std::vector<JobTrace>& jobs) {
  struct Held {
    double assigned, freed_by;  // freed_by: the latest release of this and earlier attempts
  };
  std::map<int64_t, std::vector<Held>> by_worker;
  for (const JobTrace& job : jobs) {
    for (const trace::Attempt& a : job.attempts) {
      if (!a.started || !a.ended || !a.ended->worker) continue;
      by_worker[*a.ended->worker].push_back({a.started->t, a.ended->reported.value_or(a.ended->t)});
    }
  }
  for (auto& [w, held] : by_worker) {
    std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) { return a.assigned < b.assigned; });
    for (size_t i = 1; i < held.size(); ++i) held[i].freed_by = std::max(held[i].freed_by, held[i - 1].freed_by);
  }
  std::vector<double> waits;
  for (const JobTrace& job : jobs) {
    if (!std::isfinite(job.submit)) continue;
    double next = std::numeric_limits<double>::infinity();
    for (const auto& [w, held] : by_worker) {
      auto after = std::upper_bound(held.begin(), held.end(), job.submit,
                                    [](double t, const Held& h) { return t < h.assigned; });
      const bool idle = after == held.begin() || std::prev(after)->freed_by <= job.submit;
      if (idle && after != held.end()) next = std::min(next, after->assigned);
    }
    if (next - job.submit < kMasterRefreshRounds) waits.push_back(next - job.submit);
  }
  return waits.empty() ? 0 : Median(std::move(waits));
}

// Length of the union of [start, end] spans.
double UnionLength(std::vector<std::pair<double, double>> spans) {
  std::sort(spans.begin(), spans.end());
  double total = 0, lo = 0, hi = -std::numeric_limits<double>::infinity();
  for (const auto& [a, b] : spans) {
    if (a > hi) {
      if (std::isfinite(hi)) total += hi - lo;
      lo = a;
      hi = b;
    } else {
      hi = std::max(hi, b);
    }
  }
  return std::isfinite(hi) ? total + hi - lo : total;
}

std::map<int64_t, LinkUse> Links(const std::vector<Window>& windows) {
  std::map<int64_t, std::vector<std::pair<double, double>>> spans;
  std::map<int64_t, LinkUse> out;
  for (const Window& w : windows) {
    if (!(w.bytes > 0) || !(w.end > w.start)) continue;
    spans[w.worker].emplace_back(w.start, w.end);
    out[w.worker].bytes += w.bytes;
  }
  for (auto& [worker, s] : spans) out[worker].busy_seconds = UnionLength(std::move(s));
  return out;
}

Result<JobTrace> ParseJob(const std::vector<trace::Event>& events, std::vector<Window>& windows) {
  JobTrace job;
  for (const trace::Event& e : events) {
    if (job.id.empty()) job.id = trace::JobOf(e);
  }
  if (job.id.empty()) return Status::InvalidArgument("a trace without a 'job' field");
  for (const trace::Event& e : events) MR_RETURN_IF_ERROR(ApplyEvent(e, job, windows));
  MR_RETURN_IF_ERROR(CollectEnded(events, job));
  if (job.submit != job.submit) return Status::InvalidArgument(job.id + ": no job_submit event");
  return job;
}

}  // namespace

Result<RecordedRun> RecordedRunFromTraces(const std::vector<std::vector<trace::Event>>& traces) {
  std::vector<JobTrace> parsed;
  std::vector<Window> windows;
  std::set<std::string> ids;
  for (const auto& events : traces) {
    MR_ASSIGN_OR_RETURN(JobTrace job, ParseJob(events, windows));
    if (!ids.insert(job.id).second) return Status::InvalidArgument(job.id + " is in two traces");
    parsed.push_back(std::move(job));
  }
  if (parsed.empty()) return Status::InvalidArgument("no job traces");
  std::sort(parsed.begin(), parsed.end(), [](const JobTrace& a, const JobTrace& b) {
    return std::tie(a.submit, a.id) < std::tie(b.submit, b.id);
  });
  RecordedRun run;
  run.t0 = parsed.front().submit;
  double first_start = std::numeric_limits<double>::infinity();
  for (const JobTrace& job : parsed) first_start = std::min(first_start, job.first_start);
  if (std::isfinite(first_start)) run.first_assignment = std::max(0.0, first_start - run.t0);
  for (const JobTrace& job : parsed) {
    for (const RoundNote& r : job.rounds) run.rounds.push_back({r.t - run.t0, r.index});
    for (double t : job.replans) run.replans.push_back(t - run.t0);
    std::vector<double> map_bytes;
    std::vector<TaskPlace> maps_ran, reduces_ran;
    std::vector<double> maps = SuccessfulDurations(job.attempts, 'm', job.maps, &map_bytes, &maps_ran);
    std::vector<double> reduces = SuccessfulDurations(job.attempts, 'r', job.reduces, nullptr, &reduces_ran);
    std::string why = ExclusionReason(job, maps, reduces);
    if (!why.empty()) {
      run.excluded.push_back({job.id, why});
      continue;
    }
    auto [task_job, measured] = ReplayJob(job, std::move(maps), std::move(reduces), map_bytes, run.t0);
    task_job.map_overheads = Overheads(maps_ran);
    task_job.reduce_overheads = Overheads(reduces_ran);
    measured.maps_ran = std::move(maps_ran);
    measured.reduces_ran = std::move(reduces_ran);
    if (run.policy.empty()) run.policy = measured.policy;
    if (run.policy != measured.policy) run.policy = "mixed";
    run.jobs.push_back(std::move(task_job));
    run.measured.push_back(std::move(measured));
  }
  std::sort(run.excluded.begin(), run.excluded.end(),
            [](const ExcludedJob& a, const ExcludedJob& b) { return a.id < b.id; });
  run.links = Links(windows);
  // One round's allocation events (one per job) are written microseconds apart: one time.
  std::sort(run.replans.begin(), run.replans.end());
  run.replans.erase(std::unique(run.replans.begin(), run.replans.end(),
                                [](double a, double b) { return b - a < kSameRound; }),
                    run.replans.end());
  run.worker_clock_offsets = WorkerClockOffsets(parsed);
  run.reduce_ready_delay = ReduceReadyDelay(parsed, run.worker_clock_offsets);
  run.slot_turnover = SlotTurnover(parsed);
  run.arrival_wait = ArrivalWait(parsed);
  return run;
}

}  // namespace mr::experiment
