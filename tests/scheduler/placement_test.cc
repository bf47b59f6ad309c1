// The --placement stage (scheduler/map_placement.h) and its join with a policy
// (scheduler/placed_scheduler.h): rates by hand, dispatch counts, re-dispatch after a lost
// worker, the fallbacks, the flags, and a policy's assignments bound to queued maps.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "scheduler/stages/map_placement.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/scheduler.h"
#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;

PlacementConfig Config(PlacementMode mode, std::vector<double> given = {}) {
  PlacementConfig c;
  c.mode = mode;
  c.given_rates = std::move(given);
  return c;
}

std::vector<NodeRate> Nodes(std::vector<double> mu) {
  std::vector<NodeRate> n;
  for (size_t i = 0; i < mu.size(); ++i) n.push_back({static_cast<WorkerId>(i + 1), mu[i], "given"});
  return n;
}

// Workers 1..n with one map slot each and the given measured per-slot rates.
Snapshot Cluster(std::vector<double> rates) {
  Snapshot s;
  for (size_t i = 0; i < rates.size(); ++i) {
    WorkerView w = MakeWorker(static_cast<WorkerId>(i + 1), 1);
    w.map_task_rate = rates[i];
    s.workers.push_back(w);
  }
  return s;
}

TEST(PlacementSplit, ByHand) {
  std::string fallback;
  // dep: mu = {1, 2, 3}, lambda = 3 -> lambda_i = 3 mu_i / 6 = {0.5, 1, 1.5}: shares {1/6, 1/3, 1/2}.
  MapPlacement dep(Config(PlacementMode::kDep));
  std::vector<double> s = dep.Split(Nodes({1, 2, 3}), 3, &fallback);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_DOUBLE_EQ(s[0] * 3, 0.5);
  EXPECT_DOUBLE_EQ(s[1] * 3, 1.0);
  EXPECT_DOUBLE_EQ(s[2] * 3, 1.5);
  EXPECT_EQ(fallback, "");
  // even: 1/3 each whatever mu.
  MapPlacement even(Config(PlacementMode::kEven));
  for (double v : even.Split(Nodes({1, 2, 3}), 3, &fallback)) EXPECT_DOUBLE_EQ(v, 1.0 / 3);
  // sep: mu = {2, 3, 4}, lambda = 6: spare c = (9 - 6)/3 = 1, lambda_i = {1, 2, 3}.
  MapPlacement sep(Config(PlacementMode::kSep));
  s = sep.Split(Nodes({2, 3, 4}), 6, &fallback);
  EXPECT_NEAR(s[0] * 6, 1, 1e-12);
  EXPECT_NEAR(s[1] * 6, 2, 1e-12);
  EXPECT_NEAR(s[2] * 6, 3, 1e-12);
  // sep with the clamp: mu = {1, 1, 2, 4}, lambda = 3 -> {0, 0, 0.5, 2.5}.
  s = sep.Split(Nodes({1, 1, 2, 4}), 3, &fallback);
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(s[1], 0);
  EXPECT_NEAR(s[2] * 3, 0.5, 1e-12);
  EXPECT_NEAR(s[3] * 3, 2.5, 1e-12);
  // mep with D = 0 is sep.
  MapPlacement mep(Config(PlacementMode::kMep));
  s = mep.Split(Nodes({1, 1, 2, 4}), 3, &fallback);
  EXPECT_NEAR(s[3] * 3, 2.5, 1e-9);
  EXPECT_EQ(fallback, "");
}

TEST(PlacementSplit, FallsBackToDep) {
  MapPlacement sep(Config(PlacementMode::kSep));
  std::string fallback;
  std::vector<double> s = sep.Split(Nodes({1, 3}), 0, &fallback);  // lambda unknown
  EXPECT_DOUBLE_EQ(s[0], 0.25);
  EXPECT_DOUBLE_EQ(s[1], 0.75);
  EXPECT_NE(fallback.find("unknown"), std::string::npos);
  fallback.clear();
  s = sep.Split(Nodes({1, 3}), 4, &fallback);  // overload: lambda = sum mu
  EXPECT_DOUBLE_EQ(s[0], 0.25);
  EXPECT_NE(fallback.find(">= sum mu 4"), std::string::npos) << fallback;
}

