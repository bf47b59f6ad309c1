#include "model/tasksim/task_sim_checks.h"

#include <cstdio>
#include <string>

#include "model/tasksim/task_sim_snapshot.h"

namespace mr::model::tasksim {
namespace {

using sched::SlotKind;
using sched::TaskKind;

std::string TaskName(TaskKind kind, int index, sched::JobId job) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%05d of job %llu", kind == TaskKind::kMap ? "m" : "r", index,
                static_cast<unsigned long long>(job));
  return buf;
}

Status Fail(const std::string& what, const char* why) {
  return Status::Internal(what + ": " + why);
}

bool KnownWorker(const SimState& state, sched::WorkerId w) {
  return w >= 1 && w <= state.workers.size();
}

// The attempts of a task, or nullptr for an index out of range.
const TaskAttempts* AttemptsOf(const SimJob& job, TaskKind kind, int index) {
  const size_t n = kind == TaskKind::kMap ? job.maps.size() : job.reduces.size();
  if (index < 0 || static_cast<size_t>(index) >= n) return nullptr;
  return kind == TaskKind::kMap ? &job.maps[index].attempts : &job.reduces[index].attempts;
}

}  // namespace

Status CheckShares(const SimState& state, const sched::Decision& d, double* sum) {
  *sum = 0;
  for (const auto& [id, share] : d.shuffle_shares) {
    if (state.Live(id) == nullptr)
      return Status::Internal("shuffle share for job " + std::to_string(id) +
                              " not in the snapshot");
    if (!(share >= 0 && share <= 1)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "share %g of job %llu outside [0, 1]", share,
                    static_cast<unsigned long long>(id));
      return Status::Internal(buf);
    }
    *sum += share;
  }
  if (*sum > 1 + kShareSlack) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "shuffle shares sum to %.12g > 1", *sum);
    return Status::Internal(buf);
  }
  return Status::Ok();
}

Status CheckQueue(const SimState& state, const sched::QueueMap& q) {
  const std::string what =
      "queue " + TaskName(TaskKind::kMap, q.index, q.job) + " at worker " + std::to_string(q.worker);
  const SimJob* job = state.Live(q.job);
  if (job == nullptr) return Fail(what, "no such unfinished job");
  if (!KnownWorker(state, q.worker)) return Fail(what, "no such worker");
  if (q.index < 0 || static_cast<size_t>(q.index) >= job->maps.size())
    return Fail(what, "no such task");
  const MapState s = job->maps[q.index].state;
  if (s != MapState::kPending && s != MapState::kQueued)
    return Fail(what, "map is neither pending nor queued");
  return Status::Ok();
}

Status CheckAssignment(const SimState& state, const sched::Assignment& a, int offered) {
  const bool map = a.kind == TaskKind::kMap;
  const std::string what =
      TaskName(a.kind, a.index, a.job) + " on worker " + std::to_string(a.worker) +
      (a.backup ? " (backup)" : "");
  const SimJob* job = state.Live(a.job);
  if (job == nullptr) return Fail(what, "no such unfinished job");
  const bool offered_here =
      offered == kAllWorkers ? KnownWorker(state, a.worker)
                             : offered >= 0 && a.worker == static_cast<sched::WorkerId>(offered + 1);
  if (!offered_here) return Fail(what, "that worker offered no free slot in this round");
  const int w = static_cast<int>(a.worker) - 1;
  const bool fits = a.slot == SlotKind::kUnified || a.slot == (map ? SlotKind::kMap : SlotKind::kReduce);
  if (!fits || state.workers[w].Free(a.slot) <= 0) return Fail(what, "no free slot of the kind given");
  const TaskAttempts* t = AttemptsOf(*job, a.kind, a.index);
  if (t == nullptr) return Fail(what, "no such task");
  if (a.backup) {
    if (t->running.size() != 1) return Fail(what, "task is not running in exactly one attempt");
    if (t->backed_up) return Fail(what, "task has a backup already");
    // The master's rules (master/decision_applier.cc), so what runs here runs live.
    if (!map) return Fail(what, "backups are for maps (a reducer's fetched data is on one worker)");
    if (t->running.front().worker == w)
      return Fail(what, "a backup must run on another worker than the attempt it backs up");
    return Status::Ok();
  }
  if (map) {
    const MapTask& m = job->maps[a.index];
    if (m.state == MapState::kQueued && m.queued_at != w)
      return Fail(what, "map is queued at another worker");
    if (m.state != MapState::kPending && m.state != MapState::kQueued)
      return Fail(what, "map is not pending");
    return Status::Ok();
  }
  const ReduceTask& r = job->reduces[a.index];
  if (r.state != ReduceState::kReady || r.worker != w)
    return Fail(what, "reduce is not ready on that worker");
  return Status::Ok();
}

Status CheckKill(const SimState& state, const sched::Kill& k) {
  const std::string what =
      "kill attempt " + std::to_string(k.attempt) + " of " + TaskName(k.kind, k.index, k.job);
  const SimJob* job = state.Live(k.job);
  if (job == nullptr) return Fail(what, "no such unfinished job");
  const TaskAttempts* t = AttemptsOf(*job, k.kind, k.index);
  if (t == nullptr) return Fail(what, "no such task");
  if (t->Find(k.attempt) == nullptr) return Fail(what, "that attempt is not running");
  return Status::Ok();
}

}  // namespace mr::model::tasksim
