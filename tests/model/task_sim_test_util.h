// Helpers shared by the task-level simulator's tests: a policy made of a lambda (so
// a test can emit exactly the decisions it means to check, and record what it was
// shown), and small job and cluster builders.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "scheduler/scheduler.h"

namespace mr::model::testing {

// A Scheduler whose Schedule() is `decide`; name "scripted".
class ScriptedScheduler final : public sched::Scheduler {
 public:
  using Decide = std::function<sched::Decision(const sched::Snapshot&)>;
  explicit ScriptedScheduler(Decide decide,
                             sched::SnapshotScope scope = sched::SnapshotScope::kHeartbeat)
      : decide_(std::move(decide)), scope_(scope) {}
  std::string_view name() const override { return "scripted"; }
  sched::SnapshotScope scope() const override { return scope_; }
  sched::Decision Schedule(const sched::Snapshot& snap) override { return decide_(snap); }

 private:
  Decide decide_;
  sched::SnapshotScope scope_;
};

inline std::unique_ptr<sched::Scheduler> LivePolicy(const std::string& name) {
  auto s = sched::CreateScheduler(name);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

// A job of `maps` maps of `map_seconds` and one 0-second reducer, no shuffle bytes.
inline TaskJob MapOnlyJob(double arrival, int maps, double map_seconds) {
  TaskJob j;
  j.arrival = arrival;
  j.maps = maps;
  j.map_seconds = map_seconds;
  j.params.hint_map_seconds = maps * map_seconds;
  return j;
}

inline WorkerSpec Worker(int map_slots, int reduce_slots, int unified_slots, double speed,
                         double bandwidth = 1.0) {
  WorkerSpec w;
  w.map_slots = map_slots;
  w.reduce_slots = reduce_slots;
  w.unified_slots = unified_slots;
  w.speed = speed;
  w.shuffle_bandwidth = bandwidth;
  return w;
}

inline ClusterSpec ClusterOf(std::vector<WorkerSpec> workers) {
  ClusterSpec c;
  c.worker_specs = std::move(workers);
  return c;
}

inline TaskSimResult MustRun(std::span<const TaskJob> jobs, const ClusterSpec& c,
                             sched::Scheduler& s) {
  auto r = SimulateTasks(jobs, c, s);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : TaskSimResult{};
}

// The running attempts of `job` in `snap` for map (or reduce) `index`.
inline std::vector<sched::RunningAttempt> AttemptsOf(const sched::JobView& job,
                                                     sched::TaskKind kind, int index) {
  std::vector<sched::RunningAttempt> out;
  for (const auto& a : job.running) {
    if (a.kind == kind && a.index == index) out.push_back(a);
  }
  return out;
}

}  // namespace mr::model::testing
