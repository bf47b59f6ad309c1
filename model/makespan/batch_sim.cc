#include "model/makespan/batch_sim.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <set>

namespace mr::model {

namespace {

bool Finite(double v) { return std::isfinite(v) && v >= 0; }

// Durations keeping `n` tasks' average and maximum: one task of `max`, the others equal.
std::vector<double> Spread(int n, double avg, double max) {
  if (n == 0) return {};
  std::vector<double> out(n, n == 1 ? max : std::max(0.0, (n * avg - max) / (n - 1)));
  out[0] = max;
  return out;
}

using MinHeap = std::priority_queue<double, std::vector<double>, std::greater<double>>;

MinHeap FreeSlots(int count) { return MinHeap(std::greater<double>(), std::vector<double>(count, 0.0)); }

// The index, among a job's n map ends sorted, of the map whose end lets its reduces start
// under slow start f: ceil(f n) maps done, at least one (Hadoop's completedmaps fraction).
size_t SlowStartIndex(size_t n, double f) {
  const auto k = static_cast<size_t>(std::ceil(f * static_cast<double>(n) - 1e-9));
  return std::clamp<size_t>(k, 1, n) - 1;
}

}  // namespace

Status ValidateBatchJob(const BatchJob& job) {
  const std::string where = "job '" + job.name + "': ";
  if (job.map_durations.empty()) return Status::InvalidArgument(where + "needs at least one map");
  for (double d : job.map_durations) {
    if (!Finite(d)) return Status::InvalidArgument(where + "map durations must be finite and >= 0");
  }
  for (double d : job.reduce_durations) {
    if (!Finite(d)) return Status::InvalidArgument(where + "reduce durations must be finite and >= 0");
  }
  if (!Finite(job.shuffle_gap)) return Status::InvalidArgument(where + "the shuffle gap must be finite and >= 0");
  if (job.profile) MR_RETURN_IF_ERROR(ValidateProfile(*job.profile).WithContext("job '" + job.name + "'"));
  return Status::Ok();
}

JobProfile ProfileOf(const BatchJob& job) {
  if (job.profile) return *job.profile;
  return ProfileFromDurations(job.name, job.map_durations, job.reduce_durations, job.shuffle_gap);
}

BatchJob BatchJobFromProfile(const JobProfile& p) {
  BatchJob job;
  job.name = p.name;
  job.map_durations = Spread(p.maps, p.map.avg, p.map.max);
  job.reduce_durations =
      Spread(p.reduces, p.reduce.avg + p.typical_shuffle.avg, p.reduce.max + p.typical_shuffle.max);
  job.shuffle_gap = p.reduces > 0 ? p.first_shuffle.avg : 0;
  job.profile = p;
  return job;
}

std::vector<StagePair> StagePairs(std::span<const JobProfile> profiles, SlotShape slots) {
  std::vector<StagePair> out;
  out.reserve(profiles.size());
  for (const JobProfile& p : profiles) {
    Result<JobEstimate> e = EstimateJob(p, slots.map_slots, slots.reduce_slots);
    out.push_back(e.ok() ? StagePair{e->map_estimate(), e->reduce_estimate()} : StagePair{});
  }
  return out;
}

std::vector<int> JohnsonOrderOn(std::span<const JobProfile> profiles, std::span<const int> subset, SlotShape slots) {
  std::vector<JobProfile> chosen;
  chosen.reserve(subset.size());
  for (int i : subset) chosen.push_back(profiles[i]);
  std::vector<int> local = JohnsonOrder(StagePairs(chosen, slots));
  std::vector<int> out;
  out.reserve(local.size());
  for (int i : local) out.push_back(subset[i]);
  return out;
}

BatchSimResult SimulateValidBatch(std::span<const BatchJob> jobs, std::span<const int> order, SlotShape slots,
                                  const BatchSimOptions& options) {
  BatchSimResult r;
  r.maps_end.assign(jobs.size(), 0);
  r.completion.assign(jobs.size(), 0);
  // Maps: every map is ready at 0 and they are queued job after job, so each goes to the
  // slot that frees first, in queue order (list scheduling).
  MinHeap map_free = FreeSlots(slots.map_slots);
  std::vector<double> launch(jobs.size(), 0);  // when the job's reduces may take a slot
  std::vector<double> ends;
  for (int j : order) {
    ends.clear();
    for (double d : jobs[j].map_durations) {
      const double start = map_free.top();
      map_free.pop();
      map_free.push(start + d);
      ends.push_back(start + d);
    }
    std::sort(ends.begin(), ends.end());
    r.maps_end[j] = ends.back();
    r.completion[j] = ends.back();
    launch[j] = ends.back() + jobs[j].shuffle_gap;
    if (options.reduce_slow_start < 1) launch[j] = ends[SlowStartIndex(ends.size(), options.reduce_slow_start)];
  }
  // Reduces: a job's are ready at its maps' end plus its gap; a freed slot takes the next
  // reduce of the first job in the order with one ready.
  std::vector<std::pair<double, int>> by_ready;  // (ready time, position in order)
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const BatchJob& job = jobs[order[pos]];
    if (!job.reduce_durations.empty()) {
      by_ready.emplace_back(launch[order[pos]], static_cast<int>(pos));
    }
  }
  std::sort(by_ready.begin(), by_ready.end());
  std::set<int> ready;                          // positions with a reduce ready and not started
  std::vector<size_t> next(order.size(), 0);    // per position: its next reduce to start
  MinHeap reduce_free = FreeSlots(slots.reduce_slots);
  size_t admitted = 0;
  double t = 0;  // the time of the next assignment: never earlier than the last one
  while (admitted < by_ready.size() || !ready.empty()) {
    t = std::max(t, reduce_free.top());
    if (ready.empty() && by_ready[admitted].first > t) t = by_ready[admitted].first;
    while (admitted < by_ready.size() && by_ready[admitted].first <= t) ready.insert(by_ready[admitted++].second);
    const int pos = *ready.begin();
    const BatchJob& job = jobs[order[pos]];
    // Held from t; it reduces once its job's maps and shuffle are done.
    const double end = std::max(t, r.maps_end[order[pos]] + job.shuffle_gap) + job.reduce_durations[next[pos]];
    reduce_free.pop();
    reduce_free.push(end);
    r.completion[order[pos]] = std::max(r.completion[order[pos]], end);
    if (++next[pos] == job.reduce_durations.size()) ready.erase(ready.begin());
  }
  for (int j : order) r.makespan = std::max(r.makespan, r.completion[j]);
  return r;
}

