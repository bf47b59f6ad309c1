#include "experiment/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "common/file_util.h"
#include "web/trace_reader.h"

namespace mr::experiment {
namespace {

using nlohmann::json;

// One attempt_end of one task.
struct Attempt {
  int index = 0;
  double start = 0;
  double end = 0;
  std::string status;
  double bytes_out = 0;
};

// The facts of one job's trace the replay uses.
struct JobTrace {
  std::string id, name, policy;
  double submit = std::numeric_limits<double>::quiet_NaN();
  int maps = 0;
  int reduces = 0;
  bool ended = false;
  std::string end_status, end_error;
  double response = 0;
  std::vector<Attempt> maps_ended, reduces_ended;
  double last_fetch_end = -std::numeric_limits<double>::infinity();
  bool saw_estimate = false;
  double first_start = std::numeric_limits<double>::infinity();  // its first attempt_start
  double hint_map_seconds = 0, hint_shuffle_bytes = 0, hint_reduce_seconds = 0;
};

// A successful fetch from one source worker's shuffle server.
struct Window {
  int64_t worker;
  double start, end, bytes;
};

// "m-00003" -> ('m', 3); InvalidArgument otherwise.
Result<std::pair<char, int>> TaskIndex(const std::string& task, const std::string& where) {
  if (task.size() < 3 || (task[0] != 'm' && task[0] != 'r') || task[1] != '-' ||
      !std::all_of(task.begin() + 2, task.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      task.size() > 11) {
    return Status::InvalidArgument(where + ": bad task id '" + task + "'");
  }
  return std::make_pair(task[0], std::stoi(task.substr(2)));
}

Status ApplyAttemptEnd(const json& e, double t, JobTrace& job) {
  MR_ASSIGN_OR_RETURN(auto task, TaskIndex(EventText(e, "task"), job.id));
  Attempt a;
  a.index = task.second;
  a.end = t;
  MR_ASSIGN_OR_RETURN(a.start, EventNumber(e, "start", job.id));
  a.status = EventText(e, "status");
  if (e.contains("bytes_out") && e["bytes_out"].is_number()) a.bytes_out = e["bytes_out"].get<double>();
  (task.first == 'm' ? job.maps_ended : job.reduces_ended).push_back(a);
  return Status::Ok();
}

Status ApplyEvent(const json& e, JobTrace& job, std::vector<Window>& windows) {
  if (!e.is_object() || !e.contains("event") || !e["event"].is_string() || !e.contains("t") ||
      !e["t"].is_number()) {
    return Status::InvalidArgument(job.id + ": an event without a string 'event' and a numeric 't'");
  }
  const std::string ev = e.at("event").get<std::string>();
  const double t = e.at("t").get<double>();
  if (ev == "job_submit") {
    if (job.submit == job.submit) return Status::InvalidArgument(job.id + ": two job_submit events");
    job.submit = t;
    job.name = EventText(e, "name");
    job.policy = EventText(e, "policy");
    MR_ASSIGN_OR_RETURN(double maps, EventNumber(e, "maps", job.id));
    MR_ASSIGN_OR_RETURN(double reduces, EventNumber(e, "reduces", job.id));
    if (maps < 1 || reduces < 0 || maps > 1e6 || reduces > 1e5)
      return Status::InvalidArgument(job.id + ": job_submit with bad maps/reduces");
    job.maps = static_cast<int>(maps);
    job.reduces = static_cast<int>(reduces);
  } else if (ev == "job_end") {
    job.ended = true;
    job.end_status = EventText(e, "status");
    job.end_error = EventText(e, "error");
    MR_ASSIGN_OR_RETURN(job.response, EventNumber(e, "response_time", job.id));
  } else if (ev == "attempt_start") {
    job.first_start = std::min(job.first_start, t);
  } else if (ev == "attempt_end") {
    MR_RETURN_IF_ERROR(ApplyAttemptEnd(e, t, job));
  } else if (ev == "fetch_end" && EventText(e, "status") == "ok") {
    job.last_fetch_end = std::max(job.last_fetch_end, t);
    Window w{};
    MR_ASSIGN_OR_RETURN(double source, EventNumber(e, "src_worker", job.id));
    w.worker = static_cast<int64_t>(source);
    MR_ASSIGN_OR_RETURN(w.start, EventNumber(e, "start", job.id));
    MR_ASSIGN_OR_RETURN(w.bytes, EventNumber(e, "bytes", job.id));
    w.end = t;
    windows.push_back(w);
  } else if (ev == "estimate" && !job.saw_estimate) {
    // The estimate written at submit: a hint (or a stored profile) is what the policy ranked
    // the job by before any map ended; "online" means it had none.
    job.saw_estimate = true;
    const std::string source = EventText(e, "source");
    if (source == "hint" || source == "profile") {
      MR_ASSIGN_OR_RETURN(job.hint_map_seconds, EventNumber(e, "map_seconds", job.id));
      MR_ASSIGN_OR_RETURN(job.hint_shuffle_bytes, EventNumber(e, "shuffle_bytes", job.id));
    }
    // The reduce estimate has its own source (asrpt and lrpt rank by it); traces written
    // before it existed have none.
    const std::string reduce_source = EventText(e, "reduce_source");
    if (reduce_source == "hint" || reduce_source == "profile") {
      MR_ASSIGN_OR_RETURN(job.hint_reduce_seconds, EventNumber(e, "reduce_seconds", job.id));
    }
  }
  return Status::Ok();
}

// Per task index, the duration of its last successful attempt (the one whose output the job
// used: an earlier success can be lost with its worker and run again), -1 for none.
std::vector<double> SuccessfulDurations(const std::vector<Attempt>& ended, int tasks,
                                        std::vector<double>* bytes_out) {
  std::vector<double> out(tasks, -1);
  std::vector<double> last_end(tasks, -std::numeric_limits<double>::infinity());
  if (bytes_out != nullptr) bytes_out->assign(tasks, 0);
  for (const Attempt& a : ended) {
    if (a.status != "ok" || a.index < 0 || a.index >= tasks || a.end < last_end[a.index]) continue;
    last_end[a.index] = a.end;
    out[a.index] = std::max(0.0, a.end - a.start);
    if (bytes_out != nullptr) (*bytes_out)[a.index] = a.bytes_out;
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

void CountAttempts(const std::vector<Attempt>& ended, RecordedJob& m) {
  for (const Attempt& a : ended) {
    if (a.status == "failed") ++m.failed_attempts;
    if (a.status == "killed") ++m.killed_attempts;
    if (a.status == "lost") ++m.lost_attempts;
  }
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
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
    for (const Attempt& a : job.maps_ended) {
      if (a.status == "ok") shuffle_end = std::max(shuffle_end, a.end);
    }
  }
  m.shuffle_done = std::isfinite(shuffle_end) ? shuffle_end - job.submit : job.response;
  CountAttempts(job.maps_ended, m);
  CountAttempts(job.reduces_ended, m);
  return {std::move(t), std::move(m)};
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

Result<JobTrace> ParseJob(const std::vector<json>& events, std::vector<Window>& windows) {
  JobTrace job;
  for (const json& e : events) {
    if (job.id.empty() && e.contains("job") && e["job"].is_string()) job.id = e["job"].get<std::string>();
  }
  if (job.id.empty()) return Status::InvalidArgument("a trace without a 'job' field");
  for (const json& e : events) MR_RETURN_IF_ERROR(ApplyEvent(e, job, windows));
  if (job.submit != job.submit) return Status::InvalidArgument(job.id + ": no job_submit event");
  return job;
}

}  // namespace

Result<RecordedRun> RecordedRunFromTraces(const std::vector<std::vector<json>>& traces) {
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
    std::vector<double> map_bytes;
    std::vector<double> maps = SuccessfulDurations(job.maps_ended, job.maps, &map_bytes);
    std::vector<double> reduces = SuccessfulDurations(job.reduces_ended, job.reduces, nullptr);
    std::string why = ExclusionReason(job, maps, reduces);
    if (!why.empty()) {
      run.excluded.push_back({job.id, why});
      continue;
    }
    auto [task_job, measured] = ReplayJob(job, std::move(maps), std::move(reduces), map_bytes, run.t0);
    if (run.policy.empty()) run.policy = measured.policy;
    if (run.policy != measured.policy) run.policy = "mixed";
    run.jobs.push_back(std::move(task_job));
    run.measured.push_back(std::move(measured));
  }
  std::sort(run.excluded.begin(), run.excluded.end(),
            [](const ExcludedJob& a, const ExcludedJob& b) { return a.id < b.id; });
  run.links = Links(windows);
  return run;
}

Result<std::vector<std::string>> TraceFiles(const std::string& path) {
  if (!PathExists(path)) return Status::NotFound("no such trace file or directory: " + path);
  if (!IsDirectory(path)) return std::vector<std::string>{path};
  std::vector<std::string> out;
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(path));
  for (const std::string& n : names) {
    if (n.size() > 6 && n.ends_with(".jsonl")) out.push_back(JoinPath(path, n));
  }
  const std::string state_traces = JoinPath(path, "traces");
  if (out.empty() && IsDirectory(state_traces)) return TraceFiles(state_traces);
  if (out.empty()) return Status::NotFound("no *.jsonl traces in " + path);
  return out;
}

Result<std::vector<std::vector<json>>> ReadTraces(const std::vector<std::string>& paths) {
  std::vector<std::vector<json>> traces;
  for (const std::string& p : paths) {
    MR_ASSIGN_OR_RETURN(std::vector<std::string> files, TraceFiles(p));
    for (const std::string& f : files) {
      MR_ASSIGN_OR_RETURN(std::vector<json> events, web::ReadTraceFile(f));
      if (events.empty()) return Status::InvalidArgument(f + ": empty trace");
      traces.push_back(std::move(events));
    }
  }
  return traces;
}

Result<RecordedRun> ReadRecordedRun(const std::vector<std::string>& paths) {
  MR_ASSIGN_OR_RETURN(auto traces, ReadTraces(paths));
  return RecordedRunFromTraces(traces);
}

double MeasuredShuffleRate(const RecordedRun& run) {
  double sum = 0;
  int n = 0;
  for (const auto& [worker, use] : run.links) {
    if (use.busy_seconds <= 0) continue;
    sum += use.bytes / use.busy_seconds;
    ++n;
  }
  return n > 0 ? sum / n : 0;
}

Result<double> EventNumber(const json& e, const char* key, const std::string& where) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_number() || !std::isfinite(it->get<double>())) {
    return Status::InvalidArgument(where + ": " + e.value("event", std::string("event")) +
                                   " without a numeric '" + key + "'");
  }
  return it->get<double>();
}

std::string EventText(const json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace mr::experiment
