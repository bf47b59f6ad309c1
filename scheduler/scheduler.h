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
#include "common/worker_labels.h"
#include "scheduler/job_params.h"
#include "scheduler/policy_options.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

// Which free slots a round shows. kHeartbeat (Hadoop 1): only the heartbeating worker's,
// so a policy fills them as each worker reports. kCluster: every worker's, so a policy that
// allocates over the whole cluster (ASRPT, FLEX) decides for all free slots in one round;
// the master delivers assignments to other workers with their next heartbeat and holds
// their slots meanwhile.
enum class SnapshotScope { kHeartbeat, kCluster };

// One kind of slot (map or reduce) of a queue, as Scheduler::Queues reports it. A unified
// slot counts in both kinds' totals.
struct QueueSlots {
  double guaranteed = 0;  // slots the queue is guaranteed now (its share of the live workers')
  int max = -1;           // the most it may hold (max_capacity); -1 = no cap
  int in_use = 0;         // held by its jobs' running tasks
  double lent = 0;        // of its guarantee, held by other queues' tasks
  double borrowed = 0;    // held above its guarantee: max(0, in_use - guaranteed)
};

// A queue of a policy that divides the cluster among named queues (capacity), for the status
// page and /api/cluster (docs/web.md).
struct QueueUse {
  std::string name;
  std::string label;         // "KEY=VALUE" for a queue bound to labelled workers, else ""
  double capacity = 0;       // percent of the unbound workers' slots (0 when bound)
  double max_capacity = 0;   // percent; 0 = no cap
  int jobs = 0;              // unfinished jobs in it
  QueueSlots map, reduce;
};

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

  // Admission: Ok, or InvalidArgument saying why this policy cannot take a job with these
  // parameters (capacity: a queue it does not know, with the known names). The master's
  // submit path asks before it accepts anything (a refused job leaves no trace, no id, no
  // output directory); the task-level simulator asks for every job of its input. Const: it
  // reads only the policy's configuration.
  virtual Status AdmitJob(const JobParams& /*job*/) const { return Status::Ok(); }
  // Whether a task of a job with these parameters may run on a worker with these labels
  // (capacity: a queue bound to a label runs only on the workers carrying it, and they run
  // only its jobs). The policy keeps to it in its own assignments; the drivers ask it where
  // they place tasks themselves: the master's and the simulator's reducer placement at slow
  // start, and the speculator's backups. Default: anywhere.
  virtual bool MayRunOn(const JobParams& /*job*/, const WorkerLabels& /*labels*/) const { return true; }
  // The policy's queues and their use in `snap` (every live worker's slots; running tasks),
  // for the status page; empty for a policy without queues.
  virtual std::vector<QueueUse> Queues(const Snapshot& /*snap*/) const { return {}; }
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
