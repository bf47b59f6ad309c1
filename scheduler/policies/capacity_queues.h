// CapacityQueues: the capacity scheduler's queues (`--queues FILE`), parsed once.
// The format is of the fair scheduler's pools file's family (docs/policies.md, "capacity"):
// one queue per line, '#' starts a comment, blank lines are ignored.
//   queue NAME capacity=PERCENT [max_capacity=PERCENT]
//   queue NAME map_slots=N reduce_slots=N [max_map_slots=N] [max_reduce_slots=N]
//   queue NAME label=KEY=VALUE
// capacity: the queue's guaranteed share of the map and of the reduce slots of the workers
// no queue is bound to, in (0, 100] ("30" or "30%", decimals allowed); max_capacity: the
// most it may hold by borrowing, in [capacity, 100] (absent: no cap). map_slots and
// reduce_slots: the guarantee in slots instead (a planner's pools), with optional caps in
// slots; a file gives every unbound queue's guarantee one way or the other. label: the queue
// is bound to the workers carrying that label (mr worker --label): they run only its jobs,
// and its jobs run only there. The capacities sum to at most 100.
// A NAME is 1..63 bytes of [A-Za-z0-9._-]; no name and no label twice.
// With no file there is one queue, "default", with capacity=100. A job names its queue with
// --queue; "" means the queue named "default" (which a file need not define).
// Immutable after parsing; safe to share between threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/worker_labels.h"

namespace mr::sched {

struct QueueConfig {
  std::string name;
  double capacity = 0;      // percent of the unbound workers' slots; 0 for a label-bound queue
  double max_capacity = 0;  // percent; 0 = no cap (always 0 for a label-bound queue)
  std::optional<Label> label;  // set: bound to the workers carrying it
  // The guarantee in slots ([0] map, [1] reduce) instead of a capacity; -1 = not given.
  int slots[2] = {-1, -1};
  int max_slots[2] = {-1, -1};  // caps in slots; -1 = none
  bool bound() const { return label.has_value(); }
  bool in_slots() const { return slots[0] >= 0; }
};

class CapacityQueues {
 public:
  // The queues with no file: "default" at capacity=100.
  CapacityQueues();
  // A malformed line -> InvalidArgument "SOURCE:LINE: what"; capacities summing above 100, or
  // no queue at all -> InvalidArgument "SOURCE: ..." (one line each).
  static Result<CapacityQueues> Parse(std::string_view text, std::string_view source = "queues");
  // Unreadable file -> the read error; otherwise as Parse.
  static Result<CapacityQueues> Load(const std::string& path);

  // In file order.
  const std::vector<QueueConfig>& queues() const { return queues_; }
  // The index of the queue a job naming `queue` runs in ("" is "default"), or -1.
  int Find(std::string_view queue) const;
  // Ok, or InvalidArgument naming the known queues: "unknown queue 'x' (known: a, b)", or for
  // "" without a "default" queue "no queue named and no 'default' queue (known: a, b)".
  Status Check(std::string_view queue) const;
  // "a, b, default": the names, in file order.
  std::string Names() const;

 private:
  std::vector<QueueConfig> queues_;
};

}  // namespace mr::sched
