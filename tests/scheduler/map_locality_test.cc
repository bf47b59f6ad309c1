// Locality as an input to placement (issue 29): a split names the host that holds its bytes,
// and the shared map-picking helpers place a map on a worker of that host when one has a free
// slot (node-local first), else anywhere (no waiting). Fake snapshots only.
#include "scheduler/util/map_locality.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "policy_params.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/slot_filler.h"
#include "scheduler/util/task_placer.h"
#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;

WorkerView On(WorkerView w, const std::string& host) {
  w.host = host;
  return w;
}

// Every map of the job on `hosts[i]` for host_of_map[i] >= 0.
void Locate(JobView* job, std::vector<std::string> hosts, std::vector<int> host_of_map) {
  auto loc = std::make_shared<MapLocality>();
  loc->hosts = std::move(hosts);
  loc->host_of_map = std::move(host_of_map);
  job->locality = std::move(loc);
}

std::map<WorkerId, std::vector<int>> MapsByWorker(const Decision& d) {
  std::map<WorkerId, std::vector<int>> by;
  for (const Assignment& a : d.assignments) {
    if (a.kind == TaskKind::kMap) by[a.worker].push_back(a.index);
  }
  return by;
}

// Workers 1 and 3 on other hosts, worker 2 on the data host (10.0.0.2), two free slots each.
Snapshot DataOnWorkerTwo(int maps) {
  Snapshot snap;
  snap.workers = {On(MakeWorker(1, 2), "10.0.0.1"), On(MakeWorker(2, 2), "10.0.0.2"),
                  On(MakeWorker(3, 2), "10.0.0.3")};
  snap.jobs = {MakeJob(7, maps)};
  Locate(&snap.jobs[0], {"10.0.0.2"}, std::vector<int>(maps, 0));
  return snap;
}

TEST(MapLocalityTest, SlotFillerFillsTheDataHostFirstThenAnyWorker) {
  Snapshot snap = DataOnWorkerTwo(4);
  Decision d;
  SlotFiller f(snap, &d);
  EXPECT_EQ(f.AssignMaps(0, 2), 2);
  EXPECT_EQ(MapsByWorker(d)[2].size(), 2u) << "both maps node-local";
  // The data host is full: the next maps go anywhere rather than wait.
  EXPECT_EQ(f.AssignMaps(0, 2), 2);
  auto by = MapsByWorker(d);
  EXPECT_EQ(by[2].size(), 2u);
  EXPECT_EQ(by[1].size() + by[3].size(), 2u);
  EXPECT_EQ(f.pending_maps(0), 0);
}

TEST(MapLocalityTest, EachMapGoesToTheHostOfItsOwnSplit) {
  Snapshot snap;
  snap.workers = {On(MakeWorker(1, 1), "a"), On(MakeWorker(2, 1), "b"), On(MakeWorker(3, 1), "c")};
  snap.jobs = {MakeJob(7, 6)};
  // Maps 0-2 on host b, 3-5 on host c; the round robin alone would give worker 1 map 0.
  Locate(&snap.jobs[0], {"b", "c"}, {0, 0, 0, 1, 1, 1});
  Decision d;
  SlotFiller f(snap, &d);
  EXPECT_EQ(f.AssignMaps(0, 3), 3);
  auto by = MapsByWorker(d);
  ASSERT_EQ(by[2].size(), 1u);
  ASSERT_EQ(by[3].size(), 1u);
  ASSERT_EQ(by[1].size(), 1u);
  EXPECT_LT(by[2][0], 3);   // a split of host b
  EXPECT_GE(by[3][0], 3);   // a split of host c
  // No map placed twice, and the remote one is an untaken map.
  EXPECT_NE(by[1][0], by[2][0]);
  EXPECT_NE(by[1][0], by[3][0]);
  EXPECT_EQ(f.pending_maps(0), 3);
}

