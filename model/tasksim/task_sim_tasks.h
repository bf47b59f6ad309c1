// The life of the task-level simulator's tasks (internal): arrivals, reduce
// placement at slow start, attempts started from checked decisions, attempt ends
// (success, failure and retry, the loser of a backup race, a kill), the end of a
// job's shuffle, and a job failing at max_attempts. Keeps SimState's counters
// consistent and owns the queue of attempt ends. Single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include "common/rng.h"
#include "model/tasksim/task_sim_state.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"

namespace mr::model::tasksim {

class TaskLifecycle {
 public:
  struct Counters {
    int64_t assignments = 0;
    int64_t backups = 0;
    int64_t kills = 0;
    int64_t failed_attempts = 0;
  };

  // `state` is borrowed and must outlive this object; its workers and jobs are set up.
  // `policy`: where a job's reducers may be placed (Scheduler::MayRunOn), as the master asks.
  TaskLifecycle(const ClusterSpec& cluster, SimState& state, const sched::Scheduler& policy);

  void Arrive(size_t job);
  // When the next attempt ends (infinity if none runs).
  double NextEnd() const { return ends_.empty() ? kNoEnd : ends_.top().time; }
  // Ends every attempt due by state.now; true if one did (the master would react).
  bool EndDue();
  // A job whose maps are done and whose data has all moved: its reduces become
  // ready. True if that happened now.
  // Not before ClusterSpec::reduce_ready_delay after the reducers' placement.
  bool MaybeShuffleDone(SimJob& job);
  // The earliest time a job waiting only for reduce_ready_delay becomes ready (infinity if
  // none waits so).
  double NextReady() const;
  // REQUIRES: the matching Check* of task_sim_checks.h passed.
  // Queue returns true if the map moved to a (new) worker's queue.
  bool Queue(const sched::QueueMap& q);
  void Launch(const sched::Assignment& a);
  void Kill(const sched::Kill& k);
  // Processor sharing (ClusterSpec::host_cores > 0): when the set of running attempts
  // changed since the last call, gives each its new share at state.now and moves its end.
  // A no-op without host_cores.
  void Rerate();
  // The cores the shuffle takes from the attempts (ClusterSpec::shuffle_cpu_per_byte times
  // the links' total rate); a change rerates at the next Rerate().
  void SetShuffleCores(double cores);

  size_t finished() const { return finished_; }
  // The attempts' starts and ends so far (ClusterSpec::record_schedule; else empty).
  std::vector<TaskSimScheduleEvent> TakeSchedule() { return std::move(schedule_); }
  const Counters& counters() const { return counters_; }

 private:
  static constexpr double kNoEnd = std::numeric_limits<double>::infinity();
  struct End {
    double time;
    uint64_t seq;  // FIFO among equal times: deterministic runs
    size_t job;
    sched::TaskKind kind;
    int index;
    uint32_t attempt;
    bool operator>(const End& o) const {
      return time > o.time || (time == o.time && seq > o.seq);
    }
  };

  bool EndAttempt(const End& e);
  Attempt RemoveAttempt(TaskAttempts& t, uint32_t id);
  void KillAll(SimJob& job, sched::TaskKind kind, int index);
  // Appends a line to schedule_ (with ClusterSpec::record_schedule).
  void Log(TaskSimScheduleEvent::Kind what, const SimJob& job, sched::TaskKind kind, int index, const Attempt& a,
           TaskSimScheduleEvent::Status status);
  void Succeeded(SimJob& job, sched::TaskKind kind, int index, const Attempt& a);
  void Failed(SimJob& job, sched::TaskKind kind, int index);
  void BackToWaiting(SimJob& job, sched::TaskKind kind, int index);
  void FailJob(SimJob& job);
  // prefer: the worker whose finished map reached slow start (-1 at arrival), as the master.
  void MaybePlaceReduces(SimJob& job, int prefer = -1);
  double Work(const SimJob& job, sched::TaskKind kind, int index);
  static TaskAttempts& AttemptsOf(SimJob& job, sched::TaskKind kind, int index) {
    return kind == sched::TaskKind::kMap ? job.maps[index].attempts
                                         : job.reduces[index].attempts;
  }

  const ClusterSpec& cluster_;
  SimState& state_;
  const sched::Scheduler& policy_;
  Rng rng_;       // map duration noise (map_time_cv, per-job laws)
  Rng fail_rng_;  // attempt failures (failure_prob)
  std::priority_queue<End, std::vector<End>, std::greater<>> ends_;
  uint64_t seq_ = 0;
  size_t finished_ = 0;
  Counters counters_;
  bool running_changed_ = false;  // an attempt started or stopped since the last Rerate
  double shuffle_cores_ = 0;
  std::vector<TaskSimScheduleEvent> schedule_;
};

}  // namespace mr::model::tasksim
