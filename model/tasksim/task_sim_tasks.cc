#include "model/tasksim/task_sim_tasks.h"

#include <algorithm>
#include <cmath>

#include "model/tasksim/task_sim_receivers.h"

namespace mr::model::tasksim {
namespace {

using sched::TaskKind;

}  // namespace

TaskLifecycle::TaskLifecycle(const ClusterSpec& cluster, SimState& state, const sched::Scheduler& policy)
    : cluster_(cluster),
      state_(state),
      policy_(policy),
      rng_(cluster.seed),
      fail_rng_(cluster.seed ^ kFailureSeedSalt) {}

bool TaskLifecycle::EndDue() {
  bool ended = false;
  while (!ends_.empty() && ends_.top().time <= state_.now) {
    End e = ends_.top();
    ends_.pop();
    ended = EndAttempt(e) || ended;
  }
  return ended;
}

void TaskLifecycle::Arrive(size_t j) {
  state_.jobs[j].arrived = true;
  state_.active.push_back(j);
  MaybePlaceReduces(state_.jobs[j]);
}

// False for a stale end: the attempt was killed, or its job failed, before it.
bool TaskLifecycle::EndAttempt(const End& e) {
  SimJob& job = state_.jobs[e.job];
  if (job.finished) return false;
  TaskAttempts& t = AttemptsOf(job, e.kind, e.index);
  const Attempt* running = t.Find(e.attempt);
  // Stale too: processor sharing moved its end (Rerate queued the new one).
  if (running == nullptr || running->end != e.time) return false;
  const Attempt a = RemoveAttempt(t, e.attempt);
  state_.workers[a.worker].reported_frees.emplace_back(state_.now, a.slot);
  Log(TaskSimScheduleEvent::Kind::kEnd, job, e.kind, e.index, a,
      a.fails ? TaskSimScheduleEvent::Status::kFailed : TaskSimScheduleEvent::Status::kOk);
  if (a.fails) {
    Failed(job, e.kind, e.index);
  } else {
    KillAll(job, e.kind, e.index);  // a backup race: the other attempt loses
    Succeeded(job, e.kind, e.index, a);
  }
  return true;
}

// Takes the attempt off its task and frees its slot.
Attempt TaskLifecycle::RemoveAttempt(TaskAttempts& t, uint32_t id) {
  auto it = std::find_if(t.running.begin(), t.running.end(),
                         [&](const Attempt& a) { return a.id == id; });
  Attempt a = *it;
  t.running.erase(it);
  ++state_.workers[a.worker].Free(a.slot);
  running_changed_ = true;
  return a;
}

void TaskLifecycle::KillAll(SimJob& job, TaskKind kind, int index) {
  TaskAttempts& t = AttemptsOf(job, kind, index);
  while (!t.running.empty()) {
    const Attempt a = RemoveAttempt(t, t.running.front().id);
    Log(TaskSimScheduleEvent::Kind::kEnd, job, kind, index, a, TaskSimScheduleEvent::Status::kKilled);
    ++counters_.kills;
  }
}

void TaskLifecycle::Log(TaskSimScheduleEvent::Kind what, const SimJob& job, TaskKind kind, int index,
                        const Attempt& a, TaskSimScheduleEvent::Status status) {
  if (!cluster_.record_schedule) return;
  schedule_.push_back({.kind = what,
                       .t = state_.now,
                       .job = job.input_index,
                       .task_kind = kind,
                       .task = index,
                       .attempt = a.id + 1,
                       .worker = a.worker + 1,
                       .slot = a.slot,
                       .backup = a.backup,
                       .start = a.start,
                       .status = status});
}

void TaskLifecycle::Succeeded(SimJob& job, TaskKind kind, int index, const Attempt& a) {
  const double took = std::max(0.0, state_.now - a.start - a.overhead);
  if (kind == TaskKind::kMap) {
    job.maps[index].state = MapState::kDone;
    --job.maps_running;
    if (++job.maps_done == job.spec->maps) job.maps_done_time = state_.now;
    job.map_seconds_done += took;
    if (cluster_.receiver_links && job.slow_start_reached) {
      AddOutputToReceivers(job, a.worker, job.spec->map_bytes);
    } else {
      job.backlog[a.worker] += job.spec->map_bytes;
    }
    job.produced += job.spec->map_bytes;
    SimWorker& w = state_.workers[a.worker];
    w.map_rate.Record(took);
    ++w.maps_done;
    w.map_busy += took;
    w.map_response += state_.now - job.spec->arrival;
    MaybePlaceReduces(job, a.worker);
    return;
  }
  job.reduces[index].state = ReduceState::kDone;
  --job.reduces_running;
  job.reduce_seconds_done += took;
  if (++job.reduces_done == job.spec->reducers) {
    job.finished = true;
    job.completion = state_.now;
    ++finished_;
  }
}

// A failed attempt's slot is already free. The task runs on in its other attempt,
// is retried, or (at max_attempts failures, as the master) fails its job.
void TaskLifecycle::Failed(SimJob& job, TaskKind kind, int index) {
  TaskAttempts& t = AttemptsOf(job, kind, index);
  ++counters_.failed_attempts;
  if (++t.failures >= cluster_.max_attempts) return FailJob(job);
  if (t.running.empty()) BackToWaiting(job, kind, index);
}

// A task with no attempt left runs again: a map from the pending list (any worker),
// a reduce on its worker, where its data is.
void TaskLifecycle::BackToWaiting(SimJob& job, TaskKind kind, int index) {
  if (kind == TaskKind::kMap) {
    job.maps[index].state = MapState::kPending;
    job.maps[index].attempts.backed_up = false;
    --job.maps_running;
  } else {
    job.reduces[index].state = ReduceState::kReady;
    job.reduces[index].attempts.backed_up = false;
    --job.reduces_running;
  }
}

void TaskLifecycle::FailJob(SimJob& job) {
  running_changed_ = true;
  constexpr auto kKilled = TaskSimScheduleEvent::Status::kKilled;
  for (size_t i = 0; i < job.maps.size(); ++i) {
    MapTask& m = job.maps[i];
    for (const Attempt& a : m.attempts.running) {
      ++state_.workers[a.worker].Free(a.slot);
      Log(TaskSimScheduleEvent::Kind::kEnd, job, TaskKind::kMap, static_cast<int>(i), a, kKilled);
    }
    m.attempts.running.clear();
    if (m.state == MapState::kQueued) --state_.workers[m.queued_at].queued_maps;
  }
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    ReduceTask& r = job.reduces[i];
    for (const Attempt& a : r.attempts.running) {
      ++state_.workers[a.worker].Free(a.slot);
      Log(TaskSimScheduleEvent::Kind::kEnd, job, TaskKind::kReduce, static_cast<int>(i), a, kKilled);
    }
    r.attempts.running.clear();
  }
  std::fill(job.backlog.begin(), job.backlog.end(), 0.0);
  std::fill(job.pair_backlog.begin(), job.pair_backlog.end(), 0.0);
  job.finished = job.failed = true;
  job.completion = state_.now;
  ++finished_;
}

