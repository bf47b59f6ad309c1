// mr_bench_sched_run: decision time of a policy over a SEQUENCE of snapshots from a
// simulated run, for policies that keep state between calls (asrpt's virtual schedule
// and round plan), where timing one snapshot again and again would not measure the work.
//
//   mr_bench_sched_run [--policy asrpt] [--jobs 1000] [--workers 100] [--slots 2]
//                      [--steps 4000] [--step 0.05] [--round 1] [--seed 1] [--wall 1]
//
// The run: `workers` workers with `slots` unified slots each; a closed system of `jobs`
// active jobs (a finished job is replaced by a new arrival, so `jobs` are active at every
// call); each job has 1-20 maps of U(1, 10) s and 1-4 reduces of U(1, 20) s that become ready on
// a random worker once its maps are done; estimates are exact (source online, map and
// reduce slot-seconds). Every `step` seconds the tasks that ended free their slots and
// the policy gets one snapshot of the whole cluster (every worker's free slots, as a
// kCluster policy is offered); its assignments start at once. Only Schedule() is timed.
// Prints, for all calls and for calls that start a round (asrpt: note contains
// "planned"), the median and p99 microseconds per call and per free slot offered (a call
// with no free slot counts as one), slot_mean_us = all calls' time / all free slots
// offered, in
// thread CPU time (--wall 1: wall-clock time, which on a loaded machine includes the
// time other processes ran in the middle of a call). `digest` is an FNV-1a hash of every
// decision (assignments, shares, note), outside the timed part: a change that should not
// move a decision (a faster policy) must leave it as it was for the same flags.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <time.h>

#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"

namespace {

using namespace mr::sched;

struct Task {
  double seconds = 0;
  double end = -1;        // running until `end`; -1 = not started
  bool done = false;
  WorkerId worker = 0;
};

struct SimJob {
  JobId id = 0;
  double submit = 0;
  std::vector<Task> maps, reduces;
  std::vector<WorkerId> reduce_home;  // where each reduce's data sits
};

class Run {
 public:
  Run(int jobs, int workers, int slots, uint32_t seed)
      : rng_(seed), workers_(workers), slots_(slots), free_(workers, slots) {
    for (int j = 0; j < jobs; ++j) jobs_.push_back(NewJob(0));
  }

  // Ends the tasks due by `now`, replaces finished jobs, returns the snapshot.
  Snapshot Advance(double now) {
    now_ = now;
    for (SimJob& job : jobs_) {
      for (auto* tasks : {&job.maps, &job.reduces}) {
        for (Task& t : *tasks) {
          if (!t.done && t.end >= 0 && t.end <= now) {
            t.done = true;
            ++free_[t.worker - 1];
          }
        }
      }
    }
    for (SimJob& job : jobs_) {
      if (Done(job)) job = NewJob(now);
    }
    return Build();
  }

  void Apply(const Decision& d) {
    for (const Assignment& a : d.assignments) {
      SimJob* job = Find(a.job);
      if (job == nullptr || free_[a.worker - 1] == 0) std::abort();  // policy broke the contract
      Task& t = a.kind == TaskKind::kMap ? job->maps[a.index] : job->reduces[a.index];
      t.end = now_ + t.seconds;
      t.worker = a.worker;
      --free_[a.worker - 1];
    }
  }

  int free_slots() const {
    int n = 0;
    for (int f : free_) n += f;
    return n;
  }

 private:
  SimJob NewJob(double now) {
    SimJob j;
    j.id = next_id_++;
    j.submit = now;
    const int maps = Int(1, 20), reduces = Int(1, 4);
    for (int m = 0; m < maps; ++m) j.maps.push_back({Real(1, 10)});
    for (int r = 0; r < reduces; ++r) {
      j.reduces.push_back({Real(1, 20)});
      j.reduce_home.push_back(static_cast<WorkerId>(Int(1, workers_)));
    }
    return j;
  }
  static bool Done(const SimJob& j) {
    for (const Task& t : j.reduces) {
      if (!t.done) return false;
    }
    return true;
  }
  SimJob* Find(JobId id) {
    auto it = std::lower_bound(jobs_.begin(), jobs_.end(), id,
                               [](const SimJob& j, JobId v) { return j.id < v; });
    return it != jobs_.end() && it->id == id ? &*it : nullptr;
  }

  Snapshot Build() {
    // Replaced jobs got larger ids: keep the list sorted by id (= arrival).
    std::sort(jobs_.begin(), jobs_.end(), [](const SimJob& a, const SimJob& b) { return a.id < b.id; });
    Snapshot s;
    s.now = now_;
    for (int w = 0; w < workers_; ++w) {
      WorkerView v;
      v.id = static_cast<WorkerId>(w + 1);
      v.unified_slots = slots_;
      v.free_unified = free_[w];
      s.workers.push_back(v);
    }
    for (const SimJob& job : jobs_) s.jobs.push_back(View(job));
    return s;
  }

