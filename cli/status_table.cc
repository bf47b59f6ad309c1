#include "cli/status_table.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/job_id.h"
#include "common/units.h"
#include "common/worker_labels.h"
#include "master/status_json.h"

namespace mr::cli {

std::string WorkerIdCell(uint32_t id) { return "w" + std::to_string(id); }

std::string MapRateCell(double maps_per_slot_second) {
  if (maps_per_slot_second <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g maps/s/slot", maps_per_slot_second);
  return buf;
}

std::string ShareCell(const proto::JobStatus& st) {
  if (st.state() != "RUNNING" || st.shuffle_bytes_waiting() <= 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", st.share());
  return buf;
}

std::string EstimateCell(const proto::JobStatus& st) {
  if (st.estimate_ignored()) return "n/a under " + st.policy();
  if (st.estimate_source().empty() || st.estimate_source() == "none") return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s %.1fs %s", st.estimate_source().c_str(), st.est_map_seconds(),
                FormatBytes(st.est_shuffle_bytes()).c_str());
  return buf;
}

std::string SojournText(const proto::JobStatus& st) {
  if (st.sojourn_time() > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.3fs (submit to the last map output available to the reducers)", st.sojourn_time());
    return buf;
  }
  const bool ended = st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
  if (st.maps_total() == 0) return "- (the job has no maps)";
  if (ended) return "- (the job ended before all its maps finished)";
  return "- (some map has not finished)";
}

namespace {

std::string Slots(uint32_t busy, uint32_t total) { return std::to_string(busy) + "/" + std::to_string(total); }

// The measured shuffle rate: of the last 2 s while the job runs, the mean over its whole
// shuffle once it has ended ("-": nothing fetched).
std::string RateCell(const proto::JobStatus& st) {
  bool done = st.state() != "RUNNING";
  double rate = done ? st.shuffle_rate_mean() : st.shuffle_rate();
  if (rate <= 0) return done || st.shuffle_bytes_fetched() == 0 ? "-" : "0 B/s";
  return FormatBytes(rate) + "/s";
}

// A worker row's labels as "class=fast,rack=r1" ("-" for none); its name label is its NAME.
std::string LabelsCell(const proto::WorkerRow& w) {
  std::string out;
  for (const auto& l : w.labels()) {
    if (l.key() != kNameLabel) out += (out.empty() ? "" : ",") + l.key() + "=" + l.value();
  }
  return out.empty() ? "-" : out;
}

bool HasOtherLabels(const proto::WorkerRow& w) {
  for (const auto& l : w.labels()) {
    if (l.key() != kNameLabel) return true;
  }
  return false;
}

// The workers table: id and name (the one name shown everywhere), slots busy/total, speed,
// measured map rate per slot (maps/s), queued maps, and LABELS when some worker has any
// besides its name (so an unlabelled cluster's table has no such column).
void PrintWorkers(const proto::StatusReply& r) {
  if (r.worker_rows_size() == 0) return;
  bool labels = false;
  for (const auto& w : r.worker_rows()) labels = labels || HasOtherLabels(w);
  std::printf("%-7s %-12s %-16s %9s %9s %9s %6s %18s %7s%s\n", "WORKER", "NAME", "HOST", "MAP", "REDUCE", "UNIFIED",
              "SPEED", "MAP RATE", "QUEUED", labels ? "  LABELS" : "");
  for (const auto& w : r.worker_rows()) {
    const std::string tail = labels ? "  " + LabelsCell(w) : "";
    std::printf("%-7s %-12.12s %-16.16s %9s %9s %9s %6.3g %18s %7u%s\n", WorkerIdCell(w.id()).c_str(),
                w.name().empty() ? "-" : w.name().c_str(), w.host().c_str(),
                Slots(w.running_map(), w.map_slots()).c_str(), Slots(w.running_reduce(), w.reduce_slots()).c_str(),
                Slots(w.running_unified(), w.unified_slots()).c_str(), w.speed(), MapRateCell(w.map_task_rate()).c_str(),
                w.queued_maps(), tail.c_str());
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
  // A QUEUE column when some job named a capacity queue (mr submit --queue; "-" = default).
  bool queues = false;
  for (const auto& st : r.jobs()) queues = queues || !st.queue().empty();
  std::printf("%-11s %-10s %-9s %4s %7s %6s %10s %6s %12s %-22s %9s%s\n", "JOB", "NAME", "STATE", "MAP", "SHUFFLE",
              "REDUCE", "SHUFFLED", "SHARE", "RATE", "ESTIMATE (x, y)", "TIME", queues ? "  QUEUE" : "");
  double now = SystemClock::Get()->Now();
  for (const auto& st : r.jobs()) {
    char time[32];
    const std::string est = EstimateCell(st);
    double end = st.end_time() > 0 ? st.end_time() : now;
    std::snprintf(time, sizeof time, "%.2fs", end - st.submit_time());
    const std::string queue = queues ? "  " + (st.queue().empty() ? std::string("-") : st.queue()) : "";
    std::printf("%-11s %-10.10s %-9s %4s %7s %6s %10s %6s %12s %-22s %9s%s\n", JobIdString(st.job_id()).c_str(),
                st.name().c_str(), st.state().c_str(), FormatPercent(st.map_progress()).c_str(),
                FormatPercent(st.shuffle_progress()).c_str(), FormatPercent(st.reduce_progress()).c_str(),
                FormatBytes(static_cast<double>(st.shuffle_bytes_fetched())).c_str(), ShareCell(st).c_str(),
                RateCell(st).c_str(), est.c_str(), time, queue.c_str());
    if (!st.error().empty()) std::printf("            error: %s\n", st.error().c_str());
  }
}

namespace {

// `mr status JOB`: an allocating policy's (flex) latest allocation per pool, and why.
void PrintAllocations(const proto::JobStatus& st) {
  if (st.allocations_size() == 0) return;
  std::printf("\nallocation (%s):\n", st.policy().c_str());
  for (const proto::PolicyAllocation& a : st.allocations()) {
    std::printf("  %-7s %u slots (min %u, max %u), #%u in order %s for %s; predicted completion +%.1fs, "
                "objective %.4g (at +%.1fs)\n",
                a.slot().c_str(), a.slots(), a.min_slots(), a.max_slots(), a.rank() + 1, a.order().c_str(),
                a.metric().c_str(), a.completion() - st.submit_time(), a.predicted(), a.time() - st.submit_time());
  }
}

// `mr status JOB`: the tasks' status lines (a streaming program's reporter:status:).
void PrintTaskStatusLines(const proto::JobStatus& st) {
  if (st.task_status_lines_size() == 0) return;
  std::printf("\ntask status:\n");
  for (const std::string& line : st.task_status_lines()) std::printf("  %s\n", line.c_str());
}

// `mr status JOB`: the latest failed attempt, its error and the tail of its stderr.
void PrintFailedAttempt(const proto::JobStatus& st) {
  if (!st.has_last_failed_attempt()) return;
  const proto::FailedAttempt& f = st.last_failed_attempt();
  const std::string name = f.worker_name().empty() ? "" : " (" + f.worker_name() + ")";
  std::printf("\nlast failed attempt: %s attempt %u on worker %s%s, +%.2fs after submit\n  error: %s\n",
              f.task().c_str(), f.attempt(), WorkerIdCell(f.worker()).c_str(), name.c_str(), f.time() - st.submit_time(),
              f.error().c_str());
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
  PrintAllocations(st);
  if (!st.queue().empty()) std::printf("queue %s (--policy capacity)\n", st.queue().c_str());
  PrintTaskStatusLines(st);
  PrintFailedAttempt(st);
  std::printf("\nsojourn time %s\n", SojournText(st).c_str());
  std::printf("\ncounters of %s:\n", JobIdString(st.job_id()).c_str());
  for (const auto& c : st.counters()) {
    std::printf("  %-28s %lld\n", c.name().c_str(), static_cast<long long>(c.value()));
  }
  if (auto ratio = master::CombineRatio(st)) {
    std::printf("  %-28s %.3f (combine.records_out / combine.records_in)\n", "combine ratio", *ratio);
  }
  // Inputs behind a data server (docs/multi-host.md): how much of them the maps read over the network.
  int64_t local = 0, remote = 0;
  for (const auto& c : st.counters()) {
    if (c.name() == "map.input_local_bytes") local = c.value();
    if (c.name() == "map.input_remote_bytes") remote = c.value();
  }
  if (local + remote > 0) {
    std::printf("  %-28s %s (%s of %s; the rest read on the data server's host)\n", "input read remotely:",
                FormatPercent(static_cast<double>(remote) / static_cast<double>(local + remote)).c_str(),
                FormatBytes(static_cast<double>(remote)).c_str(), FormatBytes(static_cast<double>(local + remote)).c_str());
  }
}

}  // namespace mr::cli