// The master's PlaceReduces (master/reduce_placement.cc): at slow start every reducer goes
// to the worker with a reduce or unified slot the policy lets the job run on (MayRunOn;
// SimulateTasks checked that one exists) holding the fewest reducers of this job; ties
// go to `prefer` (the worker whose map report reached slow start), then to the lowest id.
// Without the preference every job's extra reducers landed on the lowest-numbered workers,
// which the master does not do. No slot is taken.
void TaskLifecycle::MaybePlaceReduces(SimJob& job, int prefer) {
  if (job.slow_start_reached) return;
  const int needed = static_cast<int>(std::ceil(cluster_.slow_start * job.spec->maps));
  if (job.maps_done < needed) return;
  job.slow_start_reached = true;
  job.placed_at = state_.now;
  std::vector<int> load(state_.workers.size(), 0);
  for (ReduceTask& r : job.reduces) {
    int best = -1;
    for (int w = 0; w < static_cast<int>(load.size()); ++w) {
      const WorkerSpec& s = state_.workers[w].spec;
      if (s.reduce_slots + s.unified_slots == 0 || !policy_.MayRunOn(job.spec->params, s.labels)) continue;
      if (best < 0 || load[w] < load[best] || (load[w] == load[best] && w == prefer)) best = w;
    }
    r.worker = best;
    ++load[best];
    r.state = ReduceState::kFetching;
    ++job.reduces_fetching;
  }
  if (cluster_.receiver_links) SplitBacklogToReceivers(job);
}

