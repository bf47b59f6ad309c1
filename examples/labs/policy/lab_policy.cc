// Policy lab: weighted fair sharing of slots (docs/labs/policy-lab.md).
//
// Your policy, "lab-wfair", decides every scheduling round from a Snapshot (what the cluster
// looks like now) and returns a Decision (which task goes on which free slot). Complete the
// three TODOs in Schedule() so that:
//   1. every free map slot (and unified slot) of every worker in the snapshot goes to a
//      pending map of the job with the smallest  running maps / weight  among the jobs that
//      still have pending maps (ties: the earlier arrival); a map you give a slot counts as
//      running for the next slot of the same round;
//   2. every ready reduce takes a free reduce slot (or unified slot) on its own worker
//      (r.worker), jobs again by  running reduces / weight, smallest first;
//   3. the shuffle is shared by weight: each job with shuffle_bytes_available > 0 gets the
//      share  weight / (sum of the weights of those jobs).
// A job's weight is job.params.weight (mr run --weight W; 1 by default).
// Never give more slots than a worker has free, never assign a task twice.
//
// Build and grade:   ./grade.sh        (see the lab page for what it checks)
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

class WeightedFair final : public mr::sched::Scheduler {
 public:
  std::string_view name() const override { return "lab-wfair"; }

  Decision Schedule(const Snapshot& snap) override {
    Decision d;
    // TODO 1: maps. For each worker w of snap.workers, while it has a free map slot
    // (w.free_map) or unified slot (w.free_unified), pick the job by running/weight (count
    // job.maps_running plus the maps you assigned this round) among jobs with a pending map
    // not yet assigned, and push_back an Assignment{job.id, TaskKind::kMap, index, w.id,
    // SlotKind::kMap or SlotKind::kUnified}.

    // TODO 2: ready reduces (job.ready_reduces): on their own worker, reduce slot first, then
    // unified; jobs by reduces_running / weight.

    // TODO 3: d.shuffle_shares[job.id] = weight / total weight, over the jobs with
    // shuffle_bytes_available > 0.

    d.note = "lab-wfair";
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