TEST(MapLocalityTest, AnAvoidedLocalWorkerIsNotUsed) {
  Snapshot snap = DataOnWorkerTwo(2);
  Decision d;
  SlotFiller f(snap, &d);
  const WorkerId avoid[] = {2};
  EXPECT_EQ(f.AssignMaps(0, 2, avoid), 2);
  EXPECT_TRUE(MapsByWorker(d)[2].empty());
}

TEST(MapLocalityTest, WithoutLocalityThePlacementIsAsBefore) {
  Snapshot with = DataOnWorkerTwo(4), without = DataOnWorkerTwo(4);
  without.jobs[0].locality = nullptr;
  // A split on a host no worker is on: as if it named none.
  with.jobs[0].locality = std::make_shared<MapLocality>(MapLocality{{"10.9.9.9"}, {0, 0, 0, 0}});
  Decision a, b;
  SlotFiller fa(with, &a), fb(without, &b);
  fa.AssignMaps(0, 4);
  fb.AssignMaps(0, 4);
  ASSERT_EQ(a.assignments.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(a.assignments[i].worker, b.assignments[i].worker);
    EXPECT_EQ(a.assignments[i].index, b.assignments[i].index);
    EXPECT_EQ(b.assignments[i].index, static_cast<int>(i));  // pending order
  }
}

TEST(MapLocalityTest, TaskPlacerPlacesNodeLocalFirst) {
  Snapshot snap = DataOnWorkerTwo(3);
  Decision d;
  TaskPlacer p(snap, &d);
  EXPECT_TRUE(p.PlaceMap(0, SlotKind::kMap));
  EXPECT_TRUE(p.PlaceMap(0, SlotKind::kMap));
  EXPECT_TRUE(p.PlaceMap(0, SlotKind::kMap));
  auto by = MapsByWorker(d);
  EXPECT_EQ(by[2].size(), 2u);
  EXPECT_EQ(by[1].size() + by[3].size(), 1u);
  EXPECT_EQ(p.pending_maps(0), 0);
}

TEST(MapLocalityTest, OnlyARemoteWorkerFreeStillGetsTheMap) {
  // Hadoop 1 without delay scheduling: the heartbeating worker is not on the data host,
  // and it takes the map (remote read) rather than leave its slot idle.
  Snapshot snap = DataOnWorkerTwo(1);
  snap.workers[1].free_map = 0;
  Decision d;
  SlotFiller f(snap, &d);
  EXPECT_EQ(f.AssignMaps(0, 1), 1);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_NE(d.assignments[0].worker, 2u);
}

// Every policy gets locality through the shared helpers: with free slots on the data host
// and elsewhere, the maps a policy starts fill the data host's slots first.
class PolicyLocalityTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PolicyLocalityTest, MapsFillTheDataHostFirst) {
  auto policy = CreateScheduler(GetParam(), PolicyOptions());
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  Snapshot snap = DataOnWorkerTwo(3);
  for (WorkerView& w : snap.workers) {
    w.reduce_slots = w.free_reduce = 1;
  }
  snap.jobs[0].reduces_total = 1;
  testing::SetSize(&snap.jobs[0], 1, 1, 1, 1, 6, 1e6);
  snap.jobs[0].estimate.reduce_source = EstimateSource::kOnline;
  snap.jobs[0].estimate.reduce_seconds_total = snap.jobs[0].estimate.reduce_seconds_remaining = 1;
  Decision d = (*policy)->Schedule(snap);
  auto by = MapsByWorker(d);
  const size_t placed = by[1].size() + by[2].size() + by[3].size();
  if (placed == 0) GTEST_SKIP() << GetParam() << " starts no map on this snapshot";
  EXPECT_EQ(by[2].size(), std::min<size_t>(placed, 2)) << GetParam() << " placed " << placed << " maps";
}

INSTANTIATE_TEST_SUITE_P(Table, PolicyLocalityTest, ::testing::ValuesIn(testing::AllPolicies()),
                         testing::PolicyParamName);

}  // namespace
}  // namespace mr::sched
