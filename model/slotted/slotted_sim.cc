#include "model/slotted/slotted_sim.h"

#include <algorithm>
#include <cstring>

#include "model/slotted/slotted_baselines.h"
#include "scheduler/policy_table.h"

namespace mr::model {
namespace {

constexpr sched::WorkerId kWorker = 1;

// A job in the system. Maps run for exactly one slot, so at the start of a slot none is
// running: a map is pending or done.
struct Job {
  const SlottedJob* spec = nullptr;
  size_t input = 0;                 // position in the input; JobId = input + 1
  std::vector<int64_t> map_ran;     // slot each map ran in, 0 = pending
  int maps_done = 0;
  int64_t maps_finished = 0;        // f_i^(m), 0 = maps not done
  int64_t reduce_units = 0;         // R_i
  int64_t reduce_units_done = 0;
  // Non-preemptive: per reduce task, the slot it started in (0 = not started) and its
  // units done. Preemptive: per reduce unit, the slot it ran in (0 = not yet).
  std::vector<int64_t> started;
  std::vector<int> units_done;
  int64_t listed_end = 0;           // preemptive: units below this index were listed ready
  int reduces_done = 0;             // non-preemptive: finished tasks
  int held = 0;                     // non-preemptive: started, unfinished tasks
  int ran_maps = 0, ran_reduce = 0; // this slot, for the schedule record

  bool finished() const { return maps_done == spec->maps && reduce_units_done == reduce_units; }
};

class Run {
 public:
  Run(std::span<const SlottedJob> jobs, sched::Scheduler& policy, const SlottedOptions& o)
      : input_(jobs), policy_(policy), o_(o), pos_(jobs.size(), -1) {}
  Result<SlottedResult> Go();

 private:
  void Admit(int64_t t);
  sched::Snapshot Build(int64_t t);
  sched::JobView ViewOf(Job& j) const;
  Status Apply(const sched::Decision& d, int64_t t);
  Status ApplyMap(Job& j, int index, int64_t t);
  Status ApplyReduce(Job& j, int index, int64_t t);
  int64_t Progress(int64_t t);  // runs held reduces, retires finished jobs; units run
  Status Error(int64_t t, const std::string& what) const;

