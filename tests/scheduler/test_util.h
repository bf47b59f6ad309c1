// Builders for hand-made snapshots and a checker of the Scheduler contract
// (free slots respected, each task at most once, reduces on their worker).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "scheduler/snapshot.h"

namespace mr::sched::testing {

inline WorkerView MakeWorker(WorkerId id, int free_map, int free_reduce = 0, int free_unified = 0,
                             double speed = 1.0) {
  WorkerView w;
  w.id = id;
  w.map_slots = w.free_map = free_map;
  w.reduce_slots = w.free_reduce = free_reduce;
  w.unified_slots = w.free_unified = free_unified;
  w.speed = speed;
  return w;
}

inline JobView MakeJob(JobId id, int pending_maps, double submit_time = -1) {
  JobView j;
  j.id = id;
  j.name = "job" + std::to_string(id);
  j.submit_time = submit_time < 0 ? double(id) : submit_time;
  j.maps_total = pending_maps;
  j.pending_maps.resize(pending_maps);
  std::iota(j.pending_maps.begin(), j.pending_maps.end(), 0);
  return j;
}

// Sets an estimate with x, y in the snapshot's normalised seconds, given the
// cluster's map capacity (slots*speed) and shuffle capacity in bytes/s.
inline void SetSize(JobView* j, double x_total, double y_total, double x_rem, double y_rem,
                    double map_cap, double shuffle_cap) {
  j->estimate.source = EstimateSource::kOnline;
  j->estimate.map_seconds_total = x_total * map_cap;
  j->estimate.map_seconds_remaining = x_rem * map_cap;
  j->estimate.shuffle_bytes_total = y_total * shuffle_cap;
  j->estimate.shuffle_bytes_remaining = y_rem * shuffle_cap;
}

inline std::map<JobId, int> MapsPerJob(const Decision& d) {
  std::map<JobId, int> n;
  for (const Assignment& a : d.assignments) {
    if (a.kind == TaskKind::kMap) ++n[a.job];
  }
  return n;
}

inline ::testing::AssertionResult CheckContract(const Snapshot& snap, const Decision& d) {
  std::map<WorkerId, const WorkerView*> workers;
  for (const WorkerView& w : snap.workers) workers[w.id] = &w;
  std::map<JobId, const JobView*> jobs;
  for (const JobView& j : snap.jobs) jobs[j.id] = &j;
  std::map<std::pair<WorkerId, SlotKind>, int> used;
  std::set<std::tuple<JobId, TaskKind, int>> seen;
  for (const Assignment& a : d.assignments) {
    if (!workers.count(a.worker)) return ::testing::AssertionFailure() << "unknown worker";
    if (!jobs.count(a.job)) return ::testing::AssertionFailure() << "unknown job " << a.job;
    if (!seen.insert({a.job, a.kind, a.index}).second) {
      return ::testing::AssertionFailure() << "task assigned twice: job " << a.job << " index " << a.index;
    }
    const JobView& j = *jobs[a.job];
    if (a.kind == TaskKind::kMap) {
      if (a.slot == SlotKind::kReduce) return ::testing::AssertionFailure() << "map in reduce slot";
      if (std::find(j.pending_maps.begin(), j.pending_maps.end(), a.index) == j.pending_maps.end()) {
        return ::testing::AssertionFailure() << "map not pending";
      }
    } else {
      if (a.slot == SlotKind::kMap) return ::testing::AssertionFailure() << "reduce in map slot";
      bool ok = false;
      for (const ReadyReduce& r : j.ready_reduces) ok |= r.index == a.index && r.worker == a.worker;
      if (!ok) return ::testing::AssertionFailure() << "reduce not ready on worker " << a.worker;
    }
    ++used[{a.worker, a.slot}];
  }
  for (const auto& [key, n] : used) {
    const WorkerView& w = *workers[key.first];
    int cap = key.second == SlotKind::kMap      ? w.free_map
              : key.second == SlotKind::kReduce ? w.free_reduce
                                                : w.free_unified;
    if (n > cap) return ::testing::AssertionFailure() << "worker " << w.id << " over-assigned";
  }
  double sum = 0;
  for (const auto& [job, share] : d.shuffle_shares) {
    if (!jobs.count(job) || share < 0 || share > 1) return ::testing::AssertionFailure() << "bad share";
    sum += share;
  }
  if (sum > 1 + 1e-9) return ::testing::AssertionFailure() << "shares sum to " << sum;
  return ::testing::AssertionSuccess();
}

}  // namespace mr::sched::testing
