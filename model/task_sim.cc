#include "model/task_sim.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <string>
#include <tuple>

#include "model/rng.h"
#include "scheduler/job_sizes.h"

namespace mr::model {
namespace {

using sched::JobId;
using sched::TaskKind;

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr double kShareSlack = 1e-9;

std::string Printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

enum class MapState { kPending, kRunning, kDone };
// As the master's ReduceTask: placed on a worker at slow start (fetching, no
// slot), ready once all its job's data has arrived, then running in a slot.
enum class ReduceState { kUnplaced, kFetching, kReady, kRunning, kDone };

struct MapTask {
  MapState state = MapState::kPending;
  int worker = -1;
  double start = 0;
};

struct ReduceTask {
  ReduceState state = ReduceState::kUnplaced;
  int worker = -1;
};

struct SimJob {
  const TaskJob* spec = nullptr;
  size_t input_index = 0;
  JobId id = 0;
  bool arrived = false, finished = false, slow_start_reached = false;
  std::vector<MapTask> maps;
  std::vector<ReduceTask> reduces;
  int maps_running = 0, maps_done = 0;
  int reduces_fetching = 0, reduces_running = 0, reduces_done = 0;
  double map_seconds_done = 0, produced = 0, fetched = 0;
  double byte_eps = 0;          // a backlog at most this counts as drained
  std::vector<double> backlog;  // per worker: output there not yet fetched
  double share = 0;             // from the last decision
  double completion = 0;
};

struct TaskEnd {
  double time;
  uint64_t seq;  // FIFO among equal times: deterministic runs
  size_t job;
  TaskKind kind;
  int index;
  bool operator>(const TaskEnd& o) const { return std::tie(time, seq) > std::tie(o.time, o.seq); }
};

struct Flow {
  size_t job;
  int worker;
  double rate;
};

Status ValidateInput(std::span<const TaskJob> jobs, const ClusterSpec& c) {
  if (c.workers < 1 || c.map_slots < 1 || c.reduce_slots < 1) {
    return Status::InvalidArgument(
        "need at least 1 worker, 1 map slot and 1 reduce slot per worker");
  }
  if (!(c.shuffle_bandwidth > 0) || !std::isfinite(c.shuffle_bandwidth)) {
    return Status::InvalidArgument("shuffle bandwidth must be a finite number of bytes/s > 0");
  }
  if (!(c.slow_start >= 0 && c.slow_start <= 1))
    return Status::InvalidArgument("slow-start must be in [0, 1]");
  if (!(c.map_time_cv >= 0 && c.map_time_cv <= 10)) {
    return Status::InvalidArgument("map time cv must be in [0, 10]");
  }
  if (!(c.decision_latency >= 0) || !std::isfinite(c.decision_latency)) {
    return Status::InvalidArgument("decision latency must be a finite number of seconds >= 0");
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TaskJob& j = jobs[i];
    bool ok = std::isfinite(j.arrival) && j.arrival >= 0 && j.maps >= 1 && j.maps <= 1000000 &&
              std::isfinite(j.map_seconds) && j.map_seconds > 0 && std::isfinite(j.map_bytes) &&
              j.map_bytes >= 0 && j.reducers >= 1 && j.reducers <= 100000 &&
              std::isfinite(j.reduce_seconds) && j.reduce_seconds >= 0 &&
              std::isfinite(j.hint_map_seconds) && j.hint_map_seconds >= 0 &&
              std::isfinite(j.hint_shuffle_bytes) && j.hint_shuffle_bytes >= 0;
    if (!ok) {
      return Status::InvalidArgument(
          "job " + std::to_string(i) +
          ": need arrival >= 0, 1..1000000 maps, map seconds > 0, map bytes >= 0, "
          "1..100000 reducers, reduce seconds >= 0, hints >= 0 (all finite)");
    }
  }
  return Status::Ok();
}

class TaskSimulator {
 public:
  TaskSimulator(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                sched::Scheduler& scheduler)
      : cluster_(cluster),
        scheduler_(scheduler),
        free_map_(cluster.workers, cluster.map_slots),
        free_reduce_(cluster.workers, cluster.reduce_slots),
        rng_(cluster.seed) {
    std::vector<size_t> order(jobs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return jobs[a].arrival < jobs[b].arrival; });
    jobs_.resize(jobs.size());
    for (size_t k = 0; k < order.size(); ++k) {
      SimJob& j = jobs_[k];
      j.spec = &jobs[order[k]];
      j.input_index = order[k];
      j.id = k + 1;  // the master numbers jobs from 1 in submission order
      j.maps.resize(static_cast<size_t>(j.spec->maps));
      j.reduces.resize(static_cast<size_t>(j.spec->reducers));
      j.backlog.assign(static_cast<size_t>(cluster.workers), 0.0);
      j.byte_eps = 1e-9 * j.spec->map_bytes * j.spec->maps;
    }
  }

