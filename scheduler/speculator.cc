#include "scheduler/speculator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <utility>

namespace mr::sched {

namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

double Age(const RunningAttempt& a, double now) { return std::max(0.0, now - a.start_time); }

// LATE's progress rate: progress per second of the attempt's age (0 before any report).
double ProgressRate(const RunningAttempt& a, double now) {
  const double age = Age(a, now);
  return age > 0 ? std::clamp(a.progress, 0.0, 1.0) / age : 0.0;
}

// LATE's estimate of the seconds an attempt has left; forever while it reports no progress.
double TimeLeft(const RunningAttempt& a, double now) {
  const double rate = ProgressRate(a, now);
  return rate > 0 ? (1.0 - std::clamp(a.progress, 0.0, 1.0)) / rate : kForever;
}

struct Candidate {
  const JobView* job;
  const RunningAttempt* attempt;
  double rate;
  double left;
};

std::string Rate(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g/s", r);
  return buf;
}

std::string Seconds(double s) {
  if (std::isinf(s)) return "unknown (no progress yet)";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3gs", s);
  return buf;
}

std::string TaskName(int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "m-%05d", index);
  return buf;
}

}  // namespace

Status SpeculatorOptions::Validate() const {
  auto percentile = [](double p, const char* name) {
    if (p >= 0 && p <= 100) return Status::Ok();
    return Status::InvalidArgument(std::string(name) + " must be in [0, 100], not " +
                                   std::to_string(p));
  };
  MR_RETURN_IF_ERROR(percentile(slow_task_percentile, "--speculative-slow-task"));
  MR_RETURN_IF_ERROR(percentile(slow_node_percentile, "--speculative-slow-node"));
  if (!(cap_fraction >= 0 && cap_fraction <= 1)) {
    return Status::InvalidArgument("--speculative-cap must be in [0, 1], not " +
                                   std::to_string(cap_fraction));
  }
  if (!(min_age >= 0 && min_age <= 86400)) {
    return Status::InvalidArgument("--speculative-min-age must be in [0s, 1d], not " +
                                   std::to_string(min_age));
  }
  return Status::Ok();
}

double Percentile(std::span<const double> values, double p) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (rank - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

int Speculator::Cap(const Snapshot& snap) const {
  int slots = 0;
  for (const WorkerView& w : snap.workers) slots += w.map_slots + w.reduce_slots + w.unified_slots;
  return std::max(1, static_cast<int>(std::floor(options_.cap_fraction * slots + 1e-9)));
}

Decision Speculator::Speculate(const Snapshot& snap) const {
  Decision d;
  const double now = snap.now;
  const WorkerView* me = nullptr;
  for (const WorkerView& w : snap.workers) {
    if (w.id == snap.heartbeating) me = &w;
  }
  if (me == nullptr) return d;
  int free_map = me->free_map, free_unified = me->free_unified;
  if (free_map + free_unified <= 0) return d;
  // New work before speculative work (as Hadoop): a map this worker could start waits.
  for (const JobView& j : snap.jobs) {
    if (!j.pending_maps.empty()) return d;
    for (const QueuedMap& q : j.queued_maps) {
      if (q.worker == me->id) return d;
    }
  }
  int backups = 0;
  std::map<std::pair<JobId, int>, int> attempts;            // running map attempts per task
  std::vector<double> task_rates;                           // the SlowTaskThreshold population
  std::map<WorkerId, std::pair<double, int>> running_rate;  // per worker: sum, count
  for (const JobView& j : snap.jobs) {
    for (const RunningAttempt& a : j.running) {
      if (a.backup) backups++;
      if (a.kind != TaskKind::kMap) continue;
      attempts[{j.id, a.index}]++;
      if (Age(a, now) < options_.min_age) continue;
      const double rate = ProgressRate(a, now);
      task_rates.push_back(rate);
      running_rate[a.worker].first += rate;
      running_rate[a.worker].second++;
    }
  }
  const int cap = Cap(snap);
  if (backups >= cap) return d;
  // A finished attempt's progress rate is 1 / its duration: each worker's measured map
  // rate stands for its recently finished maps.
  std::vector<double> node_rates;
  double my_rate = -1;
  for (const WorkerView& w : snap.workers) {
    double r = -1;
    if (w.map_task_rate > 0) {
      task_rates.push_back(w.map_task_rate);
      r = w.map_task_rate;
    } else if (auto it = running_rate.find(w.id); it != running_rate.end()) {
      r = it->second.first / it->second.second;
    }
    if (r < 0) continue;  // nothing measured yet: not judged
    node_rates.push_back(r);
    if (w.id == me->id) my_rate = r;
  }
  if (task_rates.empty()) return d;
  if (my_rate >= 0 && node_rates.size() >= 2 &&
      my_rate < Percentile(node_rates, options_.slow_node_percentile)) {
    return d;  // a slow worker would make a slow backup
  }
  const double threshold = Percentile(task_rates, options_.slow_task_percentile);
  // A backup only pays when it would finish first: a fresh attempt here takes about
  // 1 / this worker's measured map rate (unknown before its first map: no such check).
  const double fresh = me->map_task_rate > 0 ? 1.0 / me->map_task_rate : 0.0;
  std::vector<Candidate> candidates;
  for (const JobView& j : snap.jobs) {
    if (!j.speculative) continue;
    for (const RunningAttempt& a : j.running) {
      if (a.kind != TaskKind::kMap || a.worker == me->id || attempts[{j.id, a.index}] != 1)
        continue;
      if (Age(a, now) < options_.min_age) continue;
      const double rate = ProgressRate(a, now);
      if (rate >= threshold) continue;
      const double left = TimeLeft(a, now);
      if (left <= fresh) continue;
      candidates.push_back({&j, &a, rate, left});
    }
  }
  // Longest time left first; ties by job (arrival order), then task index.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.left > y.left; });
  for (const Candidate& c : candidates) {
    if (backups >= cap || free_map + free_unified <= 0) break;
    const bool unified = free_map == 0;
    (unified ? free_unified : free_map)--;
    backups++;
    d.assignments.push_back({c.job->id, TaskKind::kMap, c.attempt->index, me->id,
                             unified ? SlotKind::kUnified : SlotKind::kMap, true});
    if (!d.note.empty()) d.note += "; ";
    d.note += "LATE backup of " + TaskName(c.attempt->index) + " (attempt " +
              std::to_string(c.attempt->attempt) + " on worker " +
              std::to_string(c.attempt->worker) + "): rate " + Rate(c.rate) + " below " +
              Rate(threshold) + ", time left " + Seconds(c.left);
  }
  return d;
}

}  // namespace mr::sched
