#include "experiment/live_run.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/job_id.h"
#include "common/text_lines.h"

namespace mr::experiment {

namespace {

double WallNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What the submitter thread and the waiting one share.
struct Submissions {
  std::mutex mu;
  std::condition_variable changed;  // `ended` grew or the run stops (PlayMode::kOneAtATime)
  std::map<int, std::pair<uint64_t, double>> submitted;  // job index -> (id, offset)
  std::set<uint64_t> ended;  // ids the waiting thread has seen end
  double last_submit = 0;    // offset of the latest submit
  Status status;
  bool finished = false;
};

void SubmitAll(LiveCluster& cluster, const JobList& jobs, const std::string& prefix, PlayMode mode,
               std::chrono::steady_clock::time_point start, const std::atomic<bool>& stop, Submissions* out) {
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return jobs[a].arrival < jobs[b].arrival; });
  for (int i : order) {
    if (stop.load()) break;
    if (mode == PlayMode::kArrivals) {
      std::this_thread::sleep_until(start + std::chrono::duration<double>(jobs[i].arrival));  // the arrival process
    }
    Result<uint64_t> id = cluster.Submit(jobs[i], prefix + "-" + std::to_string(i));
    double offset = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::unique_lock<std::mutex> lock(out->mu);
    if (!id.ok()) {
      out->status = Status(id.status().code(), "submit of job " + std::to_string(i) + ": " + id.status().message());
      break;
    }
    out->submitted[i] = {*id, offset};
    out->last_submit = offset;
    if (mode == PlayMode::kOneAtATime) {
      out->changed.wait(lock, [&] { return stop.load() || out->ended.count(*id) > 0; });
    }
  }
  std::lock_guard<std::mutex> lock(out->mu);
  out->finished = true;
}

}  // namespace

Result<std::vector<MeasuredJob>> PlayJobs(LiveCluster& cluster, const JobList& jobs, const std::string& prefix,
                                          double timeout, const ProgressFn& progress, PlayMode mode) {
  double last_arrival = 0;
  for (const auto& j : jobs) last_arrival = std::max(last_arrival, j.arrival);
  const double start_wall = WallNow();
  const auto start = std::chrono::steady_clock::now();
  const double start_mono = MonotonicSeconds();
  Submissions subs;
  std::atomic<bool> stop{false};
  std::thread submitter(SubmitAll, std::ref(cluster), std::cref(jobs), std::cref(prefix), mode, start,
                        std::cref(stop), &subs);
  std::map<uint64_t, LiveJobState> states;
  Status outcome = Status::Ok();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // poll interval
    bool all_submitted = false;
    std::map<int, std::pair<uint64_t, double>> submitted;
    double last_submit = 0;
    {
      std::lock_guard<std::mutex> lock(subs.mu);
      if (!subs.status.ok()) outcome = subs.status;
      all_submitted = subs.finished && subs.submitted.size() == jobs.size();
      submitted = subs.submitted;
      last_submit = subs.last_submit;
    }
    if (!outcome.ok()) break;
    Result<std::vector<LiveJobState>> polled = cluster.Poll();
    if (!polled.ok()) {
      outcome = polled.status();
      break;
    }
    for (const LiveJobState& s : *polled) states[s.id] = s;
    {
      std::lock_guard<std::mutex> lock(subs.mu);
      for (const LiveJobState& s : *polled) {
        if (s.ended) subs.ended.insert(s.id);
      }
    }
    subs.changed.notify_all();
    int done = 0;
    for (const auto& [index, sub] : submitted) done += states.count(sub.first) && states[sub.first].ended;
    const double elapsed = MonotonicSeconds() - start_mono;
    if (progress) progress(done, static_cast<int>(jobs.size()), elapsed);
    if (all_submitted && done == static_cast<int>(jobs.size())) break;
    const double since = mode == PlayMode::kOneAtATime ? std::max(last_arrival, last_submit) : last_arrival;
    if (elapsed > since + timeout) {
      outcome = Status::Unavailable(std::to_string(jobs.size() - done) + " of " + std::to_string(jobs.size()) +
                                         " jobs not done " + std::to_string(static_cast<int>(timeout)) +
                                         (mode == PlayMode::kOneAtATime ? " s after the last submit"
                                                                         : " s after the last arrival"));
      break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(subs.mu);
    stop.store(true);
  }
  subs.changed.notify_all();
  submitter.join();
  MR_RETURN_IF_ERROR(outcome);
  std::vector<MeasuredJob> out;
  for (const auto& [index, sub] : subs.submitted) {
    const LiveJobState& s = states[sub.first];
    MeasuredJob m;
    m.job = index;
    m.id = sub.first;
    m.submitted = sub.second;
    m.response = s.end_time - s.submit_time;
    m.since_planned = s.end_time - (start_wall + jobs[index].arrival);
    m.succeeded = s.succeeded;
    out.push_back(m);
  }
  return out;
}

std::string MeasuredCsv(const std::vector<MeasuredJob>& jobs) {
  std::string out = "job,id,submitted,response,since_planned,ok\n";
  for (const MeasuredJob& m : jobs) {
    char line[256];
    std::snprintf(line, sizeof line, "%d,%llu,%.6f,%.6f,%.6f,%d\n", m.job, static_cast<unsigned long long>(m.id),
                  m.submitted, m.response, m.since_planned, m.succeeded ? 1 : 0);
    out += line;
  }
  return out;
}

Result<std::vector<MeasuredJob>> ParseMeasuredCsv(std::string_view text) {
  std::vector<MeasuredJob> out;
  LineCursor lines(text);
  std::string_view l;
  while (lines.Next(&l)) {
    const int line = lines.number();
    if (line == 1 || l.empty()) continue;
    std::vector<std::string> f = SplitFields(l, ',');
    if (f.size() != 6) return Status::InvalidArgument("measured.csv line " + std::to_string(line) + ": expected 6 columns");
    MeasuredJob m;
    try {
      m.job = std::stoi(f[0]);
      m.id = std::stoull(f[1]);
      m.submitted = std::stod(f[2]);
      m.response = std::stod(f[3]);
      m.since_planned = std::stod(f[4]);
      m.succeeded = f[5] == "1";
    } catch (const std::exception&) {
      return Status::InvalidArgument("measured.csv line " + std::to_string(line) + ": not a number");
    }
    out.push_back(m);
  }
  return out;
}

std::string TraceFileName(uint64_t id) { return JobIdString(id) + ".jsonl"; }

Status CopyTraces(const LiveCluster& cluster, const std::vector<MeasuredJob>& measured, const std::string& dir) {
  MR_RETURN_IF_ERROR(MakeDirs(dir));
  for (const MeasuredJob& m : measured) {
    const std::string name = TraceFileName(m.id);
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(cluster.TraceDir(), name)));
    MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(dir, name), text));
  }
  return Status::Ok();
}

Status CopyAllTraces(const LiveCluster& cluster, const std::string& dir) {
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(cluster.TraceDir()));
  MR_RETURN_IF_ERROR(MakeDirs(dir));
  for (const std::string& name : names) {
    if (name.rfind("job-", 0) != 0 || name.size() < 6 || name.substr(name.size() - 6) != ".jsonl") continue;
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(cluster.TraceDir(), name)));
    MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(dir, name), text));
  }
  return Status::Ok();
}

}  // namespace mr::experiment
