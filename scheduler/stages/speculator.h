// Speculator: LATE speculative execution (Zaharia et al., "Improving MapReduce Performance
// in Heterogeneous Environments", OSDI 2008) as a policy-side stage. After the policy's
// decision of a round, the driver (the live master, the task-level simulator, a unit test)
// shows it a Snapshot whose free slots are those the policy left free; it returns backup
// Assignments (and nothing else) for the heartbeating worker: the running map (on its free
// map or unified slots) and the running reduce (on its free reduce or unified slots) with the
// longest estimated time left whose progress rate is below the SlowTaskThreshold percentile
// of its kind and whose time left exceeds a fresh attempt's expected duration on the asking
// worker, never while a map is pending (nor a reduce while one is ready on that worker),
// never on a worker slow at that kind, within SpeculativeCap backups of both kinds. docs/speculation.md describes the rule and its defaults. Stateless: Speculate() is
// const and safe to call from several threads, each on its own snapshot.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

struct SpeculatorOptions {
  // A running attempt is a backup candidate when its progress rate is below this
  // percentile of the running and recently finished map attempts' rates (LATE's
  // SlowTaskThreshold).
  double slow_task_percentile = 25;
  // A worker gets no backup when its measured map rate is below this percentile of the
  // workers' rates (LATE's SlowNodeThreshold).
  double slow_node_percentile = 25;
  // SpeculativeCap = max(1, floor(cap_fraction x the cluster's slots)) backups running.
  double cap_fraction = 0.1;
  // An attempt younger than this (seconds) is neither judged nor counted in the rates.
  double min_age = 0.5;

  // InvalidArgument naming the option for a value out of range.
  Status Validate() const;
};

// The p-th percentile (0..100) of `values`, linearly interpolated between the closest ranks
// (p = 25 of {1, 2, 3, 4, 5} is 2): common/stats.h QuantileLinear of p / 100. 0 when empty.
double Percentile(std::span<const double> values, double p);

class Speculator {
 public:
  explicit Speculator(SpeculatorOptions options) : options_(options) {}
  const SpeculatorOptions& options() const { return options_; }

  // Backups for snap.heartbeating's free slots; Decision::note says why
  // each was chosen ("" when none). Jobs with JobView::speculative false are left alone.
  Decision Speculate(const Snapshot& snap) const;
  // SpeculativeCap of the snapshot's cluster.
  int Cap(const Snapshot& snap) const;

 private:
  struct Round;
  // One kind's pass (maps first, then reduces) on the slots and cap left in `round`.
  void SpeculateKind(const Snapshot& snap, TaskKind kind, Round& round, Decision* d) const;

  SpeculatorOptions options_;
};

}  // namespace mr::sched
