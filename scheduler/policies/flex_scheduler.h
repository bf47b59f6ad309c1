// FLEX ("FLEX: A Slot Allocation Scheduling Optimizer for MapReduce Workloads") as a live
// policy (docs/policies.md, "flex"). Once per epoch (`epoch` seconds of snap.now, counted
// from the first call that sees a job, and again from the first call that sees none of the
// jobs the previous call saw, e.g. after a call that saw none: an idle spell;
// under FlexLiveOptions::kMembership also at once when a job or a job's phase enters or
// leaves a pool) it builds one flex::FlexProblem
// per pool of slots - the map slots (jobs with maps left), the reduce slots (jobs whose
// reduces have begun) and the unified slots (each job in its current phase) - and keeps
// flex::Allocate's first-interval allocation until the next recomputation. Per job and pool:
//   work    the phase's remaining slot-seconds from the snapshot's estimate (re-estimated by
//           the master after every finished task); without an estimate, 1 s per task left;
//   minimum the job's --min-slots plus its share of its pool's min_maps / min_reduces (the
//           pools file; split among the pool's jobs of that phase by weight, SplitByWeight,
//           or evenly, SplitMaxMin), at least 1 while the phase has no finished task (a new
//           phase gets a slot so it can be measured);
//   maximum the phase's tasks left, capped by --max-slots and the pool's max_maps /
//           max_reduces (split max-min); a job whose pool maximum leaves it 0 slots
//           is left out of the problem;
//   metric  the job's --metric, else the policy's `metric`; a deadline metric without a
//           deadline treats the job as never late (its deadline is far in the future).
// Every Schedule() call hands each free slot to the job furthest below its allocation (ties:
// the winning order) that has a task for it, then the slots still free to the jobs in that
// order, never above a job's maximum - so no slot stays idle while a job below its maximum
// has a task that may run on it. Reduces of jobs still in their map phase go to unified slots
// only after every phase's tasks. Keeps the plan between calls; not thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scheduler/flex/allocator.h"
#include "scheduler/flex/metrics.h"
#include "scheduler/policies/pool_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/task_placer.h"

namespace mr::sched {

// The live layer's choices where the paper leaves room (docs/policies.md, "flex",
// "Departures"); the defaults are the paper's.
struct FlexLiveOptions {
  // When a pool is recomputed: kEpoch only at epochs (the paper); kMembership also at once
  // when a job or a job's phase enters or leaves the pool (option flex-replan membership).
  enum class Replan { kEpoch, kMembership } replan = Replan::kEpoch;
  // Which new phase (no task finished) gets at least 1 slot: kAlways every one (the paper,
  // so that its first task measures it); kUnestimated only one the master has no estimate
  // for (a hint or a profile makes the measurement moot; option flex-new-phase unestimated).
  enum class NewPhase { kAlways, kUnestimated } new_phase = NewPhase::kAlways;
  // How a pool's minimum (min_maps / min_reduces) is split among its jobs: kWeighted as the
  // paper's platform, Hadoop 0.20's Fair Scheduler, does (SplitByWeight); kEven max-min in
  // whole slots regardless of weight (SplitMaxMin; option flex-pool-split even).
  enum class PoolSplit { kWeighted, kEven } pool_split = PoolSplit::kWeighted;
};

class FlexScheduler final : public Scheduler {
 public:
  // name: the policy table row's; must outlive the object. REQUIRES: epoch_seconds > 0.
  FlexScheduler(std::string_view name, double epoch_seconds, flex::Metric metric, PoolTable pools = PoolTable(),
                flex::FlexOptions options = {}, FlexLiveOptions live = {})
      : name_(name), epoch_(epoch_seconds), metric_(metric), pools_(std::move(pools)), options_(options),
        live_(live) {}
  std::string_view name() const override { return name_; }
  SnapshotScope scope() const override { return SnapshotScope::kCluster; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  static constexpr int kPools = 3;  // by SlotKind: map, reduce, unified
  // One job's place in one pool's plan.
  struct Planned {
    JobId job = 0;
    int alloc = 0;
    int cap = 0;   // its maximum when planned
    int limit = 0;  // the part of it that is not its tasks left: --max-slots, the pool's share
    int rank = 0;  // in the winning order
  };
  struct Plan {
    std::vector<Planned> jobs;  // sorted by job id
    std::string order;
    double predicted = 0;
  };
  // A job's share of pool `kind` in this call.
  struct Member {
    int job = 0;       // index into snap.jobs
    int running = 0;   // its attempts on slots of this kind
    int tasks = 0;     // tasks of the phase not done (the natural maximum)
    double work = 0;   // remaining slot-seconds
    bool measured = false;  // exempt from the new-phase slot (FlexLiveOptions::new_phase)
  };

  // Per member: its maximum (cap: tasks left, --max-slots, its share of its pool's maximum),
  // the part of it that is not its tasks (limit), and its share of its pool's minimum.
  struct Bounds {
    std::vector<int> cap, limit, min;
  };

  // The jobs taking part in pool `kind` (empty when the cluster has no such slot).
  std::vector<Member> Members(const Snapshot& snap, SlotKind kind) const;
  Bounds PoolBounds(const Snapshot& snap, SlotKind kind, const std::vector<Member>& members) const;
  // Recomputes plans_[kind] from snap and appends its JobAllocations to d.
  void Replan(const Snapshot& snap, SlotKind kind, const std::vector<Member>& members, int slots, Decision* d);
  // Places free slots of `kind` per plans_[kind] (deficits, then order within maxima).
  void Fill(const Snapshot& snap, SlotKind kind, const std::vector<Member>& members, TaskPlacer& placer);
  const Planned* Find(SlotKind kind, JobId id) const;

  std::string_view name_;
  double epoch_;
  flex::Metric metric_;
  PoolTable pools_;
  flex::FlexOptions options_;
  FlexLiveOptions live_;
  bool started_ = false;
  double epoch_start_ = 0;
  uint64_t epochs_ = 0;
  std::vector<JobId> seen_;  // the previous call's jobs, sorted
  Plan plans_[kPools];
  std::string note_;
};

// The integer max-min split of `total` slots among claimants of the given demands (each
// gets at most its demand; what one cannot use goes to the others; ties to the lower index).
// For a pool's minimum or maximum among its jobs. REQUIRES: total >= 0, demands >= 0.
std::vector<int> SplitMaxMin(int total, const std::vector<int>& demands);

// A pool's minimum among its jobs as the Fair Scheduler of Hadoop 0.20 splits it (FLEX's
// platform): passes that give each job still short of its demand floor(left x weight /
// total weight) of the slots left at the pass's start; when a pass gives nothing, one last
// pass in order of weight (heaviest first; Hadoop then breaks ties by deficit, which flex
// does not keep: here by the lower index, i.e. arrival) gives each the ceiling instead.
// Whole slots; each job at most its demand. REQUIRES: total >= 0, demands >= 0, weights > 0,
// demands.size() == weights.size().
std::vector<int> SplitByWeight(int total, const std::vector<int>& demands, const std::vector<double>& weights);

}  // namespace mr::sched
