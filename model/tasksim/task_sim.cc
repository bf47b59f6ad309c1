// The task-level simulator's event loop: time jumps from event to event, the
// rounds a policy is offered (which workers, which scope), and each decision
// checked, then applied. The state (task_sim_state.h), the tasks' transitions
// (task_sim_tasks.h), the shuffle links, the snapshot and the contract checks live
// in the task_sim_* files beside it.
#include "model/tasksim/task_sim.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <utility>

#include "model/tasksim/task_sim_checks.h"
#include "model/tasksim/task_sim_input.h"
#include "model/tasksim/task_sim_links.h"
#include "model/tasksim/task_sim_snapshot.h"
#include "model/tasksim/task_sim_state.h"
#include "model/tasksim/task_sim_tasks.h"

namespace mr::model {
namespace {

using namespace tasksim;  // NOLINT: this file drives the simulator's internal pieces

constexpr double kNever = std::numeric_limits<double>::infinity();

std::string Printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

class TaskSimulator {
 public:
  TaskSimulator(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                sched::Scheduler& scheduler, const sched::Speculator* speculator);
  Result<TaskSimResult> Run();

 private:
  double NextEventTime() const;
  // When the master's periodic round is next due (ClusterSpec::refresh_rounds, or the next
  // of ClusterSpec::round_times); kNever when off, before the first round or with no active
  // job. On the grid, not before arrival_latency after an arrival that found no job active.
  double RefreshDue() const;
  // The periodic round is modelled (refresh_rounds' grid or recorded round_times).
  bool Periodic() const { return cluster_.refresh_rounds > 0 || !cluster_.round_times.empty(); }
  // Ready reduces waiting now, by where the free slots are (TaskSimResult::reduce_*_wait).
  struct ReduceWaits {
    int bound = 0, full = 0, own_free = 0;
  };
  ReduceWaits WaitingReduces() const;
  // Applies everything due at now; true when an end or a shuffle's end owes a round, and
  // *arrived when a job arrived (its round waits ClusterSpec::arrival_latency).
  bool ProcessEventsAt(bool* arrived);
  // A round the master owes: due at `at` (decision_latency after what it reacts to), for
  // what was reported by `heard` (an end's report, an arrival, a shuffle's end, a wake-up).
  struct DueRound {
    double at = 0, heard = 0;
    bool operator>(const DueRound& o) const { return at != o.at ? at > o.at : heard > o.heard; }
  };
  // refresh: the master's periodic round is due (RefreshDue()). The round sees only the slots
  // freed by ends reported by `heard` (MaskUnheard).
  Status Decide(bool refresh, double heard);
  // Takes off the free slots of ends reported after `heard` (those still free: a periodic
  // round, which sees every report, may have filled one) into masked_.
  void MaskUnheard(double heard);
  // Puts masked_ back and drops the ends reported by `heard` (every later round sees them).
  void Unmask(double heard);
  Status DecideMasked(bool refresh);
  // Some worker could take a task (HasAssignableWork).
  bool AnyAssignableWork() const;
  bool HasAssignableWork(int w) const;
  bool HasUnbackedAttempt(int w) const;
  Status Round(int offered);
  // The policy's call at ClusterSpec::policy_start, with no job (InvalidArgument when that is
  // after the first arrival; Internal when the policy decides anything then).
  Status StartPolicy();
  // The speculator's round on worker w's slots left free (none without a speculator).
  Status SpeculateRound(int w);
  std::string Where(int offered) const;