bool TaskLifecycle::MaybeShuffleDone(SimJob& job) {
  if (job.reduces_fetching == 0 || job.maps_done < job.spec->maps) return false;
  for (double b : job.backlog) {
    if (b > 0) return false;
  }
  if (state_.now < job.placed_at + cluster_.reduce_ready_delay) return false;
  for (ReduceTask& r : job.reduces) {
    if (r.state == ReduceState::kFetching) r.state = ReduceState::kReady;
  }
  job.reduces_fetching = 0;
  return true;
}

double TaskLifecycle::NextReady() const {
  double next = kNoEnd;
  if (!(cluster_.reduce_ready_delay > 0)) return next;
  for (size_t j : state_.active) {
    const SimJob& job = state_.jobs[j];
    if (job.finished || job.reduces_fetching == 0 || job.maps_done < job.spec->maps) continue;
    const double ready = job.placed_at + cluster_.reduce_ready_delay;
    if (ready <= state_.now) continue;
    bool moved = true;
    for (double b : job.backlog) moved = moved && b <= 0;
    if (moved) next = std::min(next, ready);
  }
  return next;
}

bool TaskLifecycle::Queue(const sched::QueueMap& q) {
  SimJob& job = state_.jobs[q.job - 1];
  MapTask& m = job.maps[q.index];
  const int w = static_cast<int>(q.worker) - 1;
  if (m.state == MapState::kQueued) {
    if (m.queued_at == w) return false;
    --state_.workers[m.queued_at].queued_maps;
  } else {
    ++job.maps_queued;
  }
  m.state = MapState::kQueued;
  m.queued_at = w;
  ++state_.workers[w].queued_maps;
  return true;
}

// Starts an attempt (REQUIRES: CheckAssignment passed). Its duration is the task's
// work over the worker's speed, plus a map's straggler delay on that worker (attempts are
// numbered from 1 there, as the master numbers them); a failing attempt ends after
// failure_point of it.
void TaskLifecycle::Launch(const sched::Assignment& a) {
  SimJob& job = state_.jobs[a.job - 1];
  const int w = static_cast<int>(a.worker) - 1;
  TaskAttempts& t = AttemptsOf(job, a.kind, a.index);
  if (a.backup) {
    t.backed_up = true;
    ++counters_.backups;
  } else if (a.kind == TaskKind::kMap) {
    MapTask& m = job.maps[a.index];
    if (m.state == MapState::kQueued) {
      --job.maps_queued;
      --state_.workers[m.queued_at].queued_maps;
      m.queued_at = -1;
    }
    m.state = MapState::kRunning;
    ++job.maps_running;
  } else {
    job.reduces[a.index].state = ReduceState::kRunning;
    ++job.reduces_running;
  }
  Attempt at;
  at.id = t.next_attempt++;
  at.worker = w;
  at.slot = a.slot;
  at.start = at.rated_at = state_.now;
  const WorkerSpec& ws = state_.workers[w].spec;
  at.duration = Work(job, a.kind, a.index) / ws.speed;
  if (a.kind == TaskKind::kMap) {
    at.duration += StragglerDelay(ws.straggler, job.id, static_cast<uint32_t>(a.index), at.id + 1);
  }
  const std::vector<double>& overheads = a.kind == TaskKind::kMap ? job.spec->map_overheads : job.spec->reduce_overheads;
  if (!overheads.empty()) {
    at.overhead = overheads[static_cast<size_t>(a.index)];
    at.duration += at.overhead;
  }
  at.backup = a.backup;
  at.fails = cluster_.failure_prob > 0 && fail_rng_.Uniform() < cluster_.failure_prob;
  at.end = state_.now + (at.fails ? at.duration * cluster_.failure_point : at.duration);
  t.running.push_back(at);
  --state_.workers[w].Free(a.slot);
  ++counters_.assignments;
  running_changed_ = true;
  ends_.push({at.end, seq_++, static_cast<size_t>(a.job - 1), a.kind, a.index, at.id});
  Log(TaskSimScheduleEvent::Kind::kStart, job, a.kind, a.index, at, TaskSimScheduleEvent::Status::kRunning);
}

