// The fixture of the scheduler-seam tests (scheduler_seam_test.cc, backup_seam_test.cc): a
// scripted fake policy on a TrackerHarness with a manual clock; the tests play the workers.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master::seam_test {

using sched::Decision;
using sched::Snapshot;
using testing::TrackerHarness;

// Returns the scripted decisions in turn (then empty ones) and keeps every snapshot.
class FakePolicy final : public sched::Scheduler {
 public:
  using Script = std::function<Decision(const Snapshot&)>;
  explicit FakePolicy(sched::SnapshotScope scope) : scope_(scope) {}
  std::string_view name() const override { return "fake"; }
  sched::SnapshotScope scope() const override { return scope_; }
  Decision Schedule(const Snapshot& snap) override {
    snapshots.push_back(snap);
    if (script.empty()) return {};
    Script next = std::move(script.front());
    script.pop_front();
    return next(snap);
  }
  std::deque<Script> script;
  std::vector<Snapshot> snapshots;

 private:
  sched::SnapshotScope scope_;
};

inline sched::Assignment Map(const Snapshot& s, int index, sched::WorkerId worker, bool backup = false) {
  sched::Assignment a;
  a.job = s.jobs.at(0).id;
  a.kind = sched::TaskKind::kMap;
  a.index = index;
  a.worker = worker;
  a.slot = sched::SlotKind::kMap;
  a.backup = backup;
  return a;
}

inline sched::Assignment Reduce(const Snapshot& s, int index, sched::WorkerId worker, bool backup = false) {
  sched::Assignment a = Map(s, index, worker, backup);
  a.kind = sched::TaskKind::kReduce;
  a.slot = sched::SlotKind::kReduce;
  return a;
}

inline Decision Assign(std::vector<sched::Assignment> a) {
  Decision d;
  d.assignments = std::move(a);
  return d;
}
inline Decision KillsOf(std::vector<sched::Kill> k) {
  Decision d;
  d.kills = std::move(k);
  return d;
}
inline Decision QueueOf(std::vector<sched::QueueMap> q) {
  Decision d;
  d.queue = std::move(q);
  return d;
}

inline const sched::WorkerView& WorkerIn(const Snapshot& s, sched::WorkerId id) {
  for (const auto& w : s.workers) {
    if (w.id == id) return w;
  }
  ADD_FAILURE() << "no worker " << id << " in the snapshot";
  return s.workers.at(0);
}

inline int64_t Counter(const proto::JobStatus& st, const std::string& name) {
  for (const auto& c : st.counters()) {
    if (c.name() == name) return c.value();
  }
  return 0;
}

class SeamTest : public ::testing::Test {
 protected:
  void Make(sched::SnapshotScope scope = sched::SnapshotScope::kHeartbeat,
            TrackerOptions options = TrackerHarness::DefaultOptions()) {
    auto policy = std::make_unique<FakePolicy>(scope);
    policy_ = policy.get();
    h_ = std::make_unique<TrackerHarness>(dir_.path(), std::move(policy), nullptr, options);
  }
  void TearDown() override {
    if (policy_ != nullptr) {
      EXPECT_TRUE(policy_->script.empty()) << "a scripted round never ran";
    }
  }
  // A heartbeat a little later, so the tracker runs a round even with no free slot.
  proto::HeartbeatReply Beat(uint32_t w, std::vector<proto::TaskReport> reports = {}) {
    h_->clock().Advance(1);
    return h_->Beat(w, std::move(reports));
  }
  void Then(FakePolicy::Script s) { policy_->script.push_back(std::move(s)); }
  const Snapshot& LastSnapshot() const { return policy_->snapshots.back(); }

  TempDir dir_{"mr-seam-test"};
  FakePolicy* policy_ = nullptr;
  std::unique_ptr<TrackerHarness> h_;
};


}  // namespace mr::master::seam_test