  const ClusterSpec cluster_;
  sched::Scheduler& scheduler_;
  const sched::Speculator* speculator_;
  SimState state_;
  TaskLifecycle tasks_{cluster_, state_, scheduler_};
  ShuffleLinks links_{cluster_.receiver_links};
  std::priority_queue<DueRound, std::vector<DueRound>, std::greater<>> decisions_;
  size_t next_arrival_ = 0;
  double last_round_ = kNever;  // time of the latest Schedule() call; kNever before the first
  size_t next_round_time_ = 0;  // the first of cluster_.round_times not yet passed
  double woke_ = 0;             // the latest arrival that found no job active
  std::vector<std::pair<int, sched::SlotKind>> masked_;  // worker, slot: during a round
  TaskSimResult result_;
};

TaskSimulator::TaskSimulator(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                             sched::Scheduler& scheduler, const sched::Speculator* speculator)
    : cluster_(cluster), scheduler_(scheduler), speculator_(speculator) {
  for (const WorkerSpec& w : ResolveWorkers(cluster)) state_.workers.emplace_back(w);
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs[a].arrival < jobs[b].arrival; });
  state_.jobs.resize(jobs.size());
  for (size_t k = 0; k < order.size(); ++k) {
    SimJob& j = state_.jobs[k];
    j.spec = &jobs[order[k]];
    j.input_index = order[k];
    j.id = k + 1;  // the master numbers jobs from 1 in submission order
    j.maps.resize(static_cast<size_t>(j.spec->maps));
    j.reduces.resize(static_cast<size_t>(j.spec->reducers));
    j.backlog.assign(state_.workers.size(), 0.0);
    j.byte_eps = 1e-9 * j.spec->map_bytes * j.spec->maps;
  }
}

Status TaskSimulator::StartPolicy() {
  const double at = *cluster_.policy_start;
  if (!state_.jobs.empty() && at > state_.jobs.front().spec->arrival) {
    return Status::InvalidArgument(Printf("policy start %.6g is after the first arrival %.6g", at,
                                          state_.jobs.front().spec->arrival));
  }
  const double now = state_.now;
  state_.now = at;
  const sched::Decision d = scheduler_.Schedule(BuildSnapshot(state_, kNoWorker));
  state_.now = now;
  if (!d.assignments.empty() || !d.kills.empty() || !d.queue.empty()) {
    return Status::Internal("policy " + std::string(scheduler_.name()) + " decided something with no job");
  }
  return Status::Ok();
}

Result<TaskSimResult> TaskSimulator::Run() {
  if (cluster_.policy_start) MR_RETURN_IF_ERROR(StartPolicy());
  std::vector<SimJob>& jobs = state_.jobs;
  // Zero-length steps are normal (a zero-second reduce ends where it starts);
  // many in a row without a finished job would be a loop.
  const int64_t max_zero_steps = 1000 + 10 * static_cast<int64_t>(jobs.size());
  int64_t zero_steps = 0;
  while (tasks_.finished() < jobs.size()) {
    links_.Compute(state_);
    if (cluster_.shuffle_cpu_per_byte > 0) tasks_.SetShuffleCores(cluster_.shuffle_cpu_per_byte * links_.TotalRate());
    tasks_.Rerate();
    double next = NextEventTime();
    if (next != kNever && RefreshDue() < next) next = std::max(RefreshDue(), state_.now);
    if (next == kNever) {
      return Status::Internal(
          Printf("policy %s left work idle at t=%.6g: %zu jobs unfinished, no task "
                 "running, no data it lets move, no arrival left",
                 std::string(scheduler_.name()).c_str(), state_.now, jobs.size() - tasks_.finished()));
    }
    const ReduceWaits waits = WaitingReduces();
    result_.reduce_bound_wait += waits.bound * (next - state_.now);
    result_.reduce_full_wait += waits.full * (next - state_.now);
    result_.reduce_own_free_wait += waits.own_free * (next - state_.now);
    result_.max_link_load =
        std::max(result_.max_link_load, links_.Advance(state_, next - state_.now));
    size_t before = tasks_.finished();
    zero_steps = next > state_.now ? 0 : zero_steps + 1;
    state_.now = next;
    ++result_.events;
    bool arrived = false;
    if (ProcessEventsAt(&arrived)) decisions_.push({std::max(state_.now + cluster_.decision_latency, cluster_.first_round), state_.now});
    if (arrived) {
      const double wait = std::max(cluster_.decision_latency, cluster_.arrival_latency);
      decisions_.push({std::max(state_.now + wait, cluster_.first_round), state_.now});
    }
    const bool refresh = RefreshDue() <= state_.now;
    bool owed = false;
    double heard = state_.now;
    // Rounds due at the same instant collapse into one, which sees what the latest of them
    // heard; a round due later (an end reported later) runs then, as its own: one round per
    // report, in report order, as the master's state thread handles them.
    while (!decisions_.empty() && decisions_.top().at <= state_.now) {
      heard = owed ? std::max(heard, decisions_.top().heard) : decisions_.top().heard;
      owed = true;
      decisions_.pop();
    }
    if (refresh) heard = state_.now;  // the periodic round sees every report so far
    if (refresh || owed) MR_RETURN_IF_ERROR(Decide(refresh, heard));
    const std::vector<double>& times = cluster_.round_times;
    while (next_round_time_ < times.size() && times[next_round_time_] <= state_.now) ++next_round_time_;
    if (tasks_.finished() > before) zero_steps = 0;
    if (zero_steps > max_zero_steps) {
      return Status::Internal(Printf("no progress at t=%.6g under policy %s", state_.now,
                                     std::string(scheduler_.name()).c_str()));
    }
  }
  result_.completion.assign(jobs.size(), 0);
  result_.response.assign(jobs.size(), 0);
  result_.failed.assign(jobs.size(), false);
  result_.sojourn.assign(jobs.size(), 0);
  double total = 0, total_sojourn = 0;
  for (const SimJob& j : jobs) {
    result_.sojourn[j.input_index] = std::max(0.0, j.maps_done_time - j.spec->arrival);
    total_sojourn += result_.sojourn[j.input_index];
    result_.completion[j.input_index] = j.completion;
    result_.response[j.input_index] = j.completion - j.spec->arrival;
    result_.failed[j.input_index] = j.failed;
    total += j.completion - j.spec->arrival;
    result_.makespan = std::max(result_.makespan, j.completion);
  }
  result_.mean_response = jobs.empty() ? 0 : total / static_cast<double>(jobs.size());
  for (const SimWorker& w : state_.workers) result_.worker_maps.push_back({w.maps_done, w.map_busy, w.map_response});
  result_.mean_sojourn = jobs.empty() ? 0 : total_sojourn / static_cast<double>(jobs.size());
  const TaskLifecycle::Counters& c = tasks_.counters();
  result_.assignments = c.assignments;
  result_.backups = c.backups;
  result_.kills = c.kills;
  result_.failed_attempts = c.failed_attempts;
  result_.schedule = tasks_.TakeSchedule();
  return std::move(result_);
}

