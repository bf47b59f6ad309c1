// The snapshot the master keeps between rounds (SnapshotBuilder::Build, which rewrites only
// what changed) equals the one built from nothing (BuildFresh) at every round of a run with
// real policies: workers registering, maps and reduces finishing (measured rates changing),
// a worker lost, a new one joining; for a policy that sees one heartbeat's worker (fifo) and
// one that sees every worker's free slots (flex, scope kCluster).
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

// The first difference between two snapshots, or "" if they are equal.
std::string Diff(const sched::Snapshot& a, const sched::Snapshot& b) {
  std::ostringstream d;
  if (a.now != b.now || a.heartbeating != b.heartbeating || a.shuffle_capacity != b.shuffle_capacity) d << "header; ";
  if (a.workers.size() != b.workers.size()) return d.str() + "worker count";
  for (size_t i = 0; i < a.workers.size(); ++i) {
    const sched::WorkerView& x = a.workers[i];
    const sched::WorkerView& y = b.workers[i];
    if (x.id != y.id || x.map_slots != y.map_slots || x.reduce_slots != y.reduce_slots ||
        x.unified_slots != y.unified_slots || x.free_map != y.free_map || x.free_reduce != y.free_reduce ||
        x.free_unified != y.free_unified || x.speed != y.speed || x.shuffle_bandwidth != y.shuffle_bandwidth ||
        x.map_task_rate != y.map_task_rate || x.reduce_task_rate != y.reduce_task_rate ||
        x.queued_maps != y.queued_maps || x.host != y.host || !(x.labels == y.labels)) {
      d << "worker row " << i << " (id " << x.id << " vs " << y.id << ", free map " << x.free_map << " vs "
        << y.free_map << ", map rate " << x.map_task_rate << " vs " << y.map_task_rate << "); ";
    }
  }
  if (a.jobs.size() != b.jobs.size()) return d.str() + "job count";
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    const sched::JobView& x = a.jobs[i];
    const sched::JobView& y = b.jobs[i];
    auto same_running = [&] {
      if (x.running.size() != y.running.size()) return false;
      for (size_t k = 0; k < x.running.size(); ++k) {
        const auto& p = x.running[k];
        const auto& q = y.running[k];
        if (p.kind != q.kind || p.index != q.index || p.attempt != q.attempt || p.worker != q.worker ||
            p.slot != q.slot || p.start_time != q.start_time || p.progress != q.progress || p.backup != q.backup) {
          return false;
        }
      }
      return true;
    };
    auto same_ready = [&] {
      if (x.ready_reduces.size() != y.ready_reduces.size()) return false;
      for (size_t k = 0; k < x.ready_reduces.size(); ++k) {
        if (x.ready_reduces[k].index != y.ready_reduces[k].index ||
            x.ready_reduces[k].worker != y.ready_reduces[k].worker) {
          return false;
        }
      }
      return true;
    };
    auto same_queued = [&] {
      if (x.queued_maps.size() != y.queued_maps.size()) return false;
      for (size_t k = 0; k < x.queued_maps.size(); ++k) {
        if (x.queued_maps[k].index != y.queued_maps[k].index || x.queued_maps[k].worker != y.queued_maps[k].worker) {
          return false;
        }
      }
      return true;
    };
    const sched::SizeEstimate& e = x.estimate;
    const sched::SizeEstimate& f = y.estimate;
    if (x.id != y.id || x.name != y.name || x.submit_time != y.submit_time || !(x.params == y.params) ||
        x.maps_total != y.maps_total || x.maps_running != y.maps_running || x.maps_done != y.maps_done ||
        x.pending_maps != y.pending_maps || x.locality != y.locality || !same_queued() || !same_running() ||
        x.reduces_total != y.reduces_total || x.reduces_fetching != y.reduces_fetching ||
        x.reduces_running != y.reduces_running || x.reduces_done != y.reduces_done || !same_ready() ||
        x.reduce_backups_fetching != y.reduce_backups_fetching ||
        x.shuffle_bytes_available != y.shuffle_bytes_available || e.source != f.source ||
        e.map_seconds_total != f.map_seconds_total || e.map_seconds_remaining != f.map_seconds_remaining ||
        e.shuffle_bytes_total != f.shuffle_bytes_total || e.shuffle_bytes_remaining != f.shuffle_bytes_remaining ||
        e.reduce_source != f.reduce_source || e.reduce_seconds_total != f.reduce_seconds_total ||
        e.reduce_seconds_remaining != f.reduce_seconds_remaining) {
      d << "job " << i << " (id " << x.id << ", pending " << x.pending_maps.size() << " vs " << y.pending_maps.size()
        << ", running " << x.running.size() << " vs " << y.running.size() << "); ";
    }
  }
  return d.str();
}

