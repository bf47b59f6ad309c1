#include "cli/status_table.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/job_id.h"
#include "common/units.h"
#include "master/status_json.h"

namespace mr::cli {

namespace {

// The measured shuffle rate: of the last 2 s while the job runs, the mean over its whole
// shuffle once it has ended ("-": nothing fetched).
std::string RateCell(const proto::JobStatus& st) {
  bool done = st.state() != "RUNNING";
  double rate = done ? st.shuffle_rate_mean() : st.shuffle_rate();
  if (rate <= 0) return done || st.shuffle_bytes_fetched() == 0 ? "-" : "0 B/s";
  return FormatBytes(rate) + "/s";
}

// A worker row's labels as "class=fast,rack=r1" ("-" for none).
std::string LabelsCell(const proto::WorkerRow& w) {
  std::string out;
  for (const auto& l : w.labels()) out += (out.empty() ? "" : ",") + l.key() + "=" + l.value();
  return out.empty() ? "-" : out;
}

// The workers table: slots busy/total, speed, measured map rate per slot, queued maps, and
// LABELS when some worker has any (so an unlabelled cluster's table is as it always was).
void PrintWorkers(const proto::StatusReply& r) {
  if (r.worker_rows_size() == 0) return;
  bool labels = false;
  for (const auto& w : r.worker_rows()) labels = labels || w.labels_size() > 0;
  std::printf("%-7s %-16s %9s %9s %9s %6s %10s %7s%s\n", "WORKER", "HOST", "MAP", "REDUCE", "UNIFIED", "SPEED",
              "MAP RATE", "QUEUED", labels ? "  LABELS" : "");
  for (const auto& w : r.worker_rows()) {
    char map[24], red[24], uni[24], rate[24];
    std::snprintf(map, sizeof map, "%u/%u", w.running_map(), w.map_slots());
    std::snprintf(red, sizeof red, "%u/%u", w.running_reduce(), w.reduce_slots());
    std::snprintf(uni, sizeof uni, "%u/%u", w.running_unified(), w.unified_slots());
    if (w.map_task_rate() > 0) {
      std::snprintf(rate, sizeof rate, "%.3g/s", w.map_task_rate());
    } else {
      std::snprintf(rate, sizeof rate, "-");
    }
    const std::string tail = labels ? "  " + LabelsCell(w) : "";
    std::printf("%-7u %-16.16s %9s %9s %9s %6.3g %10s %7u%s\n", w.id(), w.host().c_str(), map, red, uni, w.speed(),
                rate, w.queued_maps(), tail.c_str());
  }
  std::printf("\n");
}

}  // namespace

Result<JobFilter::State> ParseJobState(const std::string& text) {
  if (text == "all") return JobFilter::State::kAll;
  if (text == "running") return JobFilter::State::kRunning;
  if (text == "ended") return JobFilter::State::kEnded;
  return Status::InvalidArgument("--state must be running, ended or all, not '" + text + "'");
}

int FilterJobs(const JobFilter& f, proto::StatusReply* r) {
  auto ended = [](const proto::JobStatus& st) {
    return st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
  };
  std::vector<proto::JobStatus> kept;
  for (const proto::JobStatus& st : r->jobs()) {
    if (f.state == JobFilter::State::kAll || (f.state == JobFilter::State::kEnded) == ended(st)) kept.push_back(st);
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.job_id() < b.job_id(); });
  if (f.limit > 0 && kept.size() > static_cast<size_t>(f.limit)) kept.erase(kept.begin(), kept.end() - f.limit);
  const int dropped = r->jobs_size() - static_cast<int>(kept.size());
  r->clear_jobs();
  for (proto::JobStatus& st : kept) *r->add_jobs() = std::move(st);
  return dropped;
}