double TaskSimulator::NextEventTime() const {
  double next = kNever;
  if (next_arrival_ < state_.jobs.size()) next = state_.jobs[next_arrival_].spec->arrival;
  next = std::min(next, tasks_.NextEnd());
  next = std::min(next, tasks_.NextReady());
  if (!decisions_.empty()) next = std::min(next, decisions_.top().at);
  next = std::min(next, links_.NextDrain(state_));
  return std::max(next, state_.now);
}

double TaskSimulator::RefreshDue() const {
  if (!Periodic() || last_round_ == kNever || state_.active.empty()) return kNever;
  if (!cluster_.round_times.empty()) {
    return next_round_time_ < cluster_.round_times.size() ? cluster_.round_times[next_round_time_] : kNever;
  }
  // After a spell without jobs the grid has lapsed; live, the periodic round then comes with
  // the first heartbeat after the arrival, as the arrival's own round (arrival_latency).
  return std::max(last_round_ + cluster_.refresh_rounds, woke_ + cluster_.arrival_latency);
}

TaskSimulator::ReduceWaits TaskSimulator::WaitingReduces() const {
  int free_workers = 0;
  for (const SimWorker& w : state_.workers) free_workers += w.CanRunReduce();
  ReduceWaits n;
  for (size_t j : state_.active) {
    for (const ReduceTask& r : state_.jobs[j].reduces) {
      if (r.state != ReduceState::kReady || r.worker < 0) continue;
      if (state_.workers[r.worker].CanRunReduce()) {
        ++n.own_free;
      } else if (free_workers > 0) {
        ++n.bound;  // not its own worker: another one has a slot
      } else {
        ++n.full;
      }
    }
  }
  return n;
}

