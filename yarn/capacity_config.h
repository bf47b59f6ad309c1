// YARN's Capacity Scheduler configuration (capacity-scheduler.xml, docs/yarn.md) written from
// mrlab's capacity queues (`--queues FILE`) or from the two pools of a BalancedPools plan
// (`mr batch plan --out`), and read back into a queues file.
//
// Each queue is a child of root: yarn.scheduler.capacity.root.queues lists them,
// root.Q.capacity is its guaranteed percent, root.Q.maximum-capacity its cap, and
// root.Q.ordering-policy is fifo (mrlab's capacity policy runs a queue's jobs first come,
// first served). YARN wants root's children to sum to exactly 100%; a queue given in slots
// (a planner's pool) becomes the percent of the cluster's map slots it holds. YARN has one
// percent per queue, not one per kind of slot: where a queue's reduce share differs from
// its map share the file says so in a comment. Queues bound to a worker label are refused
// (YARN's node labels are a different mechanism; not exported yet).
// Pure functions; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/makespan/batch_plan.h"
#include "scheduler/policies/capacity_queues.h"

namespace mr::yarn {

// The cluster's slots, for queues given in slots (0: none given).
struct CapacityExport {
  int map_slots = 0;
  int reduce_slots = 0;
};

// capacity-scheduler.xml. InvalidArgument for a label-bound queue, a name YARN refuses,
// queues in slots without the cluster's slots, or capacities that do not sum to 100%.
Result<std::string> CapacitySchedulerXml(std::span<const sched::QueueConfig> queues, const CapacityExport& cluster);
// A plan's pools as queues in slots (its pool names: "small", "large"; one pool: "default"
// at 100%), on the plan's cluster.
std::vector<sched::QueueConfig> PlanQueues(const model::BatchPlan& plan);

// Reads capacity-scheduler.xml back: root's queues with their capacity and maximum-capacity.
// InvalidArgument "SOURCE: what" for malformed XML, a queue without a capacity, a nested
// queue, a value that is not a percent. `ignored` gets the root.Q.* properties that no mrlab
// queue has (e.g. user-limit-factor).
Result<std::vector<sched::QueueConfig>> ParseCapacityScheduler(std::string_view xml, const std::string& source,
                                                                std::vector<std::string>* ignored = nullptr);

// The queues file (scheduler/policies/capacity_queues.h's format) of percent queues.
std::string QueuesFileText(std::span<const sched::QueueConfig> queues);

}  // namespace mr::yarn