void TaskLifecycle::Kill(const sched::Kill& k) {
  SimJob& job = state_.jobs[k.job - 1];
  TaskAttempts& t = AttemptsOf(job, k.kind, k.index);
  const Attempt a = RemoveAttempt(t, k.attempt);
  Log(TaskSimScheduleEvent::Kind::kEnd, job, k.kind, k.index, a, TaskSimScheduleEvent::Status::kKilled);
  ++counters_.kills;
  if (t.running.empty()) BackToWaiting(job, k.kind, k.index);
}

// Every running attempt of an unfinished job gets share min(1, C / n); one whose share
// changes banks the work done at its old share and gets a new end (the old end goes stale).
void TaskLifecycle::Rerate() {
  if (cluster_.host_cores <= 0 || !running_changed_) return;
  running_changed_ = false;
  auto for_each_running = [&](auto&& fn) {
    for (size_t j : state_.active) {
      SimJob& job = state_.jobs[j];
      if (job.finished) continue;
      for (size_t i = 0; i < job.maps.size(); ++i) {
        for (Attempt& a : job.maps[i].attempts.running) fn(job, TaskKind::kMap, static_cast<int>(i), a);
      }
      for (size_t i = 0; i < job.reduces.size(); ++i) {
        for (Attempt& a : job.reduces[i].attempts.running) fn(job, TaskKind::kReduce, static_cast<int>(i), a);
      }
    }
  };
  size_t n = 0;
  for_each_running([&](SimJob&, TaskKind, int, Attempt&) { ++n; });
  const double cores = std::max(0.1 * cluster_.host_cores, cluster_.host_cores - shuffle_cores_);
  const double share = std::min(1.0, cores / static_cast<double>(std::max<size_t>(1, n)));
  const double now = state_.now;
  for_each_running([&](SimJob& job, TaskKind kind, int index, Attempt& a) {
    if (a.share == share) return;
    a.work_done = a.DoneBy(now);
    a.rated_at = now;
    a.share = share;
    const double target = a.fails ? a.duration * cluster_.failure_point : a.duration;
    a.end = now + std::max(0.0, target - a.work_done) / share;
    ends_.push({a.end, seq_++, static_cast<size_t>(job.id - 1), kind, index, a.id});
  });
}

void TaskLifecycle::SetShuffleCores(double cores) {
  if (cores == shuffle_cores_) return;
  shuffle_cores_ = cores;
  running_changed_ = true;
}

// Seconds of work on a worker of speed 1: the replayed duration, else the job's
// map_seconds times a factor from its law (the cluster's cv by default), or its
// reduce_seconds.
double TaskLifecycle::Work(const SimJob& job, TaskKind kind, int index) {
  const TaskJob& spec = *job.spec;
  if (kind == TaskKind::kReduce)
    return spec.reduce_durations.empty() ? spec.reduce_seconds : spec.reduce_durations[index];
  if (!spec.map_durations.empty()) return spec.map_durations[index];
  if (spec.map_time.kind != MapTimeDist::Kind::kClusterDefault)
    return spec.map_seconds * spec.map_time.Sample(rng_);
  const double cv = cluster_.map_time_cv;
  if (cv <= 0) return spec.map_seconds;
  const LogNormalParams p = LogNormalFromMoments(1.0, cv);  // mean 1, sd = cv
  return spec.map_seconds * rng_.LogNormal(p.mu, p.sigma);
}

}  // namespace mr::model::tasksim
