// Capacity: the model of Hadoop 1's Capacity Scheduler (docs/policies.md, "capacity"). Named
// queues (scheduler/policies/capacity_queues.h), each guaranteed a share of the map and of the
// reduce slots (a percentage of the unbound workers' slots, or a number of slots, shrunk in
// proportion when the live workers have fewer), or bound to the workers carrying a label. Each free slot goes to the queue
// that uses the smallest fraction of its guarantee (in_use / guaranteed; ties in file order)
// among those with a task that can run there and below their max_capacity; within a queue,
// to its first job in arrival order that has one (FIFO). A queue with nothing to run leaves
// its guarantee to the others (they borrow it), and gets it back as the borrowed tasks
// finish: a freed slot goes to the queue furthest below its guarantee. Nothing is preempted.
// Reduces are handed out first, one at a time, by the same rule over reduce slots; then maps.
//
// A queue bound to a label is an exclusive partition: its jobs run only on the workers
// carrying the label, which run only its jobs (MayRunOn); the other queues share the
// remaining workers and lend and borrow among themselves. A job naming a queue the file does
// not list (one recovered after a restart with another file: AdmitJob refuses them at
// submit) runs on the shared workers with a guarantee of 0, after every listed queue.
//
// Shuffle: the queues with shuffle data share the capacity in proportion to their guaranteed
// map slots; within a queue the earliest job with data takes the queue's share.
// Keeps nothing between rounds but scratch buffers (RoundMemory::kNone); not thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "scheduler/policies/capacity_queues.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/slot_filler.h"

namespace mr::sched {

class CapacityScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  explicit CapacityScheduler(std::string_view name, CapacityQueues queues = CapacityQueues())
      : name_(name), queues_(std::move(queues)) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;
  // InvalidArgument for a queue the file does not list ("" without a "default" queue),
  // naming the known queues.
  Status AdmitJob(const JobParams& job) const override { return queues_.Check(job.queue); }
  // A bound queue's job: only on a worker its queue owns; any other job: only on a worker
  // no queue owns.
  bool MayRunOn(const JobParams& job, const WorkerLabels& labels) const override;
  std::vector<QueueUse> Queues(const Snapshot& snap) const override;

  const CapacityQueues& queues() const { return queues_; }

 private:
  std::string_view name_;
  CapacityQueues queues_;
  SlotFillerBuffers buffers_;
};

}  // namespace mr::sched
