// Scheduler: one interface for every policy. Given a Snapshot it returns the
// Decision for this round: which pending task goes to which free slot, and each
// job's shuffle share. Policies keep no networking and read time only from
// Snapshot::now, so the same object runs in the master, the simulator and tests.
// Not thread-safe: the caller serialises Schedule() calls.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/policy_options.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

// Which free slots a round shows. kHeartbeat (Hadoop 1): only the heartbeating worker's,
// so a policy fills them as each worker reports. kCluster: every worker's, so a policy that
// allocates over the whole cluster (ASRPT, FLEX) decides for all free slots in one round;
// the master delivers assignments to other workers with their next heartbeat and holds
// their slots meanwhile.
enum class SnapshotScope { kHeartbeat, kCluster };

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string_view name() const = 0;
  virtual SnapshotScope scope() const { return SnapshotScope::kHeartbeat; }
  // True for policies defined over one pool of unified slots (ASRPT): the master fails a
  // job, with the reason, when no live worker has a unified slot, instead of leaving it idle.
  virtual bool requires_unified_slots() const { return false; }
  // REQUIRES: every assignment respects free slots in `snap`; a task is
  // assigned at most once; only pending maps / ready reduces are assigned.
  virtual Decision Schedule(const Snapshot& snap) = 0;
};

// Creates the policy of the table row named `name` (scheduler/policy_table.h) with
// `options` over the row's defaults. Unknown name -> NotFound whose message lists the
// known policies; an option the policy does not declare, or a bad value -> InvalidArgument.
Result<std::unique_ptr<Scheduler>> CreateScheduler(std::string_view name,
                                                   const PolicyOptions& options = {});
std::vector<std::string> KnownPolicies();
// The policy a master runs unless told otherwise: the table's first row.
std::string_view DefaultPolicy();

}  // namespace mr::sched
