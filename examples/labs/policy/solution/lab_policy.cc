// Policy lab, the reference solution: weighted fair sharing of slots (the assignment is in
// ../lab_policy.cc and docs/labs/policy-lab.md). For the course staff.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "scheduler/policy_plugin.h"

namespace {

using mr::sched::Assignment;
using mr::sched::Decision;
using mr::sched::JobView;
using mr::sched::SlotKind;
using mr::sched::Snapshot;
using mr::sched::TaskKind;
using mr::sched::WorkerView;

double Weight(const JobView& job) { return job.params.weight > 0 ? job.params.weight : 1.0; }

class WeightedFair final : public mr::sched::Scheduler {
 public:
  std::string_view name() const override { return "lab-wfair"; }

  Decision Schedule(const Snapshot& snap) override {
    Decision d;
    const size_t n = snap.jobs.size();
    std::vector<int> running(n), next_map(n, 0);
    for (size_t j = 0; j < n; ++j) running[j] = snap.jobs[j].maps_running;
    // The job (index) that takes the next map slot: smallest running/weight among jobs with a
    // pending map left; jobs are in arrival order, so the first minimum is the earliest.
    auto pick_map = [&]() {
      int best = -1;
      for (size_t j = 0; j < n; ++j) {
        if (next_map[j] >= static_cast<int>(snap.jobs[j].pending_maps.size())) continue;
        if (best < 0 || running[j] / Weight(snap.jobs[j]) < running[best] / Weight(snap.jobs[best])) {
          best = static_cast<int>(j);
        }
      }
      return best;
    };
    for (const WorkerView& w : snap.workers) {
      int free_map = w.free_map, free_unified = w.free_unified;
      while (free_map + free_unified > 0) {
        const int j = pick_map();
        if (j < 0) break;
        const bool map_slot = free_map > 0;
        (map_slot ? free_map : free_unified)--;
        d.assignments.push_back({snap.jobs[j].id, TaskKind::kMap, snap.jobs[j].pending_maps[next_map[j]++], w.id,
                                 map_slot ? SlotKind::kMap : SlotKind::kUnified});
        ++running[j];
      }
    }
    // Ready reduces, on their own worker; jobs by reduces running / weight.
    std::vector<int> order(n), reduces(n);
    for (size_t j = 0; j < n; ++j) order[j] = static_cast<int>(j), reduces[j] = snap.jobs[j].reduces_running;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return reduces[a] / Weight(snap.jobs[a]) < reduces[b] / Weight(snap.jobs[b]);
    });
    for (const WorkerView& w : snap.workers) {
      int free_reduce = w.free_reduce;
      int free_unified = w.free_unified;
      for (const Assignment& a : d.assignments) {
        if (a.worker == w.id && a.slot == SlotKind::kUnified) --free_unified;
      }
      for (int j : order) {
        for (const mr::sched::ReadyReduce& r : snap.jobs[j].ready_reduces) {
          if (r.worker != w.id || free_reduce + free_unified <= 0) continue;
          const bool reduce_slot = free_reduce > 0;
          (reduce_slot ? free_reduce : free_unified)--;
          d.assignments.push_back({snap.jobs[j].id, TaskKind::kReduce, r.index, w.id,
                                   reduce_slot ? SlotKind::kReduce : SlotKind::kUnified});
        }
      }
    }
    double total = 0;
    for (const JobView& job : snap.jobs) {
      if (job.shuffle_bytes_available > 0) total += Weight(job);
    }
    for (const JobView& job : snap.jobs) {
      if (job.shuffle_bytes_available > 0) d.shuffle_shares[job.id] = Weight(job) / total;
    }
    d.note = "lab-wfair: " + std::to_string(d.assignments.size()) + " assigned";
    return d;
  }
};

mr::sched::Scheduler* Create(const mr::sched::PolicyOptions*, char*, size_t) { return new WeightedFair(); }

const MrPolicyPluginV1 kPlugin = {
    MR_POLICY_PLUGIN_DESCRIPTOR,
    "lab-wfair",
    "policy lab: weighted fair sharing of map and reduce slots and of the shuffle",
    nullptr,
    0,
    {.memory = mr::sched::RoundMemory::kNone, .uses_size_estimates = false},
    Create,
};

}  // namespace

extern "C" MR_POLICY_PLUGIN_EXPORT const MrPolicyPluginV1* mr_policy_plugin_v1() { return &kPlugin; }
