// The task-level simulator's receivers' links (ClusterSpec::receiver_links; docs/model.md,
// "Receivers' links"): every worker's link also limits what it receives, a fetch within one
// worker crosses no link, and share-0 fetches do not enter a receiver that a positive-share
// fetch enters. Each expected time is worked by hand below, with links of 1 byte/s, and
// checked against the one-sided model (the option off) on the same input.
#include <gtest/gtest.h>

#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

// Cluster scope: each pending map (jobs in order) to the next worker with a free map slot,
// each ready reduce on its worker's reduce slot; shares[k] is job k's (in snapshot order,
// while it is there).
ScriptedScheduler Spread(std::vector<double> shares) {
  return ScriptedScheduler(
      [shares](const sched::Snapshot& snap) {
        sched::Decision d;
        std::vector<int> free_map, free_reduce;
        for (const sched::WorkerView& w : snap.workers) {
          free_map.push_back(w.free_map);
          free_reduce.push_back(w.free_reduce);
        }
        size_t w = 0;
        for (const sched::JobView& j : snap.jobs) {
          for (int m : j.pending_maps) {
            while (w < free_map.size() && free_map[w] == 0) ++w;
            if (w == free_map.size()) break;
            d.assignments.push_back({j.id, sched::TaskKind::kMap, m, snap.workers[w].id, sched::SlotKind::kMap, false});
            --free_map[w];
          }
          for (const sched::ReadyReduce& r : j.ready_reduces) {
            for (size_t k = 0; k < snap.workers.size(); ++k) {
              if (snap.workers[k].id != r.worker || free_reduce[k] == 0) continue;
              d.assignments.push_back({j.id, sched::TaskKind::kReduce, r.index, r.worker, sched::SlotKind::kReduce, false});
              --free_reduce[k];
            }
          }
          const size_t k = static_cast<size_t>(j.id - 1);
          if (k < shares.size()) d.shuffle_shares[j.id] = shares[k];
        }
        return d;
      },
      sched::SnapshotScope::kCluster);
}

// `maps` maps of 1 s with `bytes` of output each, `reducers` 0-s reducers, at time 0.
TaskJob ShuffleJob(int maps, double bytes, int reducers) {
  TaskJob j = MapOnlyJob(0, maps, 1.0);
  j.map_bytes = bytes;
  j.reducers = reducers;
  j.params.hint_shuffle_bytes = maps * bytes;
  return j;
}

std::vector<double> Completions(const std::vector<TaskJob>& jobs, ClusterSpec c, bool receiver_links,
                                std::vector<double> shares) {
  c.receiver_links = receiver_links;
  ScriptedScheduler s = Spread(std::move(shares));
  return MustRun(jobs, c, s).completion;
}

// Workers 0 and 1 map, worker 2 holds the one reducer. Both maps end at 1 with 1 byte each.
// One-sided: each source sends its byte at 1 B/s, done at 2. Two-sided: worker 2 receives
// 1 B/s in all, 1/2 from each source, done at 1 + 1 / (1/2) = 3.
TEST(TaskSimReceiversTest, TwoSourcesIntoOneReducerShareItsLink) {
  const ClusterSpec c = ClusterOf({Worker(1, 0, 0, 1), Worker(1, 0, 0, 1), Worker(0, 1, 0, 1)});
  const std::vector<TaskJob> jobs = {ShuffleJob(2, 1, 1)};
  EXPECT_DOUBLE_EQ(Completions(jobs, c, false, {1})[0], 2);
  EXPECT_DOUBLE_EQ(Completions(jobs, c, true, {1})[0], 3);
}

// Two workers, each a map and a reducer. Each map output (2 bytes, at 1) is half for the
// reducer on its own worker, fetched at once, half for the other: one flow each way at
// 1 B/s, done at 2. One-sided: each source sends its 2 bytes, done at 3.
TEST(TaskSimReceiversTest, AFetchWithinOneWorkerCrossesNoLink) {
  const ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1), Worker(1, 1, 0, 1)});
  const std::vector<TaskJob> jobs = {ShuffleJob(2, 2, 2)};
  EXPECT_DOUBLE_EQ(Completions(jobs, c, false, {1})[0], 3);
  EXPECT_DOUBLE_EQ(Completions(jobs, c, true, {1})[0], 2);
}

// Job A (share 1) maps on worker 0, job B (share 0) on worker 1, both reducers on worker 2;
// both maps end at 1 with 1 byte. One-sided: each alone at its source, both done at 2.
// Two-sided: A's flow fills worker 2's link and closes it to B until A's byte is in (2);
// then B alone at 1 B/s, done at 3.
TEST(TaskSimReceiversTest, AShareZeroFetchWaitsAtAReceiverAPositiveOneEnters) {
  const ClusterSpec c = ClusterOf({Worker(1, 0, 0, 1), Worker(1, 0, 0, 1), Worker(0, 2, 0, 1)});
  const std::vector<TaskJob> jobs = {ShuffleJob(1, 1, 1), ShuffleJob(1, 1, 1)};
  EXPECT_EQ(Completions(jobs, c, false, {1, 0}), (std::vector<double>{2, 2}));
  EXPECT_EQ(Completions(jobs, c, true, {1, 0}), (std::vector<double>{2, 3}));
}

// Share 0 takes what a receiver-bound positive flow leaves at its source. Job A (share 1):
// maps on workers 0 and 1, its reducer on worker 2 (the lowest with a reduce slot). Job B
// (share 0): its map on worker 1 (two slots), its two reducers on workers 2 and 3. All maps end
// at 1 with 1 byte. Two-sided: A's flows fill worker 2's link at 1/2 each and close it to B;
// B's half-byte for worker 3 takes what A leaves of worker 1's link, 1/2: done at 2. A is in at
// 1 + 1/(1/2) = 3; then B's half-byte for worker 2 alone at 1 B/s: B done at 3.5 (without the
// lending, B's two halves would both wait until 3: done at 4). One-sided: worker 1's link goes
// wholly to A (share 1 waiting there) until A's byte is out at 2, then B's byte at 1 B/s: 3.
TEST(TaskSimReceiversTest, AShareZeroFlowTakesWhatAReceiverBoundFlowLeavesAtItsSource) {
  const ClusterSpec c =
      ClusterOf({Worker(1, 0, 0, 1), Worker(2, 0, 0, 1), Worker(0, 2, 0, 1), Worker(0, 1, 0, 1)});
  const std::vector<TaskJob> jobs = {ShuffleJob(2, 1, 1), ShuffleJob(1, 1, 2)};
  EXPECT_EQ(Completions(jobs, c, false, {1, 0}), (std::vector<double>{2, 3}));
  EXPECT_EQ(Completions(jobs, c, true, {1, 0}), (std::vector<double>{3, 3.5}));
}

}  // namespace
}  // namespace mr::model
