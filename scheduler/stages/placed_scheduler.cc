#include "scheduler/stages/placed_scheduler.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace mr::sched {
namespace {

int SlotIndex(SlotKind k) { return static_cast<int>(k); }

}  // namespace

Decision PlacedScheduler::Schedule(const Snapshot& snap) {
  std::vector<QueueMap> dispatched = placement_.Dispatch(snap);

  // The policy's view: newly dispatched maps join the queues; a job's pending maps are the
  // maps queued at workers with a free map or unified slot.
  Snapshot view = snap;
  std::unordered_map<WorkerId, size_t> pos;
  for (size_t w = 0; w < view.workers.size(); ++w) pos[view.workers[w].id] = w;
  auto can_take = [&](WorkerId id) {
    auto it = pos.find(id);
    if (it == pos.end()) return false;
    const WorkerView& v = view.workers[it->second];
    return v.free_map > 0 || v.free_unified > 0;
  };
  size_t next = 0;
  for (JobView& j : view.jobs) {
    for (; next < dispatched.size() && dispatched[next].job == j.id; ++next) {
      j.queued_maps.push_back({dispatched[next].index, dispatched[next].worker});
      if (auto it = pos.find(dispatched[next].worker); it != pos.end()) view.workers[it->second].queued_maps++;
    }
    // pending_maps of the view are the runnable queued maps; queued_maps keeps the rest.
    std::vector<int> pending;
    std::vector<QueuedMap> queued;
    for (const QueuedMap& q : j.queued_maps) {
      if (can_take(q.worker)) {
        pending.push_back(q.index);
      } else {
        queued.push_back(q);
      }
    }
    std::sort(pending.begin(), pending.end());
    j.pending_maps = std::move(pending);
    j.queued_maps = std::move(queued);
  }

  Decision d = policy_->Schedule(view);

  // Bind each map assignment to a queued map of its job at its worker (or, failing that,
  // at another worker with a free slot of the kind).
  std::unordered_map<JobId, std::vector<QueuedMap>> runnable;  // per job, unbound
  for (const JobView& j : snap.jobs) {
    auto& list = runnable[j.id];
    for (const QueuedMap& q : j.queued_maps) {
      if (can_take(q.worker)) list.push_back(q);
    }
  }
  for (const QueueMap& q : dispatched) {
    if (can_take(q.worker)) runnable[q.job].push_back({q.index, q.worker});
  }
  for (auto& [id, list] : runnable) {
    std::sort(list.begin(), list.end(), [](const QueuedMap& a, const QueuedMap& b) { return a.index < b.index; });
  }
  // Free slots left per worker position and slot kind, after every assignment as made.
  std::vector<std::array<int, 3>> free(view.workers.size());
  for (size_t w = 0; w < view.workers.size(); ++w) {
    free[w] = {view.workers[w].free_map, view.workers[w].free_reduce, view.workers[w].free_unified};
  }
  for (const Assignment& a : d.assignments) {  // backups hold a slot too
    if (auto it = pos.find(a.worker); it != pos.end()) free[it->second][SlotIndex(a.slot)]--;
  }
  std::vector<Assignment> bound;
  bound.reserve(d.assignments.size());
  for (Assignment a : d.assignments) {
    if (a.kind != TaskKind::kMap || a.backup) {
      bound.push_back(a);
      continue;
    }
    auto& list = runnable[a.job];
    auto here = std::find_if(list.begin(), list.end(), [&](const QueuedMap& q) { return q.worker == a.worker; });
    if (here == list.end()) {
      // Elsewhere: a worker holding a queued map of the job with a slot of this kind still free.
      here = std::find_if(list.begin(), list.end(), [&](const QueuedMap& q) {
        auto it = pos.find(q.worker);
        return it != pos.end() && free[it->second][SlotIndex(a.slot)] > 0;
      });
      if (here == list.end()) {
        if (auto it = pos.find(a.worker); it != pos.end()) free[it->second][SlotIndex(a.slot)]++;
        continue;  // dropped: the slot waits for the next round
      }
      if (auto it = pos.find(a.worker); it != pos.end()) free[it->second][SlotIndex(a.slot)]++;
      free[pos[here->worker]][SlotIndex(a.slot)]--;
      a.worker = here->worker;
    }
    a.index = here->index;
    list.erase(here);
    bound.push_back(a);
  }
  d.assignments = std::move(bound);
  d.queue.insert(d.queue.begin(), dispatched.begin(), dispatched.end());
  if (!dispatched.empty()) {
    d.note = d.note.empty() ? "placement " + placement_.last_split()
                            : d.note + "; placement " + placement_.last_split();
  }
  return d;
}

Result<std::unique_ptr<Scheduler>> WithPlacement(std::unique_ptr<Scheduler> policy, const PlacementConfig& config) {
  if (config.mode == PlacementMode::kPull) return policy;
  for (double r : config.given_rates) {
    if (!(r >= 0) || r > 1e9) return Status::InvalidArgument("--placement-rates: each rate must be in [0, 1e9] tasks/s");
  }
  if (config.mode == PlacementMode::kMep) {
    // The solver's own checks, on harmless rates (one node per scv value), name the bad value.
    const std::vector<double> mu(std::max<size_t>(1, config.mep.service_scv.size()), 1.0);
    Status s = model::ValidatePlacementInput(mu, 0.5, config.mep);
    if (!s.ok()) return Status::InvalidArgument("--placement mep parameters: " + s.message());
  }
  return std::unique_ptr<Scheduler>(std::make_unique<PlacedScheduler>(std::move(policy), config));
}

}  // namespace mr::sched
