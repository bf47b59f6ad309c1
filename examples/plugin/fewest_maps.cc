// An example plug-in policy (docs/policies.md, "Plug-in policies"): fewest remaining maps
// first. Each round the jobs are ordered by the maps they still have to run (pending +
// running; option fewest-by=total: by their number of maps), fewest first, ties by arrival;
// the free map (and unified) slots go to the first job's pending maps, then the next's; every
// ready reduce takes a free reduce (or unified) slot on its worker, in the same order. The
// job with the fewest maps left also gets the whole shuffle share while it has data to send.
//
// Built as a shared library against mrlab's headers only:
//   in the tree:   cmake --build build --target fewest_maps      (build/examples/plugin/)
//   out of tree:   cmake -S examples/plugin -B b -DCMAKE_PREFIX_PATH=PREFIX && cmake --build b
// and run with   mr master --policy-plugin libfewest_maps.so --policy fewest-maps ...
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/policy_plugin.h"

namespace {

using mr::sched::Decision;
using mr::sched::JobView;
using mr::sched::Snapshot;

class FewestMapsFirst final : public mr::sched::Scheduler {
 public:
  explicit FewestMapsFirst(bool by_total) : by_total_(by_total) {}
  std::string_view name() const override { return "fewest-maps"; }

  Decision Schedule(const Snapshot& snap) override {
    Decision d;
    std::vector<int> order(snap.jobs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    auto left = [&](const JobView& j) {
      return by_total_ ? j.maps_total : static_cast<int>(j.pending_maps.size()) + j.maps_running;
    };
    // Jobs come in arrival order: a stable sort keeps it among equals.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return left(snap.jobs[a]) < left(snap.jobs[b]); });
    for (const mr::sched::WorkerView& w : snap.workers) {
      int free_map = w.free_map, free_reduce = w.free_reduce, free_unified = w.free_unified;
      for (int j : order) {
        const JobView& job = snap.jobs[j];
        for (const mr::sched::ReadyReduce& r : job.ready_reduces) {
          if (r.worker != w.id || (free_reduce == 0 && free_unified == 0)) continue;
          const bool reduce_slot = free_reduce > 0;
          (reduce_slot ? free_reduce : free_unified)--;
          d.assignments.push_back({job.id, mr::sched::TaskKind::kReduce, r.index, w.id,
                                   reduce_slot ? mr::sched::SlotKind::kReduce : mr::sched::SlotKind::kUnified});
        }
      }
      for (int j : order) {
        const JobView& job = snap.jobs[j];
        for (int m : job.pending_maps) {
          if (free_map == 0 && free_unified == 0) break;
          if (Taken(d, job.id, m)) continue;
          const bool map_slot = free_map > 0;
          (map_slot ? free_map : free_unified)--;
          d.assignments.push_back({job.id, mr::sched::TaskKind::kMap, m, w.id,
                                   map_slot ? mr::sched::SlotKind::kMap : mr::sched::SlotKind::kUnified});
        }
      }
    }
    for (int j : order) {
      if (snap.jobs[j].shuffle_bytes_available > 0) {
        d.shuffle_shares[snap.jobs[j].id] = 1.0;
        break;
      }
    }
    d.note = order.empty() ? "fewest-maps: no jobs" : "fewest-maps: job " + std::to_string(snap.jobs[order[0]].id) + " first";
    return d;
  }

 private:
  // A map already given a slot this round (scope kHeartbeat shows one worker, but a policy
  // must not assume it).
  static bool Taken(const Decision& d, mr::sched::JobId job, int index) {
    for (const mr::sched::Assignment& a : d.assignments) {
      if (a.job == job && a.kind == mr::sched::TaskKind::kMap && a.index == index) return true;
    }
    return false;
  }

  bool by_total_;
};

constexpr mr::sched::OptionSpec kOptions[] = {
    {"fewest-by", mr::sched::OptionType::kString, "remaining",
     "fewest-maps: order jobs by their remaining maps (remaining) or by all their maps (total)"},
};

mr::sched::Scheduler* Create(const mr::sched::PolicyOptions* options, char* error, size_t error_size) {
  const std::string& by = options->String("fewest-by");
  if (by != "remaining" && by != "total") {
    std::snprintf(error, error_size, "--fewest-by '%s': expected remaining or total", by.c_str());
    return nullptr;
  }
  return new FewestMapsFirst(by == "total");
}

const MrPolicyPluginV1 kPlugin = {
    MR_POLICY_PLUGIN_DESCRIPTOR,
    "fewest-maps",
    "example plug-in: the job with the fewest maps left first",
    kOptions,
    std::size(kOptions),
    {.uses_size_estimates = false},
    Create,
};

}  // namespace

extern "C" MR_POLICY_PLUGIN_EXPORT const MrPolicyPluginV1* mr_policy_plugin_v1() { return &kPlugin; }