bool TaskSimulator::ProcessEventsAt(bool* arrived) {
  while (next_arrival_ < state_.jobs.size() &&
         state_.jobs[next_arrival_].spec->arrival <= state_.now) {
    if (state_.active.empty()) woke_ = state_.now;
    tasks_.Arrive(next_arrival_++);
    *arrived = true;
  }
  bool react = tasks_.EndDue();
  for (size_t j : state_.active) {
    if (!state_.jobs[j].finished) react = tasks_.MaybeShuffleDone(state_.jobs[j]) || react;
  }
  std::erase_if(state_.active, [&](size_t j) { return state_.jobs[j].finished; });
  return react;
}

void TaskSimulator::MaskUnheard(double heard) {
  masked_.clear();
  for (int i = 0; i < static_cast<int>(state_.workers.size()); ++i) {
    SimWorker& w = state_.workers[i];
    for (const auto& [t, kind] : w.reported_frees) {
      if (t <= heard || w.Free(kind) == 0) continue;
      --w.Free(kind);
      masked_.emplace_back(i, kind);
    }
  }
}

void TaskSimulator::Unmask(double heard) {
  for (const auto& [i, kind] : masked_) ++state_.workers[i].Free(kind);
  masked_.clear();
  for (SimWorker& w : state_.workers) {
    std::erase_if(w.reported_frees, [&](const auto& f) { return f.first <= heard; });
  }
}

// Live, the master's state thread handles one heartbeat at a time, and the round a report
// runs (master/job_tracker.cc, HeartbeatRound) sees the cluster as the reports handled so far
// left it: a slot whose end is reported later is not free to it yet, whatever the reaction
// (decision_latency) is. So the round sees only the slots freed by ends reported by `heard`;
// the others are masked for its length. With decision_latency 0 nothing is ever masked.
// A kCluster policy gets one round showing every worker's free slots. Otherwise the
// master runs a round on a worker's heartbeat when it could take a task; with every
// heartbeat at once, that is each such worker in id order. If none could, one
// round without free slots refreshes the shares (the master's periodic refresh). With the
// periodic round modelled (refresh_rounds > 0) an event's round runs only where the
// master's would: when some worker could take a task, or when the periodic round is due
// (an arrival while every slot is busy waits for it, as live).
Status TaskSimulator::Decide(bool refresh, double heard) {
  MaskUnheard(heard);
  Status st = DecideMasked(refresh);
  Unmask(heard);
  return st;
}

Status TaskSimulator::DecideMasked(bool refresh) {
  if (state_.active.empty()) return Status::Ok();
  const bool periodic = Periodic() && last_round_ != kNever;
  if (periodic && !refresh && !AnyAssignableWork()) return Status::Ok();
  if (scheduler_.scope() == sched::SnapshotScope::kCluster) {
    MR_RETURN_IF_ERROR(Round(kAllWorkers));
    for (int w = 0; w < static_cast<int>(state_.workers.size()); ++w) MR_RETURN_IF_ERROR(SpeculateRound(w));
    return Status::Ok();
  }
  // In id order: the reporter of an end is served first where the reports have an order
  // (the slots of ends reported later are masked, above), as live; ends reported at one
  // instant have no order to follow.
  int rounds = 0;
  for (int w = 0; w < static_cast<int>(state_.workers.size()); ++w) {
    if (!HasAssignableWork(w)) continue;
    MR_RETURN_IF_ERROR(Round(w));
    MR_RETURN_IF_ERROR(SpeculateRound(w));
    ++rounds;
  }
  if (rounds == 0) return Round(kNoWorker);
  return Status::Ok();
}

bool TaskSimulator::AnyAssignableWork() const {
  for (int w = 0; w < static_cast<int>(state_.workers.size()); ++w) {
    if (HasAssignableWork(w)) return true;
  }
  return false;
}

bool TaskSimulator::HasAssignableWork(int w) const {
  const SimWorker& worker = state_.workers[w];
  const bool map = worker.CanRunMap(), reduce = worker.CanRunReduce();
  for (size_t j : state_.active) {
    const SimJob& job = state_.jobs[j];
    if (map && job.HasPendingMap()) return true;
    if (map && job.maps_queued > 0) {
      for (const MapTask& m : job.maps) {
        if (m.state == MapState::kQueued && m.queued_at == w) return true;
      }
    }
    if (!reduce) continue;
    for (const ReduceTask& r : job.reduces) {
      if (r.state == ReduceState::kReady && r.worker == w) return true;
    }
  }
  return (cluster_.idle_rounds || speculator_ != nullptr) && HasUnbackedAttempt(w);
}