  JobView View(const SimJob& job) const {
    JobView v;
    v.id = job.id;
    v.submit_time = job.submit;
    v.maps_total = static_cast<int>(job.maps.size());
    v.reduces_total = static_cast<int>(job.reduces.size());
    EstimateSource online = EstimateSource::kOnline;
    v.estimate.source = v.estimate.reduce_source = online;
    for (int m = 0; m < v.maps_total; ++m) {
      const Task& t = job.maps[m];
      v.estimate.map_seconds_total += t.seconds;
      if (t.done) {
        ++v.maps_done;
        continue;
      }
      v.estimate.map_seconds_remaining += t.end >= 0 ? t.end - now_ : t.seconds;
      if (t.end >= 0) {
        ++v.maps_running;
        v.running.push_back({TaskKind::kMap, m, 1, t.worker, SlotKind::kUnified});
      } else {
        v.pending_maps.push_back(m);
      }
    }
    const bool maps_over = v.maps_done == v.maps_total;
    for (int r = 0; r < v.reduces_total; ++r) {
      const Task& t = job.reduces[r];
      v.estimate.reduce_seconds_total += t.seconds;
      if (t.done) {
        ++v.reduces_done;
        continue;
      }
      v.estimate.reduce_seconds_remaining += t.end >= 0 ? t.end - now_ : t.seconds;
      if (t.end >= 0) {
        ++v.reduces_running;
        v.running.push_back({TaskKind::kReduce, r, 1, t.worker, SlotKind::kUnified});
      } else if (maps_over) {
        v.ready_reduces.push_back({r, job.reduce_home[r]});
      } else {
        ++v.reduces_fetching;
      }
    }
    return v;
  }

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double Real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  std::mt19937 rng_;
  int workers_, slots_;
  std::vector<int> free_;
  std::vector<SimJob> jobs_;
  JobId next_id_ = 1;
  double now_ = 0;
};

// CPU time of this thread: on a shared machine wall time also counts the time the
// scheduler of the OS gave to other processes in the middle of a decision.
double ThreadCpuMicros() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

double Flag(int argc, char** argv, std::string_view name, double def) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::atof(argv[i + 1]);
  }
  return def;
}

// FNV-1a over the bytes of a decision's fields, in order.
class Digest {
 public:
  void Add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 1099511628211ull;
    }
  }
  template <typename T>
  void AddValue(T v) {
    Add(&v, sizeof v);
  }
  void Add(const Decision& d) {
    for (const Assignment& a : d.assignments) {
      AddValue(a.job);
      AddValue(static_cast<int>(a.kind));
      AddValue(a.index);
      AddValue(a.worker);
      AddValue(static_cast<int>(a.slot));
    }
    for (const ShareMap* m : {&d.shuffle_shares, &d.map_shares}) {
      AddValue(m->size());
      for (const auto& [job, share] : *m) {
        AddValue(job);
        AddValue(share);
      }
    }
    Add(d.note.data(), d.note.size());
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 14695981039346656037ull;
};

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  std::string policy = "asrpt";
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--policy") policy = argv[i + 1];
  }
  const int jobs = static_cast<int>(Flag(argc, argv, "--jobs", 1000));
  const int workers = static_cast<int>(Flag(argc, argv, "--workers", 100));
  const int slots = static_cast<int>(Flag(argc, argv, "--slots", 2));
  const int steps = static_cast<int>(Flag(argc, argv, "--steps", 4000));
  const double step = Flag(argc, argv, "--step", 0.05);
  const double round = Flag(argc, argv, "--round", 1);
  PolicyOptions options;
  // --round sets the policy's round option (its row's round_option trait; asrpt-round).
  const PolicyRow* row = FindPolicy(policy);
  if (row != nullptr && row->traits.round_option != nullptr) options.SetValue(row->traits.round_option, round);
  auto sched = CreateScheduler(policy, options);
  if (!sched.ok()) {
    std::fprintf(stderr, "%s\n", sched.status().ToString().c_str());
    return 2;
  }
  Run run(jobs, workers, slots, static_cast<uint32_t>(Flag(argc, argv, "--seed", 1)));
  const bool cpu = Flag(argc, argv, "--wall", 0) == 0;
  std::vector<double> call_us, slot_us, round_us, round_slot_us;
  long assigned = 0, offered = 0;
  double total_us = 0;
  Digest digest;
  for (int s = 0; s < steps; ++s) {
    Snapshot snap = run.Advance(s * step);
    const int free = run.free_slots();
    const double c0 = ThreadCpuMicros();
    auto t0 = std::chrono::steady_clock::now();
    Decision d = (*sched)->Schedule(snap);
    auto t1 = std::chrono::steady_clock::now();
    const double c1 = ThreadCpuMicros();
    run.Apply(d);
    digest.Add(d);
    assigned += static_cast<long>(d.assignments.size());
    const double us = cpu ? c1 - c0 : std::chrono::duration<double, std::micro>(t1 - t0).count();
    call_us.push_back(us);
    total_us += us;
    offered += free;
    slot_us.push_back(us / std::max(1, free));
    if (d.note.find("planned") != std::string::npos) {
      round_us.push_back(us);
      round_slot_us.push_back(us / std::max(1, free));
    }
  }
  std::printf("# microseconds of %s time per Schedule() call\n", cpu ? "thread CPU" : "wall");
  std::printf("policy\tjobs\tworkers\tslots\tcalls\tassigned\tcall_med_us\tcall_p99_us\t"
              "slot_med_us\tslot_p99_us\tslot_mean_us\trounds\tround_med_us\tround_p99_us\t"
              "round_slot_p99_us\tdigest\n");
  std::printf("%s\t%d\t%d\t%d\t%d\t%ld\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%zu\t%.1f\t%.1f\t%.1f\t%016llx\n",
              policy.c_str(), jobs, workers, workers * slots, steps, assigned,
              Quantile(call_us, 0.5), Quantile(call_us, 0.99), Quantile(slot_us, 0.5),
              Quantile(slot_us, 0.99), total_us / static_cast<double>(std::max(1L, offered)),
              round_us.size(), Quantile(round_us, 0.5),
              Quantile(round_us, 0.99), Quantile(round_slot_us, 0.99),
              static_cast<unsigned long long>(digest.value()));
  return 0;
}
