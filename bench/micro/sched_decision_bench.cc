// mr_bench_sched: time of one Scheduler::Schedule() call for every policy on a
// synthetic snapshot (issue 6 target: <= 100 us with 1,000 jobs and 100 workers).
//
//   mr_bench_sched [--jobs N] [--workers N] [--rounds N] [--policy NAME]
//                  [--shape one-free|all-free]
//
// Two shapes per policy: "one-free" (one worker has free slots, what a heartbeat
// usually offers) and "all-free" (every slot free, a cluster-wide round). Jobs
// have pending maps, ready reduces and online size estimates, so the SRPT-style
// policies do their full work. Prints median and p99 microseconds per decision.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/scheduler.h"

namespace {

using mr::sched::JobView;
using mr::sched::Snapshot;
using mr::sched::WorkerView;

Snapshot MakeSnapshot(int jobs, int workers, bool all_free, std::mt19937* rng) {
  Snapshot s;
  s.now = 10000;
  s.shuffle_capacity = 0;
  for (int w = 0; w < workers; ++w) {
    WorkerView v;
    v.id = static_cast<mr::sched::WorkerId>(w + 1);
    v.map_slots = v.reduce_slots = 2;
    const bool free = all_free || w == workers / 2;
    v.free_map = v.free_reduce = free ? 2 : 0;
    s.workers.push_back(v);
  }
  for (int j = 0; j < jobs; ++j) {
    JobView v;
    v.id = static_cast<mr::sched::JobId>(j + 1);
    v.name = "job" + std::to_string(j);
    v.params.pool = "pool" + std::to_string(j % 10);
    v.submit_time = j;
    v.maps_total = 20;
    v.maps_done = static_cast<int>((*rng)() % 10);
    for (int m = v.maps_done; m < v.maps_total; ++m) v.pending_maps.push_back(m);
    v.reduces_total = 4;
    for (int r = 0; r < 2; ++r) {
      v.ready_reduces.push_back({r, static_cast<mr::sched::WorkerId>(1 + (*rng)() % workers)});
    }
    v.shuffle_bytes_available = 1e6 * ((*rng)() % 100);
    v.estimate.source = mr::sched::EstimateSource::kOnline;
    v.estimate.map_seconds_total = 20.0 * (1 + (*rng)() % 50);
    v.estimate.map_seconds_remaining = v.estimate.map_seconds_total * (v.maps_total - v.maps_done) / v.maps_total;
    v.estimate.shuffle_bytes_total = 1e8 * (1 + (*rng)() % 50);
    v.estimate.shuffle_bytes_remaining = v.estimate.shuffle_bytes_total / 2;
    s.jobs.push_back(std::move(v));
  }
  return s;
}

int Arg(int argc, char** argv, std::string_view name, int def) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::atoi(argv[i + 1]);
  }
  return def;
}

}  // namespace

int main(int argc, char** argv) {
  const int jobs = Arg(argc, argv, "--jobs", 1000);
  const int workers = Arg(argc, argv, "--workers", 100);
  const int rounds = std::max(1, Arg(argc, argv, "--rounds", 200));
  std::string only, shape;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--policy") only = argv[i + 1];
    if (std::string_view(argv[i]) == "--shape") shape = argv[i + 1];
  }
  if (!shape.empty() && shape != "one-free" && shape != "all-free") {
    std::fprintf(stderr, "--shape: expected one-free or all-free, got '%s'\n", shape.c_str());
    return 2;
  }
  const std::vector<std::string> known = mr::sched::KnownPolicies();
  if (!only.empty() && std::find(known.begin(), known.end(), only) == known.end()) {
    std::fprintf(stderr, "--policy: unknown policy '%s'\n", only.c_str());
    return 2;
  }
  std::printf("policy\tshape\tjobs\tworkers\tassignments\tmedian_us\tp99_us\n");
  for (const std::string& policy : known) {
    if (!only.empty() && policy != only) continue;
    for (bool all_free : {false, true}) {
      // A single shape lets a profiler (callgrind) attribute cost to one of them.
      if (!shape.empty() && all_free != (shape == "all-free")) continue;
      std::mt19937 rng(1);
      Snapshot snap = MakeSnapshot(jobs, workers, all_free, &rng);
      auto sched = mr::sched::CreateScheduler(policy);
      if (!sched.ok()) {
        std::fprintf(stderr, "%s: %s\n", policy.c_str(), sched.status().ToString().c_str());
        return 1;
      }
      std::vector<double> us;
      size_t assigned = 0;
      for (int r = 0; r < rounds; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        mr::sched::Decision d = (*sched)->Schedule(snap);
        auto t1 = std::chrono::steady_clock::now();
        assigned = d.assignments.size();
        us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      std::sort(us.begin(), us.end());
      std::printf("%s\t%s\t%d\t%d\t%zu\t%.1f\t%.1f\n", policy.c_str(), all_free ? "all-free" : "one-free", jobs,
                  workers, assigned, us[us.size() / 2], us[us.size() * 99 / 100]);
    }
  }
  return 0;
}