// Some attempt that worker w could back up: a map if it has a map-capable slot free,
// a reduce of its own if it has a reduce-capable one.
bool TaskSimulator::HasUnbackedAttempt(int w) const {
  const SimWorker& worker = state_.workers[w];
  const bool map = worker.CanRunMap(), reduce = worker.CanRunReduce();
  for (size_t j : state_.active) {
    const SimJob& job = state_.jobs[j];
    for (const MapTask& m : job.maps) {
      if (map && m.attempts.running.size() == 1 && !m.attempts.backed_up) return true;
    }
    for (const ReduceTask& r : job.reduces) {
      if (reduce && r.worker == w && r.attempts.running.size() == 1 && !r.attempts.backed_up)
        return true;
    }
  }
  return false;
}

// One Schedule() call: shares checked first, then the queue entries, assignments and
// kills, each checked and applied in the order given. A round that moved a map to a
// worker's queue or killed an attempt asks for another round (as the worker's next
// heartbeat would).
Status TaskSimulator::Round(int offered) {
  sched::Decision d = scheduler_.Schedule(BuildSnapshot(state_, offered));
  ++result_.schedule_calls;
  last_round_ = state_.now;
  auto contract = [&](Status st) {
    return st.ok() ? st : Status::Internal(Where(offered) + st.message());
  };
  double sum = 0;
  MR_RETURN_IF_ERROR(contract(CheckShares(state_, d, &sum)));
  result_.max_share_sum = std::max(result_.max_share_sum, sum);
  bool wake = false;
  for (const sched::QueueMap& q : d.queue) {
    MR_RETURN_IF_ERROR(contract(CheckQueue(state_, q)));
    wake = tasks_.Queue(q) || wake;
  }
  for (const sched::Assignment& a : d.assignments) {
    MR_RETURN_IF_ERROR(contract(CheckAssignment(state_, a, offered)));
    tasks_.Launch(a);
  }
  for (const sched::Kill& k : d.kills) {
    MR_RETURN_IF_ERROR(contract(CheckKill(state_, k)));
    tasks_.Kill(k);
    wake = true;
  }
  for (size_t j : state_.active) {
    auto it = d.shuffle_shares.find(state_.jobs[j].id);
    state_.jobs[j].share = it == d.shuffle_shares.end() ? 0.0 : it->second;
  }
  if (wake) decisions_.push({std::max(state_.now + cluster_.decision_latency, cluster_.first_round), state_.now});
  return Status::Ok();
}

Status TaskSimulator::SpeculateRound(int w) {
  if (speculator_ == nullptr) return Status::Ok();
  const sched::Snapshot snap = BuildSnapshot(state_, w);
  sched::Decision d = speculator_->Speculate(snap);
  for (const sched::Assignment& a : d.assignments) {
    // No backup where the policy would not run the job (a capacity queue bound to a label).
    if (!scheduler_.MayRunOn(state_.jobs[a.job - 1].spec->params, state_.workers[w].spec.labels)) continue;
    Status st = CheckAssignment(state_, a, w);
    if (!st.ok()) return Status::Internal(Where(w) + "speculator: " + st.message());
    tasks_.Launch(a);
  }
  return Status::Ok();
}

std::string TaskSimulator::Where(int offered) const {
  const std::string round = offered == kAllWorkers
                                ? std::string("round of all workers")
                                : "round of worker " + std::to_string(offered < 0 ? 0 : offered + 1);
  return Printf("policy %s, t=%.9g, %s: ", std::string(scheduler_.name()).c_str(), state_.now,
                round.c_str());
}

}  // namespace

Result<TaskSimResult> SimulateTasks(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                                    sched::Scheduler& scheduler, const sched::Speculator* speculator) {
  MR_RETURN_IF_ERROR(tasksim::ValidateTaskSimInput(jobs, cluster));
  MR_RETURN_IF_ERROR(tasksim::AdmitTaskSimJobs(jobs, cluster, scheduler));
  TaskSimulator sim(jobs, cluster, scheduler, speculator);
  return sim.Run();
}

}  // namespace mr::model