double BatchLowerBound(std::span<const BatchJob> jobs, SlotShape slots) {
  double map_work = 0, reduce_work = 0, critical = 0, shortest_map = jobs.empty() ? 0 : HUGE_VAL;
  bool any_reduce = false;
  for (const BatchJob& j : jobs) {
    double longest_map = 0, longest_reduce = 0;
    for (double d : j.map_durations) {
      map_work += d;
      longest_map = std::max(longest_map, d);
      shortest_map = std::min(shortest_map, d);
    }
    for (double d : j.reduce_durations) {
      reduce_work += d;
      longest_reduce = std::max(longest_reduce, d);
      any_reduce = true;
    }
    critical = std::max(critical, longest_map + (j.reduce_durations.empty() ? 0 : j.shuffle_gap + longest_reduce));
  }
  const double reduces = any_reduce ? reduce_work / std::max(1, slots.reduce_slots) + shortest_map : 0;
  return std::max({map_work / std::max(1, slots.map_slots), reduces, critical});
}

Result<BatchSimResult> SimulateBatch(std::span<const BatchJob> jobs, std::span<const int> order, SlotShape slots,
                                     const BatchSimOptions& options) {
  if (slots.map_slots < 1 || slots.reduce_slots < 1) {
    return Status::InvalidArgument("batch simulation: map and reduce slots must be >= 1");
  }
  std::vector<bool> seen(jobs.size(), false);
  for (int j : order) {
    if (j < 0 || j >= static_cast<int>(jobs.size()) || seen[j]) {
      return Status::InvalidArgument("batch simulation: the order must name distinct jobs of the batch");
    }
    seen[j] = true;
    MR_RETURN_IF_ERROR(ValidateBatchJob(jobs[j]));
  }
  if (!(options.reduce_slow_start > 0 && options.reduce_slow_start <= 1)) {
    return Status::InvalidArgument("batch simulation: the reduce slow start must be in (0, 1]");
  }
  return SimulateValidBatch(jobs, order, slots, options);
}

}  // namespace mr::model