void PrintStatusTable(const proto::StatusReply& r) {
  std::printf("policy %s, placement %s, %u worker%s, %d job%s\n", r.policy().c_str(),
              r.placement().empty() ? "pull" : r.placement().c_str(), r.workers(), r.workers() == 1 ? "" : "s",
              r.jobs_size(), r.jobs_size() == 1 ? "" : "s");
  PrintWorkers(r);
  // State and phase progress kept apart (docs/web.md, "State and phase"): MAP, SHUFFLE and
  // REDUCE are the master's per-phase progress, the same numbers as the API and the page.
  std::printf("%-11s %-10s %-9s %4s %7s %6s %10s %6s %12s %-22s %9s\n", "JOB", "NAME", "STATE", "MAP", "SHUFFLE",
              "REDUCE", "SHUFFLED", "SHARE", "RATE", "ESTIMATE (x, y)", "TIME");
  double now = SystemClock::Get()->Now();
  for (const auto& st : r.jobs()) {
    char est[64], time[32];
    std::snprintf(est, sizeof est, "%s %.1fs %s", st.estimate_source().c_str(), st.est_map_seconds(),
                  FormatBytes(st.est_shuffle_bytes()).c_str());
    double end = st.end_time() > 0 ? st.end_time() : now;
    std::snprintf(time, sizeof time, "%.2fs", end - st.submit_time());
    std::printf("%-11s %-10.10s %-9s %4s %7s %6s %10s %6.2f %12s %-22s %9s\n", JobIdString(st.job_id()).c_str(),
                st.name().c_str(), st.state().c_str(), FormatPercent(st.map_progress()).c_str(),
                FormatPercent(st.shuffle_progress()).c_str(), FormatPercent(st.reduce_progress()).c_str(),
                FormatBytes(static_cast<double>(st.shuffle_bytes_fetched())).c_str(), st.share(),
                RateCell(st).c_str(), est, time);
    if (!st.error().empty()) std::printf("            error: %s\n", st.error().c_str());
  }
}

namespace {

// `mr status JOB`: the latest failed attempt, its error and the tail of its stderr.
void PrintFailedAttempt(const proto::JobStatus& st) {
  if (!st.has_last_failed_attempt()) return;
  const proto::FailedAttempt& f = st.last_failed_attempt();
  std::printf("\nlast failed attempt: %s attempt %u on worker %u, +%.2fs after submit\n  error: %s\n",
              f.task().c_str(), f.attempt(), f.worker(), f.time() - st.submit_time(), f.error().c_str());
  if (f.stderr_tail().empty()) {
    std::printf("  stderr: (nothing)\n");
    return;
  }
  std::printf("  stderr (last lines):\n");
  size_t pos = 0;
  const std::string& tail = f.stderr_tail();
  while (pos < tail.size()) {
    size_t nl = tail.find('\n', pos);
    if (nl == std::string::npos) nl = tail.size();
    std::printf("    | %.*s\n", static_cast<int>(nl - pos), tail.data() + pos);
    pos = nl + 1;
  }
}

}  // namespace

void PrintJobDetail(const proto::JobStatus& st) {
  std::printf("\n%s %s", JobIdString(st.job_id()).c_str(), st.state().c_str());
  if (!st.phase().empty()) std::printf(", in %s", st.phase().c_str());
  std::printf(": map %s (%u/%u maps, %u running), shuffle %s (%s of %s expected), reduce %s (%u/%u reduces, %u running)\n",
              FormatPercent(st.map_progress()).c_str(), st.maps_done(), st.maps_total(), st.maps_running(),
              FormatPercent(st.shuffle_progress()).c_str(),
              FormatBytes(static_cast<double>(st.shuffle_bytes_fetched())).c_str(),
              FormatBytes(st.shuffle_bytes_expected()).c_str(), FormatPercent(st.reduce_progress()).c_str(),
              st.reduces_done(), st.reduces_total(), st.reduces_running());
  PrintFailedAttempt(st);
  if (st.sojourn_time() > 0) {
    std::printf("\nsojourn time %.3fs (submit to the last map output available to the reducers)\n",
                st.sojourn_time());
  } else {
    std::printf("\nsojourn time - (some map has not finished)\n");
  }
  std::printf("\ncounters of %s:\n", JobIdString(st.job_id()).c_str());
  for (const auto& c : st.counters()) {
    std::printf("  %-28s %lld\n", c.name().c_str(), static_cast<long long>(c.value()));
  }
  if (auto ratio = master::CombineRatio(st)) {
    std::printf("  %-28s %.3f (combine.records_out / combine.records_in)\n", "combine ratio", *ratio);
  }
}

}  // namespace mr::cli