  std::span<const SlottedJob> input_;
  sched::Scheduler& policy_;
  const SlottedOptions& o_;
  std::vector<Job> active_;  // arrival order
  std::vector<int> pos_;     // input index -> position in active_, -1 = not in the system
  size_t next_ = 0;          // next input job to arrive
  int held_ = 0;             // machines held by running non-preemptive reduces
  int used_ = 0;             // machines given by this slot's decision
  SlottedResult result_;
};

Status Run::Error(int64_t t, const std::string& what) const {
  return Status::Internal("policy " + std::string(policy_.name()) + ", slot " + std::to_string(t) +
                          ": " + what);
}

void Run::Admit(int64_t t) {
  for (; next_ < input_.size() && input_[next_].arrival <= t; ++next_) {
    Job j;
    j.spec = &input_[next_];
    j.input = next_;
    j.map_ran.assign(static_cast<size_t>(j.spec->maps), 0);
    j.reduce_units = j.spec->reduce_units();
    if (o_.preemptive) {
      j.started.assign(static_cast<size_t>(j.reduce_units), 0);
    } else {
      j.started.assign(j.spec->reduces.size(), 0);
      j.units_done.assign(j.spec->reduces.size(), 0);
    }
    active_.push_back(std::move(j));
  }
}

sched::JobView Run::ViewOf(Job& j) const {
  sched::JobView v;
  v.id = j.input + 1;
  v.name = "job-" + std::to_string(j.input + 1);
  v.submit_time = static_cast<double>(j.spec->arrival);
  v.maps_total = j.spec->maps;
  v.maps_done = j.maps_done;
  for (int i = 0; i < j.spec->maps; ++i) {
    if (j.map_ran[static_cast<size_t>(i)] == 0) v.pending_maps.push_back(i);
  }
  const bool maps_done = j.maps_finished != 0;
  if (o_.preemptive) {
    v.reduces_total = static_cast<int>(j.reduce_units);
    v.reduces_done = static_cast<int>(j.reduce_units_done);
    // The first unfinished units, at most N: no more can run in one slot.
    const size_t listed = static_cast<size_t>(o_.machines);
    j.listed_end = 0;
    for (size_t u = 0; maps_done && u < j.started.size() && v.ready_reduces.size() < listed; ++u) {
      if (j.started[u] != 0) continue;
      v.ready_reduces.push_back({static_cast<int>(u), kWorker});
      j.listed_end = static_cast<int64_t>(u) + 1;
    }
  } else {
    v.reduces_total = static_cast<int>(j.spec->reduces.size());
    v.reduces_done = j.reduces_done;
    v.reduces_running = j.held;
    for (size_t k = 0; k < j.started.size(); ++k) {
      const int units = j.spec->reduces[k];
      if (j.started[k] == 0) {
        if (maps_done) v.ready_reduces.push_back({static_cast<int>(k), kWorker});
      } else if (j.units_done[k] < units) {
        sched::RunningAttempt r;
        r.kind = sched::TaskKind::kReduce;
        r.index = static_cast<int>(k);
        r.attempt = 1;
        r.worker = kWorker;
        r.slot = sched::SlotKind::kUnified;
        r.start_time = static_cast<double>(j.started[k]);
        r.progress = static_cast<double>(j.units_done[k]) / units;
        v.running.push_back(r);
      }
    }
  }
  sched::SizeEstimate& e = v.estimate;
  e.source = e.reduce_source = sched::EstimateSource::kHint;
  e.map_seconds_total = j.spec->maps;
  e.map_seconds_remaining = j.spec->maps - j.maps_done;
  e.reduce_seconds_total = static_cast<double>(j.reduce_units);
  e.reduce_seconds_remaining = static_cast<double>(j.reduce_units - j.reduce_units_done);
  return v;
}

sched::Snapshot Run::Build(int64_t t) {
  sched::Snapshot s;
  s.now = static_cast<double>(t);
  s.heartbeating = kWorker;
  sched::WorkerView w;
  w.id = kWorker;
  w.unified_slots = o_.machines;
  w.free_unified = o_.machines - held_;
  s.workers.push_back(w);
  s.jobs.reserve(active_.size());
  for (Job& j : active_) s.jobs.push_back(ViewOf(j));
  return s;
}

Status Run::ApplyMap(Job& j, int index, int64_t t) {
  const std::string what = "map " + std::to_string(index) + " of job " + std::to_string(j.input + 1);
  if (index < 0 || index >= j.spec->maps) return Error(t, what + " does not exist");
  int64_t& ran = j.map_ran[static_cast<size_t>(index)];
  if (ran == t) return Error(t, what + " assigned twice");
  if (ran != 0) return Error(t, what + " is already done");
  ran = t;
  ++j.maps_done;
  ++j.ran_maps;
  if (j.maps_done == j.spec->maps) j.maps_finished = t;
  return Status::Ok();
}

// A reduce may start only if the job's maps were all done before this slot (Eq. (1): reduce
// work runs from slot f^(m) + 1), so a map assigned in this same decision does not count.
Status Run::ApplyReduce(Job& j, int index, int64_t t) {
  const std::string what = "reduce " + std::to_string(index) + " of job " + std::to_string(j.input + 1);
  if (j.maps_finished == 0 || j.maps_finished >= t) {
    return Error(t, what + " assigned before the job's maps are done");
  }
  if (index < 0 || static_cast<size_t>(index) >= j.started.size()) return Error(t, what + " does not exist");
  int64_t& started = j.started[static_cast<size_t>(index)];
  if (started == t) return Error(t, what + " assigned twice");
  if (started != 0) return Error(t, what + (o_.preemptive ? " is already done" : " already started"));
  if (o_.preemptive && index >= j.listed_end) {
    return Error(t, what + " was not listed as ready");
  }
  started = t;
  if (o_.preemptive) {
    ++j.reduce_units_done;
    ++j.ran_reduce;
  } else {
    ++j.held;
    ++held_;  // runs its first unit in Progress()
  }
  return Status::Ok();
}

Status Run::Apply(const sched::Decision& d, int64_t t) {
  if (!d.kills.empty()) return Error(t, "kills a task (the slotted model has no kills)");
  if (!d.queue.empty()) return Error(t, "queues a map at a worker (the slotted model has no queues)");
  const int free = o_.machines - held_;
  used_ = 0;
  for (const sched::Assignment& a : d.assignments) {
    if (a.worker != kWorker || a.slot != sched::SlotKind::kUnified) {
      return Error(t, "assignment to worker " + std::to_string(a.worker) +
                          " on a slot other than its unified slots");
    }
    if (a.backup) return Error(t, "backup attempt (the slotted model has no speculation)");
    const int p = a.job >= 1 && a.job <= pos_.size() ? pos_[a.job - 1] : -1;
    if (p < 0) return Error(t, "assignment for job " + std::to_string(a.job) + " not in the system");
    if (++used_ > free) {
      return Error(t, "assigns more tasks than the " + std::to_string(free) + " free machines");
    }
    Job& j = active_[static_cast<size_t>(p)];
    MR_RETURN_IF_ERROR(a.kind == sched::TaskKind::kMap ? ApplyMap(j, a.index, t)
                                                       : ApplyReduce(j, a.index, t));
  }
  return Status::Ok();
}

int64_t Run::Progress(int64_t t) {
  int64_t units = 0;
  std::string line = std::to_string(t) + ":";
  for (Job& j : active_) {
    for (size_t k = 0; !o_.preemptive && k < j.started.size(); ++k) {
      if (j.started[k] == 0 || j.units_done[k] == j.spec->reduces[k]) continue;
      ++j.ran_reduce;
      ++j.reduce_units_done;
      if (++j.units_done[k] == j.spec->reduces[k]) {
        ++j.reduces_done;
        --j.held;
        --held_;
      }
    }
    units += j.ran_maps + j.ran_reduce;
    if (o_.record_schedule && j.ran_maps + j.ran_reduce > 0) {
      line += " " + std::to_string(j.input + 1);
      if (j.ran_maps > 0) line += "m" + std::to_string(j.ran_maps);
      if (j.ran_reduce > 0) line += "r" + std::to_string(j.ran_reduce);
    }
    j.ran_maps = j.ran_reduce = 0;
    if (j.finished()) {
      result_.finish[j.input] = t;
      result_.flow_time[j.input] = t - j.spec->arrival + 1;
      result_.total_flow_time += result_.flow_time[j.input];
      result_.last_slot = t;
    }
  }
  if (o_.record_schedule) result_.slots.push_back(std::move(line));
  std::erase_if(active_, [](const Job& j) { return j.finished(); });
  return units;
}

Result<SlottedResult> Run::Go() {
  if (o_.machines < 1) return Status::InvalidArgument("machines must be >= 1");
  result_.finish.assign(input_.size(), 0);
  result_.flow_time.assign(input_.size(), 0);
  int64_t idle = 0;
  for (int64_t t = 1; next_ < input_.size() || !active_.empty(); ++t) {
    Admit(t);
    std::fill(pos_.begin(), pos_.end(), -1);
    for (size_t p = 0; p < active_.size(); ++p) pos_[active_[p].input] = static_cast<int>(p);
    const sched::Snapshot snap = Build(t);
    MR_RETURN_IF_ERROR(Apply(policy_.Schedule(snap), t));
    const bool waiting = !active_.empty();
    idle = Progress(t) == 0 && waiting ? idle + 1 : 0;
    if (idle >= o_.max_idle_slots) {
      return Error(t, "no work done for " + std::to_string(idle) + " slots while jobs wait");
    }
  }
  return std::move(result_);
}

}  // namespace

Result<SlottedResult> RunSlotted(std::span<const SlottedJob> jobs, sched::Scheduler& policy,
                                 const SlottedOptions& options) {
  for (size_t i = 1; i < jobs.size(); ++i) {
    if (jobs[i].arrival < jobs[i - 1].arrival) {
      return Status::InvalidArgument("jobs must be in arrival order (job " + std::to_string(i + 1) + ")");
    }
  }
  Run run(jobs, policy, options);
  return run.Go();
}

Result<std::unique_ptr<sched::Scheduler>> MakeSlottedPolicy(std::string_view name,
                                                            sched::PolicyOptions options) {
  if (IsSlottedBaseline(name)) return MakeSlottedBaseline(name);
  const sched::PolicyRow* row = sched::FindPolicy(name);
  if (row == nullptr) return sched::UnknownPolicy(name);
  const char* round = row->traits.round_option;
  for (const sched::OptionSpec& spec : row->options) {
    if (round != nullptr && std::strcmp(spec.name, round) == 0 && !options.Has(spec.name)) {
      MR_RETURN_IF_ERROR(options.Set(spec, "1"));
    }
  }
  return sched::CreateScheduler(name, options);
}

}  // namespace mr::model