  Result<TaskSimResult> Run();

 private:
  double NextEventTime() const;
  void ComputeFlows();
  void AdvanceShuffle(double dt);
  bool ProcessEventsAt();
  void Arrive(size_t j);
  void FinishTask(const TaskEnd& e);
  void MaybePlaceReduces(SimJob& job);
  bool MaybeShuffleDone(SimJob& job);
  Status Decide();
  double MapDuration(const TaskJob& spec);
  bool HasAssignableWork(int w) const;
  Status Round(int w);
  sched::Snapshot BuildSnapshot(int w) const;
  sched::SizeEstimate Estimate(const SimJob& job) const;
  Status CheckShares(const sched::Decision& d, int w);
  Status Apply(const sched::Assignment& a, int w);
  std::string Where(int w) const;

  const ClusterSpec cluster_;
  sched::Scheduler& scheduler_;
  std::vector<SimJob> jobs_;    // by arrival (stable), id = position + 1
  std::vector<size_t> active_;  // arrived, unfinished, in arrival order
  std::vector<int> free_map_, free_reduce_;
  Rng rng_;  // map duration noise (ClusterSpec::map_time_cv)
  std::priority_queue<TaskEnd, std::vector<TaskEnd>, std::greater<>> ends_;
  std::priority_queue<double, std::vector<double>, std::greater<>> decisions_;
  std::vector<Flow> flows_;  // shuffle rates until the next event
  size_t next_arrival_ = 0;
  size_t finished_ = 0;
  uint64_t seq_ = 0;
  double now_ = 0;
  TaskSimResult result_;
};

double TaskSimulator::MapDuration(const TaskJob& spec) {
  const double cv = cluster_.map_time_cv;
  if (cv <= 0) return spec.map_seconds;
  const LogNormalParams p = LogNormalFromMoments(1.0, cv);  // mean 1, sd = cv
  return spec.map_seconds * rng_.LogNormal(p.mu, p.sigma);
}

Result<TaskSimResult> TaskSimulator::Run() {
  // Zero-length steps are normal (a zero-second reduce ends where it starts);
  // many in a row without a finished job would be a loop.
  const int64_t max_zero_steps = 1000 + 10 * static_cast<int64_t>(jobs_.size());
  int64_t zero_steps = 0;
  while (finished_ < jobs_.size()) {
    ComputeFlows();
    double next = NextEventTime();
    if (next == kNever) {
      return Status::Internal(
          Printf("policy %s left work idle at t=%.6g: %zu jobs unfinished, no task "
                 "running, no data it lets move, no arrival left",
                 std::string(scheduler_.name()).c_str(), now_, jobs_.size() - finished_));
    }
    AdvanceShuffle(next - now_);
    size_t before = finished_;
    zero_steps = next > now_ ? 0 : zero_steps + 1;
    now_ = next;
    ++result_.events;
    if (ProcessEventsAt()) decisions_.push(now_ + cluster_.decision_latency);
    bool decide = false;
    while (!decisions_.empty() && decisions_.top() <= now_) {
      decisions_.pop();
      decide = true;  // rounds due at the same instant collapse into one
    }
    if (decide) MR_RETURN_IF_ERROR(Decide());
    if (finished_ > before) zero_steps = 0;
    if (zero_steps > max_zero_steps) {
      return Status::Internal(Printf("no progress at t=%.6g under policy %s", now_,
                                     std::string(scheduler_.name()).c_str()));
    }
  }
  result_.completion.assign(jobs_.size(), 0);
  result_.response.assign(jobs_.size(), 0);
  double total = 0;
  for (const SimJob& j : jobs_) {
    result_.completion[j.input_index] = j.completion;
    result_.response[j.input_index] = j.completion - j.spec->arrival;
    total += j.completion - j.spec->arrival;
    result_.makespan = std::max(result_.makespan, j.completion);
  }
  result_.mean_response = jobs_.empty() ? 0 : total / static_cast<double>(jobs_.size());
  return std::move(result_);
}

double TaskSimulator::NextEventTime() const {
  double next = kNever;
  if (next_arrival_ < jobs_.size()) next = jobs_[next_arrival_].spec->arrival;
  if (!ends_.empty()) next = std::min(next, ends_.top().time);
  if (!decisions_.empty()) next = std::min(next, decisions_.top());
  for (const Flow& f : flows_)
    next = std::min(next, now_ + jobs_[f.job].backlog[f.worker] / f.rate);
  return std::max(next, now_);
}

// Each worker's limiter (docs/shuffle.md): jobs with data waiting there and a
// positive share split the cap in proportion to their shares; only when none
// is waiting do the share-0 jobs split it equally. Data moves only once the
// job's reducers are placed (slow start).
void TaskSimulator::ComputeFlows() {
  flows_.clear();
  const double cap = cluster_.shuffle_bandwidth;
  for (int w = 0; w < cluster_.workers; ++w) {
    double share_sum = 0;
    int zero_share = 0;
    for (size_t j : active_) {
      const SimJob& job = jobs_[j];
      if (!job.slow_start_reached || job.backlog[w] <= 0) continue;
      if (job.share > 0)
        share_sum += job.share;
      else
        ++zero_share;
    }
    for (size_t j : active_) {
      const SimJob& job = jobs_[j];
      if (!job.slow_start_reached || job.backlog[w] <= 0) continue;
      double rate =
          share_sum > 0 ? (job.share > 0 ? cap * job.share / share_sum : 0) : cap / zero_share;
      if (rate > 0) flows_.push_back({j, w, rate});
    }
  }
}

void TaskSimulator::AdvanceShuffle(double dt) {
  std::vector<double> load(static_cast<size_t>(cluster_.workers), 0.0);
  for (const Flow& f : flows_) {
    SimJob& job = jobs_[f.job];
    double& b = job.backlog[f.worker];
    double moved = f.rate * dt;
    // The flow that set this step's length drains exactly, whatever the rounding.
    if (moved >= b * (1 - 1e-12) || b - moved <= job.byte_eps) moved = b;
    b -= moved;
    job.fetched += moved;
    load[f.worker] += f.rate;
  }
  for (double l : load)
    result_.max_link_load = std::max(result_.max_link_load, l / cluster_.shuffle_bandwidth);
}

// Applies everything due at now_; true when the master would run a round.
bool TaskSimulator::ProcessEventsAt() {
  bool react = false;
  while (next_arrival_ < jobs_.size() && jobs_[next_arrival_].spec->arrival <= now_) {
    Arrive(next_arrival_++);
    react = true;
  }
  while (!ends_.empty() && ends_.top().time <= now_) {
    TaskEnd e = ends_.top();
    ends_.pop();
    FinishTask(e);
    react = true;
  }
  for (size_t j : active_) react = MaybeShuffleDone(jobs_[j]) || react;
  std::erase_if(active_, [&](size_t j) { return jobs_[j].finished; });
  return react;
}

void TaskSimulator::Arrive(size_t j) {
  jobs_[j].arrived = true;
  active_.push_back(j);
  MaybePlaceReduces(jobs_[j]);
}

void TaskSimulator::FinishTask(const TaskEnd& e) {
  SimJob& job = jobs_[e.job];
  if (e.kind == TaskKind::kMap) {
    MapTask& m = job.maps[static_cast<size_t>(e.index)];
    m.state = MapState::kDone;
    ++free_map_[m.worker];
    --job.maps_running;
    ++job.maps_done;
    job.map_seconds_done += now_ - m.start;
    job.backlog[m.worker] += job.spec->map_bytes;
    job.produced += job.spec->map_bytes;
    MaybePlaceReduces(job);
    return;
  }
  ReduceTask& r = job.reduces[static_cast<size_t>(e.index)];
  r.state = ReduceState::kDone;
  ++free_reduce_[r.worker];
  --job.reduces_running;
  if (++job.reduces_done == job.spec->reducers) {
    job.finished = true;
    job.completion = now_;
    ++finished_;
  }
}

// The master's PlaceReduces: at slow start every reducer goes to the worker
// holding the fewest reducers of this job (ties: lowest id). No slot is taken.
void TaskSimulator::MaybePlaceReduces(SimJob& job) {
  if (job.slow_start_reached) return;
  const int needed = static_cast<int>(std::ceil(cluster_.slow_start * job.spec->maps));
  if (job.maps_done < needed) return;
  job.slow_start_reached = true;
  std::vector<int> load(static_cast<size_t>(cluster_.workers), 0);
  for (ReduceTask& r : job.reduces) {
    r.worker = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    ++load[r.worker];
    r.state = ReduceState::kFetching;
    ++job.reduces_fetching;
  }
}

bool TaskSimulator::MaybeShuffleDone(SimJob& job) {
  if (job.reduces_fetching == 0 || job.maps_done < job.spec->maps) return false;
  for (double b : job.backlog) {
    if (b > 0) return false;
  }
  for (ReduceTask& r : job.reduces) {
    if (r.state == ReduceState::kFetching) r.state = ReduceState::kReady;
  }
  job.reduces_fetching = 0;
  return true;
}

// The master runs a round on a worker's heartbeat when it could take a task;
// with every heartbeat at once, that is each such worker in id order. If none
// could, one round without free slots refreshes the shares (the master's
// periodic refresh).
Status TaskSimulator::Decide() {
  int rounds = 0;
  for (int w = 0; w < cluster_.workers; ++w) {
    if (!HasAssignableWork(w)) continue;
    MR_RETURN_IF_ERROR(Round(w));
    ++rounds;
  }
  if (rounds == 0 && !active_.empty()) return Round(-1);
  return Status::Ok();
}

bool TaskSimulator::HasAssignableWork(int w) const {
  bool map = free_map_[w] > 0, reduce = free_reduce_[w] > 0;
  for (size_t j : active_) {
    const SimJob& job = jobs_[j];
    if (map && job.maps_done + job.maps_running < job.spec->maps) return true;
    if (!reduce) continue;
    for (const ReduceTask& r : job.reduces) {
      if (r.state == ReduceState::kReady && r.worker == w) return true;
    }
  }
  return false;
}

Status TaskSimulator::Round(int w) {
  sched::Decision d = scheduler_.Schedule(BuildSnapshot(w));
  ++result_.schedule_calls;
  MR_RETURN_IF_ERROR(CheckShares(d, w));
  for (const sched::Assignment& a : d.assignments) MR_RETURN_IF_ERROR(Apply(a, w));
  for (size_t j : active_) {
    auto it = d.shuffle_shares.find(jobs_[j].id);
    jobs_[j].share = it == d.shuffle_shares.end() ? 0.0 : it->second;
  }
  return Status::Ok();
}

// As JobTracker::BuildSnapshot: every worker listed, free slots only on the
// heartbeating one (w; -1 = none), unfinished jobs in arrival order.
sched::Snapshot TaskSimulator::BuildSnapshot(int w) const {
  sched::Snapshot s;
  s.now = now_;
  for (int i = 0; i < cluster_.workers; ++i) {
    sched::WorkerView v;
    v.id = static_cast<sched::WorkerId>(i + 1);
    v.map_slots = cluster_.map_slots;
    v.reduce_slots = cluster_.reduce_slots;
    if (i == w) {
      v.free_map = free_map_[i];
      v.free_reduce = free_reduce_[i];
    }
    v.shuffle_bandwidth = cluster_.shuffle_bandwidth;
    s.shuffle_capacity += v.shuffle_bandwidth;
    s.workers.push_back(v);
  }
  for (size_t j : active_) {
    const SimJob& job = jobs_[j];
    sched::JobView v;
    v.id = job.id;
    v.name = "job-" + std::to_string(job.input_index);
    v.submit_time = job.spec->arrival;
    v.maps_total = job.spec->maps;
    v.maps_running = job.maps_running;
    v.maps_done = job.maps_done;
    for (size_t i = 0; i < job.maps.size(); ++i) {
      if (job.maps[i].state == MapState::kPending) v.pending_maps.push_back(static_cast<int>(i));
    }
    v.reduces_total = job.spec->reducers;
    v.reduces_fetching = job.reduces_fetching;
    v.reduces_running = job.reduces_running;
    v.reduces_done = job.reduces_done;
    for (size_t i = 0; i < job.reduces.size(); ++i) {
      const ReduceTask& r = job.reduces[i];
      if (r.state == ReduceState::kReady) {
        v.ready_reduces.push_back(
            {static_cast<int>(i), static_cast<sched::WorkerId>(r.worker + 1)});
      }
    }
    if (job.slow_start_reached)
      v.shuffle_bytes_available = std::max(0.0, job.produced - job.fetched);
    v.estimate = Estimate(job);
    s.jobs.push_back(std::move(v));
  }
  return s;
}

// The master's estimate (sched::EstimateSize) for a job without input files or profile.
sched::SizeEstimate TaskSimulator::Estimate(const SimJob& job) const {
  sched::EstimateInputs in;
  in.maps_total = job.spec->maps;
  in.maps_done = job.maps_done;
  in.map_seconds_done = job.map_seconds_done;
  in.map_output_bytes = job.produced;
  in.hint_map_seconds = job.spec->hint_map_seconds;
  in.hint_shuffle_bytes = job.spec->hint_shuffle_bytes;
  in.shuffle_bytes_fetched = job.fetched;
  return sched::EstimateSize(in, [&](double mean_time) {
    double elapsed = 0;
    for (const MapTask& m : job.maps) {
      if (m.state == MapState::kRunning) elapsed += std::min(mean_time, std::max(0.0, now_ - m.start));
    }
    return elapsed;
  });
}

std::string TaskSimulator::Where(int w) const {
  return Printf("policy %s, t=%.9g, round of worker %d: ", std::string(scheduler_.name()).c_str(),
                now_, w < 0 ? 0 : w + 1);
}

Status TaskSimulator::CheckShares(const sched::Decision& d, int w) {
  double sum = 0;
  for (const auto& [id, share] : d.shuffle_shares) {
    bool known = id >= 1 && id <= jobs_.size() && jobs_[id - 1].arrived && !jobs_[id - 1].finished;
    if (!known)
      return Status::Internal(Where(w) + "shuffle share for job " + std::to_string(id) +
                              " not in the snapshot");
    if (!(share >= 0 && share <= 1)) {
      return Status::Internal(Where(w) + Printf("share %g of job %llu outside [0, 1]", share,
                                                static_cast<unsigned long long>(id)));
    }
    sum += share;
  }
  if (sum > 1 + kShareSlack)
    return Status::Internal(Where(w) + Printf("shuffle shares sum to %.12g > 1", sum));
  result_.max_share_sum = std::max(result_.max_share_sum, sum);
  return Status::Ok();
}

Status TaskSimulator::Apply(const sched::Assignment& a, int w) {
  const bool map = a.kind == TaskKind::kMap;
  std::string task = Printf("%s-%05d of job %llu on worker %u: ", map ? "m" : "r", a.index,
                            static_cast<unsigned long long>(a.job), a.worker);
  if (a.job < 1 || a.job > jobs_.size() || !jobs_[a.job - 1].arrived || jobs_[a.job - 1].finished) {
    return Status::Internal(Where(w) + task + "no such unfinished job");
  }
  if (w < 0 || a.worker != static_cast<sched::WorkerId>(w + 1)) {
    return Status::Internal(Where(w) + task + "that worker offered no free slot in this round");
  }
  SimJob& job = jobs_[a.job - 1];
  int& free = map ? free_map_[w] : free_reduce_[w];
  if (a.slot != (map ? sched::SlotKind::kMap : sched::SlotKind::kReduce) || free <= 0) {
    return Status::Internal(Where(w) + task + "no free slot of the kind given");
  }
  const size_t count = map ? job.maps.size() : job.reduces.size();
  if (a.index < 0 || static_cast<size_t>(a.index) >= count)
    return Status::Internal(Where(w) + task + "no such task");
  double duration = 0;
  if (map) {
    MapTask& m = job.maps[static_cast<size_t>(a.index)];
    if (m.state != MapState::kPending)
      return Status::Internal(Where(w) + task + "map is not pending");
    m = {MapState::kRunning, w, now_};
    ++job.maps_running;
    duration = MapDuration(*job.spec);
  } else {
    ReduceTask& r = job.reduces[static_cast<size_t>(a.index)];
    if (r.state != ReduceState::kReady || r.worker != w) {
      return Status::Internal(Where(w) + task + "reduce is not ready on that worker");
    }
    r.state = ReduceState::kRunning;
    ++job.reduces_running;
    duration = job.spec->reduce_seconds;
  }
  --free;
  ++result_.assignments;
  ends_.push({now_ + duration, seq_++, static_cast<size_t>(a.job - 1), a.kind, a.index});
  return Status::Ok();
}

}  // namespace

Result<TaskSimResult> SimulateTasks(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                                    sched::Scheduler& scheduler) {
  MR_RETURN_IF_ERROR(ValidateInput(jobs, cluster));
  TaskSimulator sim(jobs, cluster, scheduler);
  return sim.Run();
}

}  // namespace mr::model
