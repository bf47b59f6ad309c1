// SplitSRPT (Algorithm 2 of the overlapping-phases paper, docs/policies.md). With
// beta = min over estimated jobs of max(x/y, y/x) on original sizes, mu1 =
// 1/(1+beta), mu2 = beta/(1+beta): map-heavy jobs (x >= y) hold round(mu2 * map
// slots) and shuffle share mu1, served SRPT on remaining map size; shuffle-heavy
// jobs hold the other map slots and share mu2, SRPT on remaining shuffle size.
// A class that is empty or cannot use its slots leaves them to the other class.
// As in the paper, a job leaves Q(t) (beta and the classes) when its shuffle is
// over (sched::ShuffleDone); map-heavy jobs with the same remaining map size (0
// once their maps are done) go by remaining shuffle size, as in the fluid model.
// Jobs with no estimate get one probe map, then only leftovers. Only the head
// of each order that the free slots reach is sorted.
//
// Placement (not in the paper, whose shuffle is one station): a class whose
// target is below the number of workers would otherwise keep re-taking the slot
// its own map just freed, so all of its jobs' map output would sit on the same
// few workers and leave through their shuffle links only. Such a class does not
// take a slot on one of the `target` workers it most recently started maps on
// while the other class can use that slot; its maps rotate over the workers and
// its output spreads over every link (docs/policies.md). This recency is the
// only state kept between calls besides scratch buffers; not thread-safe.
#pragma once

#include <span>
#include <vector>

#include "scheduler/util/incremental_order.h"
#include "scheduler/util/job_sizes.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/slot_filler.h"

namespace mr::sched {

class SplitSrptScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  // uncapped_link_rate: bytes/s an uncapped worker link is scored at (the row's
  // link-rate option); 0 = not given, the shuffle is then free (sched::CapacityOf).
  explicit SplitSrptScheduler(std::string_view name, double uncapped_link_rate = 0)
      : name_(name), uncapped_link_rate_(uncapped_link_rate) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

  // beta(t) over the estimated jobs; +infinity if every such job has only map
  // or only shuffle work, 1 if there is no estimated job.
  static double Beta(std::span<const JobSize> sizes);

 private:
  // This decision's jobs by class; refilled by Classify() on every call.
  struct Classes {
    std::vector<int> map_heavy;      // S1 members, arrival order
    std::vector<int> shuffle_heavy;  // S2 members, arrival order
    std::vector<int> unknown;        // no estimate, arrival order
    IncrementalOrder map_order;      // S1 by remaining map size (SRPT)
    IncrementalOrder shuffle_order;  // S2 by remaining shuffle size (SRPT)
    std::vector<double> key;         // per job: its class's SRPT key, +inf if unknown
    std::vector<double> minor;       // per job: the tie-break (S1: remaining shuffle)
    IncrementalOrder reduce_order;   // jobs that can place a reduce, by key
    bool counts_valid = true;        // no job reports negative running maps
  };
  void Classify(const Snapshot& snap);
  // The workers class `k` (0 = map-heavy, 1 = shuffle-heavy) should not take a
  // slot on now, given its target of `target` slots among `workers` workers.
  std::span<const WorkerId> Avoid(int k, int target, int workers);
  // Records the workers of d.assignments[from..] as class k's most recent.
  void NoteStarts(int k, const Decision& d, size_t from);

  // Per class: distinct workers it started maps on, least recent first.
  std::string_view name_;
  double uncapped_link_rate_;
  std::vector<WorkerId> recent_[2];

  std::vector<int> arrival_;
  std::vector<JobSize> sizes_;
  std::vector<JobSize> present_sizes_;  // of the jobs still in Q(t), for beta
  Classes c_;
  SlotFillerBuffers buffers_;
};

}  // namespace mr::sched