TEST(PlacementNodeRates, GivenMeasuredSpeed) {
  Snapshot s = Cluster({0.5, 0, 0});
  s.workers[0].map_slots = 2;  // measured: 0.5 per slot x 2 slots
  s.workers[0].speed = 1;
  s.workers[1].speed = 2;      // not measured: speed 2 x (0.5 / 1 per unit speed) x 1 slot = 1
  WorkerView reducer_only = MakeWorker(9, 0, 1);
  s.workers.push_back(reducer_only);  // no map slot: not a node
  std::vector<NodeRate> n = NodeRates(s, std::vector<double>{0, 0, 7});
  ASSERT_EQ(n.size(), 3u);
  EXPECT_DOUBLE_EQ(n[0].mu, 1.0);
  EXPECT_STREQ(n[0].source, "measured");
  EXPECT_DOUBLE_EQ(n[1].mu, 1.0);
  EXPECT_STREQ(n[1].source, "speed");
  EXPECT_DOUBLE_EQ(n[2].mu, 7.0);
  EXPECT_STREQ(n[2].source, "given");
  // Nothing measured: speed x 1 task/s x slots.
  Snapshot fresh = Cluster({0, 0});
  fresh.workers[1].speed = 0.25;
  n = NodeRates(fresh, {});
  EXPECT_DOUBLE_EQ(n[0].mu, 1.0);
  EXPECT_DOUBLE_EQ(n[1].mu, 0.25);
}

TEST(ArrivalRate, WindowByHand) {
  ArrivalRateMeter m;
  EXPECT_EQ(m.Rate(5), 0);
  m.Record(0, 4);
  EXPECT_EQ(m.Rate(5), 0);  // one arrival: no rate yet
  m.Record(2, 3);
  m.Record(4, 5);
  // (3 + 5) maps since the oldest arrival at 0, over 4 s: 2 maps/s; at now = 8, 1 map/s.
  EXPECT_DOUBLE_EQ(m.Rate(4), 2.0);
  EXPECT_DOUBLE_EQ(m.Rate(8), 1.0);
}

// Dispatches a stream of `jobs` jobs of `maps` maps each, one per second, and counts the
// maps each worker receives.
std::map<WorkerId, int> Stream(MapPlacement& p, Snapshot snap, int jobs, int maps) {
  std::map<WorkerId, int> count;
  for (int j = 0; j < jobs; ++j) {
    snap.now = j;
    snap.jobs = {MakeJob(static_cast<JobId>(j + 1), maps, j)};
    for (const QueueMap& q : p.Dispatch(snap)) {
      EXPECT_EQ(q.job, static_cast<JobId>(j + 1));
      ++count[q.worker];
    }
  }
  return count;
}

TEST(PlacementDispatch, CountsFollowDepShares) {
  // Measured mu = {1, 2, 3}: dep sends 1/6, 1/3, 1/2 of the maps; weighted round robin keeps
  // every count within one task of its share at all times.
  MapPlacement p(Config(PlacementMode::kDep));
  std::map<WorkerId, int> c = Stream(p, Cluster({1, 2, 3}), 100, 6);
  EXPECT_EQ(c[1], 100);
  EXPECT_EQ(c[2], 200);
  EXPECT_EQ(c[3], 300);
  std::map<WorkerId, int> odd = Stream(p, Cluster({1, 2, 3}), 7, 1);  // 7 maps: 7/6, 7/3, 7/2
  EXPECT_NEAR(odd[1], 7.0 / 6, 1.0);
  EXPECT_NEAR(odd[2], 7.0 / 3, 1.0);
  EXPECT_NEAR(odd[3], 7.0 / 2, 1.0);
}

TEST(PlacementDispatch, EvenGivesOneMapPerWorkerPerJob) {
  MapPlacement p(Config(PlacementMode::kEven));
  Snapshot snap = Cluster({1, 2, 3, 4});
  for (int j = 0; j < 5; ++j) {
    snap.jobs = {MakeJob(static_cast<JobId>(j + 1), 4, j)};
    std::map<WorkerId, int> c;
    for (const QueueMap& q : p.Dispatch(snap)) ++c[q.worker];
    EXPECT_EQ(c, (std::map<WorkerId, int>{{1, 1}, {2, 1}, {3, 1}, {4, 1}})) << "job " << j;
  }
}

TEST(PlacementDispatch, SepUsesMeasuredArrivalRate) {
  // mu = {1, 1, 2, 4} (given), jobs of 3 maps one per second: lambda = 3 once two jobs have
  // come, and sep gives {0, 0, 0.5, 2.5}: 1/6 and 5/6 of the maps to workers 3 and 4.
  MapPlacement p(Config(PlacementMode::kSep, {1, 1, 2, 4}));
  Snapshot snap = Cluster({0, 0, 0, 0});
  Stream(p, snap, 1, 3);  // the first job: lambda unknown, dep split
  std::map<WorkerId, int> c;
  for (int j = 1; j <= 60; ++j) {
    snap.now = j;
    snap.jobs = {MakeJob(static_cast<JobId>(j + 1), 3, j)};
    for (const QueueMap& q : p.Dispatch(snap)) ++c[q.worker];
  }
  EXPECT_EQ(c[1], 0);
  EXPECT_EQ(c[2], 0);
  EXPECT_NEAR(c[3], 180.0 / 6, 1.0);
  EXPECT_NEAR(c[4], 180.0 * 5 / 6, 1.0);
  EXPECT_NE(p.last_split().find("w4=0.833"), std::string::npos) << p.last_split();
}

