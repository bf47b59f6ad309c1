#include "scheduler/stages/speculator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <utility>

#include "common/stats.h"

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

std::string TaskName(TaskKind kind, int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c-%05d", kind == TaskKind::kMap ? 'm' : 'r', index);
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

double Percentile(std::span<const double> values, double p) { return QuantileLinear(values, p / 100.0); }

int Speculator::Cap(const Snapshot& snap) const {
  int slots = 0;
  for (const WorkerView& w : snap.workers) slots += w.map_slots + w.reduce_slots + w.unified_slots;
  return std::max(1, static_cast<int>(std::floor(options_.cap_fraction * slots + 1e-9)));
}

namespace {

// A worker's measured rate of finished tasks of this kind (0 = none finished yet).
double MeasuredRate(const WorkerView& w, TaskKind kind) {
  return kind == TaskKind::kMap ? w.map_task_rate : w.reduce_task_rate;
}

// The task indices of j's running attempts of `kind`, sorted: a task listed twice has a backup.
std::vector<int> RunningIndices(const JobView& j, TaskKind kind) {
  std::vector<int> out;
  for (const RunningAttempt& b : j.running) {
    if (b.kind == kind) out.push_back(b.index);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// indices: RunningIndices(j, a.kind). Sorted once per job, not a scan of j.running per
// attempt: that made a speculation round quadratic in running attempts (issue 29: 81% of
// the master's state thread with 5,000 workers on a job of 15,000 maps).
bool HasBackup(const JobView& j, const RunningAttempt& a, const std::vector<int>& indices) {
  if (a.kind == TaskKind::kReduce &&
      std::find(j.reduce_backups_fetching.begin(), j.reduce_backups_fetching.end(), a.index) !=
          j.reduce_backups_fetching.end()) {
    return true;
  }
  auto [lo, hi] = std::equal_range(indices.begin(), indices.end(), a.index);
  return hi - lo != 1;
}

}  // namespace

// One round's state shared by the map and the reduce pass: the asking worker's free slots
// (a unified slot serves either kind) and the backups running or fetching (SpeculativeCap
// counts both kinds).
struct Speculator::Round {
  const WorkerView* me = nullptr;
  int free_map = 0, free_reduce = 0, free_unified = 0;
  int backups = 0;
  int cap = 0;
  int Free(TaskKind kind) const { return (kind == TaskKind::kMap ? free_map : free_reduce) + free_unified; }
  // Takes a slot for a backup of this kind: the kind's own first, then a unified one.
  SlotKind Take(TaskKind kind) {
    int& own = kind == TaskKind::kMap ? free_map : free_reduce;
    backups++;
    if (own > 0) {
      own--;
      return kind == TaskKind::kMap ? SlotKind::kMap : SlotKind::kReduce;
    }
    free_unified--;
    return SlotKind::kUnified;
  }
};

void Speculator::SpeculateKind(const Snapshot& snap, TaskKind kind, Round& round, Decision* d) const {
  const double now = snap.now;
  const WorkerView& me = *round.me;
  if (round.Free(kind) <= 0 || round.backups >= round.cap) return;
  std::vector<double> task_rates;                           // the SlowTaskThreshold population
  std::unordered_map<WorkerId, std::pair<double, int>> running_rate;  // per worker: sum, count
  running_rate.reserve(snap.workers.size());
  for (const JobView& j : snap.jobs) {
    for (const RunningAttempt& a : j.running) {
      if (a.kind != kind || Age(a, now) < options_.min_age) continue;
      const double rate = ProgressRate(a, now);
      task_rates.push_back(rate);
      running_rate[a.worker].first += rate;
      running_rate[a.worker].second++;
    }
  }
  // A finished attempt's progress rate is 1 / its duration: each worker's measured rate
  // stands for its recently finished tasks of the kind.
  std::vector<double> node_rates;
  double my_rate = -1;
  for (const WorkerView& w : snap.workers) {
    double r = -1;
    if (MeasuredRate(w, kind) > 0) {
      r = MeasuredRate(w, kind);
      task_rates.push_back(r);
    } else if (auto it = running_rate.find(w.id); it != running_rate.end()) {
      r = it->second.first / it->second.second;
    }
    if (r < 0) continue;  // nothing measured yet: not judged
    node_rates.push_back(r);
    if (w.id == me.id) my_rate = r;
  }
  if (task_rates.empty()) return;
  if (my_rate >= 0 && node_rates.size() >= 2 &&
      my_rate < Percentile(node_rates, options_.slow_node_percentile)) {
    return;  // a slow worker would make a slow backup
  }
  const double threshold = Percentile(task_rates, options_.slow_task_percentile);
  // A backup only pays when it would finish first: a fresh attempt here takes about
  // 1 / this worker's measured rate (unknown before its first such task: no such check).
  // For a reduce that includes fetching its partition again, which the rate (measured from
  // slot-holding attempts) leaves out.
  const double fresh = MeasuredRate(me, kind) > 0 ? 1.0 / MeasuredRate(me, kind) : 0.0;
  std::vector<Candidate> candidates;
  for (const JobView& j : snap.jobs) {
    if (!j.params.speculative) continue;
    const std::vector<int> indices = RunningIndices(j, kind);
    for (const RunningAttempt& a : j.running) {
      if (a.kind != kind || a.worker == me.id || a.backup || HasBackup(j, a, indices)) continue;
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
    if (round.backups >= round.cap || round.Free(kind) <= 0) break;
    const SlotKind slot = round.Take(kind);
    d->assignments.push_back({c.job->id, kind, c.attempt->index, me.id, slot, true});
    if (!d->note.empty()) d->note += "; ";
    d->note += "LATE backup of " + TaskName(kind, c.attempt->index) + " (attempt " +
               std::to_string(c.attempt->attempt) + " on worker " + std::to_string(c.attempt->worker) +
               "): rate " + Rate(c.rate) + " below " + Rate(threshold) + ", time left " + Seconds(c.left);
  }
}

Decision Speculator::Speculate(const Snapshot& snap) const {
  Decision d;
  Round round;
  for (const WorkerView& w : snap.workers) {
    if (w.id == snap.heartbeating) round.me = &w;
  }
  if (round.me == nullptr) return d;
  round.free_map = round.me->free_map;
  round.free_reduce = round.me->free_reduce;
  round.free_unified = round.me->free_unified;
  // New work before speculative work (as Hadoop): a map this worker could start, or a
  // reduce ready on it, waits for no backup.
  bool ready_here = false;
  for (const JobView& j : snap.jobs) {
    if (!j.pending_maps.empty()) return d;
    for (const QueuedMap& q : j.queued_maps) {
      if (q.worker == round.me->id) return d;
    }
    for (const ReadyReduce& r : j.ready_reduces) ready_here = ready_here || r.worker == round.me->id;
    round.backups += static_cast<int>(j.reduce_backups_fetching.size());
    for (const RunningAttempt& a : j.running) round.backups += a.backup;
  }
  round.cap = Cap(snap);
  SpeculateKind(snap, TaskKind::kMap, round, &d);
  if (snap.reduce_backups && !ready_here) SpeculateKind(snap, TaskKind::kReduce, round, &d);
  return d;
}

}  // namespace mr::sched