// A real policy that, at every round, checks the snapshot it is given against a fresh one.
class CheckedPolicy final : public sched::Scheduler {
 public:
  explicit CheckedPolicy(std::unique_ptr<sched::Scheduler> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  sched::SnapshotScope scope() const override { return inner_->scope(); }
  bool requires_unified_slots() const override { return inner_->requires_unified_slots(); }
  sched::Decision Schedule(const sched::Snapshot& snap) override {
    if (tracker != nullptr) {
      const sched::Snapshot fresh =
          tracker->FreshSnapshot(snap.heartbeating, scope() == sched::SnapshotScope::kCluster);
      std::string diff = Diff(snap, fresh);
      EXPECT_EQ(diff, "") << "round " << rounds;
      rounds++;
    }
    return inner_->Schedule(snap);
  }
  JobTracker* tracker = nullptr;
  int rounds = 0;

 private:
  std::unique_ptr<sched::Scheduler> inner_;
};

// Reports every map w runs as succeeded after `seconds` (its measured rate changes).
void FinishMapsIn(TrackerHarness& h, uint32_t w, double seconds) {
  std::vector<proto::TaskReport> done;
  for (const proto::Assignment& a : h.worker(w).maps) {
    proto::TaskReport r = TrackerHarness::MapReport(a, proto::SUCCEEDED);
    r.set_end_time(r.start_time() + seconds);
    done.push_back(r);
  }
  h.worker(w).maps.clear();
  h.Beat(w, done);
}

// Two jobs on five workers of different shapes; maps and reduces finish unevenly (so the
// measured rates differ per worker); worker 2 goes silent and is lost; a sixth joins.
void RunCluster(const std::string& policy_name) {
  TempDir dir("mr-snapshot-cache-test");
  auto inner = sched::CreateScheduler(policy_name);
  ASSERT_TRUE(inner.ok()) << inner.status().ToString();
  auto checked = std::make_unique<CheckedPolicy>(std::move(inner).value());
  CheckedPolicy* policy = checked.get();
  TrackerHarness h(dir.path(), std::move(checked));
  policy->tracker = &h.tracker();
  std::vector<uint32_t> workers;
  for (uint32_t i = 0; i < 5; ++i) workers.push_back(h.AddWorker(1 + i % 3, 1));
  h.Submit(h.SyntheticSpec(60, 4));
  h.Submit(h.SyntheticSpec(40, 3, /*slow_start=*/0.5));
  for (int step = 0; step < 40; ++step) {
    h.clock().Advance(0.5);
    for (size_t k = 0; k < workers.size(); ++k) {
      uint32_t w = workers[k];
      if (w == workers[1] && step >= 10) continue;  // silent from step 10: lost at the next Tick past the timeout
      if ((step + k) % 3 == 0) {
        FinishMapsIn(h, w, 0.5 + static_cast<double>((step * 7 + k * 3) % 11) / 4);
      } else {
        h.Beat(w);
      }
      h.RunReduces(w, 1);
    }
    if (step == 10 + 1 + static_cast<int>(TrackerHarness::DefaultOptions().worker_timeout / 0.5)) h.tracker().Tick();
    if (step == 30) workers.push_back(h.AddWorker(2, 2));
  }
  EXPECT_GT(policy->rounds, 50) << "too few rounds checked to mean anything";
}

// A worker's rate changes in a heartbeat that runs no round (no pending map is left, and the
// shares were refreshed a moment ago); the next round, another worker's, shows the new rate.
TEST(SnapshotCacheTest, RateChangedWithoutARoundShowsInTheNextRound) {
  TempDir dir("mr-snapshot-cache-test");
  auto inner = sched::CreateScheduler("fifo");
  ASSERT_TRUE(inner.ok());
  auto checked = std::make_unique<CheckedPolicy>(std::move(inner).value());
  CheckedPolicy* policy = checked.get();
  TrackerHarness h(dir.path(), std::move(checked));
  policy->tracker = &h.tracker();
  uint32_t a = h.AddWorker(1, 1);
  uint32_t b = h.AddWorker(1, 1);
  proto::JobSpec spec = h.SyntheticSpec(2, 1);
  spec.set_speculation_off(true);  // else a's free slot makes the speculator look (a Build for a)
  h.Submit(spec);
  h.clock().Advance(1);
  h.Beat(a);
  h.Beat(b);
  ASSERT_EQ(h.worker(a).maps.size() + h.worker(b).maps.size(), 2u) << "both maps running, none pending";
  const int rounds = policy->rounds;
  FinishMapsIn(h, a, 2);
  EXPECT_EQ(policy->rounds, rounds) << "the report of a, with nothing pending, ran no round";
  h.clock().Advance(1);  // past the share refresh: b's heartbeat runs a round
  h.Beat(b);
  EXPECT_GT(policy->rounds, rounds);
}

TEST(SnapshotCacheTest, KeptSnapshotEqualsFreshOneUnderFifo) { RunCluster("fifo"); }

TEST(SnapshotCacheTest, KeptSnapshotEqualsFreshOneUnderAClusterScopePolicy) { RunCluster("flex"); }

}  // namespace
}  // namespace mr::master