TEST(PlacementDispatch, LostWorkersQueueIsRedispatched) {
  // dep over mu = {1, 1, 2}; worker 3 is lost and its two queued maps return to pending
  // (the master does that): they go to workers 1 and 2, now half each.
  MapPlacement p(Config(PlacementMode::kDep));
  Snapshot snap = Cluster({1, 1, 2});
  snap.jobs = {MakeJob(1, 4, 0)};
  std::map<WorkerId, int> c;
  std::vector<int> at3;
  for (const QueueMap& q : p.Dispatch(snap)) {
    ++c[q.worker];
    if (q.worker == 3) at3.push_back(q.index);
  }
  EXPECT_EQ(c, (std::map<WorkerId, int>{{1, 1}, {2, 1}, {3, 2}}));
  snap.workers.pop_back();
  snap.jobs[0].pending_maps = at3;
  c.clear();
  for (const QueueMap& q : p.Dispatch(snap)) ++c[q.worker];
  EXPECT_EQ(c, (std::map<WorkerId, int>{{1, 1}, {2, 1}}));
}

TEST(PlacementDispatch, NothingWithoutMapSlots) {
  MapPlacement p(Config(PlacementMode::kDep));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 0, 2)};
  snap.jobs = {MakeJob(1, 3, 0)};
  EXPECT_TRUE(p.Dispatch(snap).empty());
}

TEST(PlacementFlags, ParseAndErrors) {
  auto c = PlacementConfigFromFlags({{"placement", "mep"}, {"placement-model", "gg1"}, {"placement-scv", "0.5,2"},
                                     {"placement-ca2", "0.2"}, {"placement-rates", "1,2.5,0"}});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->mode, PlacementMode::kMep);
  EXPECT_EQ(c->mep.model, model::MeanResponseModel::kGg1);
  EXPECT_EQ(c->mep.service_scv, (std::vector<double>{0.5, 2}));
  EXPECT_DOUBLE_EQ(c->mep.arrival_scv, 0.2);
  EXPECT_EQ(c->given_rates, (std::vector<double>{1, 2.5, 0}));
  EXPECT_EQ(PlacementConfigFromFlags({})->mode, PlacementMode::kPull);
  auto bad = PlacementConfigFromFlags({{"placement", "fastest"}});
  EXPECT_NE(bad.status().message().find("--placement: unknown placement 'fastest' (known: pull, even, dep, sep, mep)"),
            std::string::npos)
      << bad.status().ToString();
  bad = PlacementConfigFromFlags({{"placement", "dep"}, {"placement-d", "3"}});
  EXPECT_NE(bad.status().message().find("--placement-d applies to --placement mep only"), std::string::npos);
  bad = PlacementConfigFromFlags({{"placement", "dep"}, {"placement-rates", "1,x"}});
  EXPECT_NE(bad.status().message().find("--placement-rates '1,x'"), std::string::npos);
  bad = PlacementConfigFromFlags({{"placement-rates", "1"}});
  EXPECT_NE(bad.status().message().find("needs a --placement"), std::string::npos);
  bad = PlacementConfigFromFlags({{"placement", "mep"}, {"placement-model", "mm1"}});
  EXPECT_NE(bad.status().message().find("--placement-model: unknown mean-response variant 'mm1'"), std::string::npos);
}

// docs/mst.md's table of modes lists every row of the mode table, and nothing else.
TEST(PlacementFlags, DocsListEveryMode) {
  std::ifstream in(std::string(MR_SOURCE_DIR) + "/docs/mst.md");
  ASSERT_TRUE(in) << "docs/mst.md";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t table = doc.find("| mode | split of the map rate");
  ASSERT_NE(table, std::string::npos);
  const std::string rows = doc.substr(table, doc.find("\n\n", table) - table);
  int listed = 0;
  for (size_t at = rows.find("\n| `"); at != std::string::npos; at = rows.find("\n| `", at + 1)) ++listed;
  EXPECT_EQ(listed, static_cast<int>(PlacementModeTable().size()));
  for (const PlacementModeRow& r : PlacementModeTable()) {
    EXPECT_NE(rows.find("\n| `" + std::string(r.name) + "` |"), std::string::npos) << r.name;
  }
}

