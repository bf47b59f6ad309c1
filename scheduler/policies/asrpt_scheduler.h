// ASRPT ("Minimizing total flow time of MapReduce jobs", Algorithm 1) over the unified
// slots of the whole cluster (docs/policies.md, "asrpt"). The paper's time slot is a round
// of `round` seconds: when a Schedule() call's snap.now reaches the current round's start
// + round (the first call starts round 0), the policy advances its virtual SRPT schedule
// (scheduler/virtual_srpt.h) and computes Algorithm 1's allocation (machines per job,
// scheduler/asrpt_allocation.h) over N = every worker's unified slots. Every call, round
// start or not, hands each free unified slot to the job furthest below its allocation
// (allocation - its running tasks of its current kind on unified slots) that has a task
// for it; slots left when every job is at its allocation go, as Algorithm 1's passes 2
// and 3 would, to ready reduces and then pending maps in ASRPT's job order (work
// conservation). Dedicated reduce and map slots of a mixed cluster are filled in that
// order too. Keeps the virtual schedule and the current allocation between calls; not
// thread-safe.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "scheduler/policies/asrpt_allocation.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/task_placer.h"
#include "scheduler/policies/virtual_srpt.h"

namespace mr::sched {

class AsrptScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  // REQUIRES: round_seconds > 0. virtual_jobs: which jobs the virtual SRPT schedule serves
  // (virtual_srpt.h; option `asrpt-virtual`): the arrival sequence, as the paper, or only
  // the jobs still in the snapshot (the named variant `present`).
  AsrptScheduler(std::string_view name, double round_seconds,
                 VirtualSrpt::Membership virtual_jobs = VirtualSrpt::Membership::kArrivals)
      : name_(name), round_(round_seconds), srpt_(virtual_jobs) {}
  std::string_view name() const override { return name_; }
  SnapshotScope scope() const override { return SnapshotScope::kCluster; }
  bool requires_unified_slots() const override { return true; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  struct Planned {
    int alloc = 0;        // machines (unified slots) of Algorithm 1, kept reduces included
    int pos = 0;          // place in ASRPT's order at the round's start
    double workload = 0;  // its available workload then: unchanged keeps its place next round
  };
  // This call's view of job j (index into snap.jobs), read once per call so that the
  // passes below touch this compact array rather than the JobViews.
  struct Live {
    bool map_phase = true;
    bool probe = false;    // AsrptJob::probe
    bool shuffle = false;  // has shuffle data to send
    int running = 0;       // tasks of its current kind on unified slots
    int kept = 0;          // reduces on unified slots (whatever its phase)
    int tasks = 0;         // pending maps (map phase) or ready reduces in the snapshot
    int alloc = 0;
    int pos = 0;           // planned jobs first; jobs that arrived since, after them
  };
  // A job below its allocation, in FillUnified's heap.
  struct Want {
    int deficit = 0;
    int pos = 0;
    int job = 0;
  };
  struct Key {
    double workload;
    int arrival;  // place in arrival order
    int job;
  };

  // live_ for `snap`, alloc and pos left 0.
  void ReadLive(const Snapshot& snap);
  // Starts the round(s) snap.now has reached and plans the current one; Plan also sets
  // alloc and pos in live_ and by_pos_ for `snap`, as ReadPlan does between rounds.
  void NewRound(const Snapshot& snap, int machines);
  void Plan(const Snapshot& snap, int machines);
  // keys_ in ASRPT order (smallest available workload first, ties by arrival).
  void OrderKeys(const Snapshot& snap);
  // alloc, pos and by_pos_ for `snap` from the round's plan.
  void ReadPlan(const Snapshot& snap);
  void FillUnified(TaskPlacer& placer);
  void FillInOrder(TaskPlacer& placer, SlotKind slot, bool reduces);
  void Shares(const Snapshot& snap, Decision* d);

  std::string_view name_;
  double round_;
  bool started_ = false;
  double round_start_ = 0;
  uint64_t round_index_ = 0;
  int plan_count_ = 0;  // jobs in the plan: positions 0 .. plan_count_ - 1
  VirtualSrpt srpt_;
  std::vector<std::pair<JobId, Planned>> plan_;  // sorted by id
  // Scratch, kept so that a call allocates nothing once they have grown.
  bool any_shuffle_ = false;  // some job of this call has shuffle data
  std::vector<AsrptJob> jobs_;
  std::vector<int> order_, rank_, alloc_;
  std::vector<Key> keys_, slots_, run_, rest_;
  std::vector<Live> live_;
  std::vector<int> by_pos_;  // job indices in ASRPT order (this call)
  std::vector<int> extra_;   // jobs not in the plan (this call), snapshot order
  std::vector<int> want_;    // jobs below their allocation (this call), snapshot order
  std::vector<Want> heap_;
  std::vector<std::pair<JobId, double>> share_pairs_;
};

}  // namespace mr::sched