// A policy that puts one map of the first job with a pending map on every free map slot,
// recording the snapshot it saw.
class GreedyMaps : public Scheduler {
 public:
  std::string_view name() const override { return "greedy"; }
  Decision Schedule(const Snapshot& snap) override {
    seen = snap;
    Decision d;
    for (const WorkerView& w : snap.workers) {
      for (int k = 0; k < w.free_map; ++k) {
        for (const JobView& j : snap.jobs) {
          if (!j.pending_maps.empty()) {
            d.assignments.push_back({j.id, TaskKind::kMap, j.pending_maps[0], w.id, SlotKind::kMap});
            break;
          }
        }
      }
    }
    return d;
  }
  Snapshot seen;
};

TEST(PlacedScheduler, PolicyPicksJobPlacementPicksWorker) {
  auto owned = std::make_unique<GreedyMaps>();
  GreedyMaps* policy = owned.get();
  PlacedScheduler placed(std::move(owned), Config(PlacementMode::kEven));
  // Three workers; only worker 2 heartbeats (has a free slot). Job 7 has 3 maps: one goes
  // to each worker's queue, and the policy's map on worker 2 is bound to the one queued there.
  Snapshot snap = Cluster({1, 1, 1});
  snap.workers[0].free_map = 0;
  snap.workers[2].free_map = 0;
  snap.jobs = {MakeJob(7, 3, 0)};
  Decision d = placed.Schedule(snap);
  ASSERT_EQ(d.queue.size(), 3u);
  int at2 = -1;
  for (const QueueMap& q : d.queue) {
    if (q.worker == 2) at2 = q.index;
  }
  ASSERT_EQ(policy->seen.jobs[0].pending_maps, std::vector<int>{at2});  // only worker 2's map runs here
  EXPECT_EQ(policy->seen.jobs[0].queued_maps.size(), 2u);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].worker, 2u);
  EXPECT_EQ(d.assignments[0].index, at2);
  EXPECT_NE(d.note.find("placement even"), std::string::npos) << d.note;

  // Next round worker 1 heartbeats; nothing new to dispatch, its queued map runs.
  snap.workers[1].free_map = 0;
  snap.workers[0].free_map = 1;
  snap.jobs[0].pending_maps.clear();
  for (const QueueMap& q : d.queue) {
    if (q.worker != 2) snap.jobs[0].queued_maps.push_back({q.index, q.worker});
  }
  Decision d2 = placed.Schedule(snap);
  EXPECT_TRUE(d2.queue.empty());
  ASSERT_EQ(d2.assignments.size(), 1u);
  EXPECT_EQ(d2.assignments[0].worker, 1u);
  for (const QueuedMap& q : snap.jobs[0].queued_maps) {
    if (q.worker == 1) {
      EXPECT_EQ(d2.assignments[0].index, q.index);
    }
  }
}

TEST(PlacedScheduler, ClusterScopeRebindsToAWorkerHoldingTheMap) {
  // All free slots visible; the policy puts job 1's maps on workers 1 and 2, but dep over
  // given mu = {1, 9} (shares 0.1, 0.9; credits (0.1, 0.9) -> worker 2, left at -0.1, then
  // (0.2, 0.8) -> worker 2 again): the map the policy put on worker 1 moves to worker 2,
  // which has a second free slot.
  auto owned = std::make_unique<GreedyMaps>();
  PlacedScheduler placed(std::move(owned), Config(PlacementMode::kDep, {1, 9}));
  Snapshot snap = Cluster({0, 0});
  snap.workers[1].map_slots = snap.workers[1].free_map = 2;
  snap.jobs = {MakeJob(1, 2, 0)};
  Decision d = placed.Schedule(snap);
  ASSERT_EQ(d.queue.size(), 2u);
  EXPECT_EQ(d.queue[0].worker, 2u);
  EXPECT_EQ(d.queue[1].worker, 2u);
  ASSERT_EQ(d.assignments.size(), 2u);
  for (const Assignment& a : d.assignments) EXPECT_EQ(a.worker, 2u);
  EXPECT_NE(d.assignments[0].index, d.assignments[1].index);
}

TEST(PlacedScheduler, PullIsThePolicyItself) {
  auto owned = std::make_unique<GreedyMaps>();
  Scheduler* raw = owned.get();
  auto s = WithPlacement(std::move(owned), Config(PlacementMode::kPull));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->get(), raw);
  PlacementConfig bad = Config(PlacementMode::kMep);
  bad.mep.d = -1;
  auto e = WithPlacement(std::make_unique<GreedyMaps>(), bad);
  EXPECT_NE(e.status().message().find("--placement mep parameters: D -1 must be >= 0"), std::string::npos)
      << e.status().ToString();
}

}  // namespace
}  // namespace mr::sched
