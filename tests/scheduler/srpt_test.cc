#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "scheduler/policies/max_srpt_scheduler.h"
#include "scheduler/policy_table.h"
#include "scheduler/policies/split_srpt_scheduler.h"
#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;
using testing::SetSize;

constexpr double kMapCap = 6;         // 2 workers x 3 map slots x speed 1
constexpr double kShuffleCap = 1000;  // bytes/s

Snapshot Cluster(std::vector<JobView> jobs) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 3), MakeWorker(2, 3)};
  snap.shuffle_capacity = kShuffleCap;
  snap.jobs = std::move(jobs);
  return snap;
}

JobView Sized(JobId id, int pending, double x, double y) {
  JobView j = MakeJob(id, pending);
  SetSize(&j, x, y, x, y, kMapCap, kShuffleCap);
  return j;
}

std::vector<JobId> MapOrder(const Decision& d) {
  std::vector<JobId> order;
  for (const Assignment& a : d.assignments) {
    if (order.empty() || order.back() != a.job) order.push_back(a.job);
  }
  return order;
}

// The paper's Figure 2 jobs J1=(1,2), J2=(3,1), J3=(2,2): max sizes 2, 3, 2,
// so MaxSRPT serves J1, then J3 (tie broken by arrival), then J2.
TEST(MaxSrptTest, OrdersBySmallestMaxOfRemainingSizes) {
  Snapshot snap = Cluster({Sized(1, 2, 1, 2), Sized(2, 3, 3, 1), Sized(3, 3, 2, 2)});
  snap.jobs[1].shuffle_bytes_available = 5;
  snap.jobs[2].shuffle_bytes_available = 5;
  Decision d = MaxSrptScheduler("maxsrpt").Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapOrder(d), (std::vector<JobId>{1, 3, 2}));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 2}, {2, 1}, {3, 3}}));
  // J1 has no shuffle data yet: the whole share goes to J3, next in order.
  EXPECT_EQ(d.shuffle_shares, (ShareMap{{3, 1.0}}));
  EXPECT_NE(d.note.find("job 1 first"), std::string::npos) << d.note;
}

TEST(MaxSrptTest, UsesRemainingNotOriginalSizes) {
  JobView big = MakeJob(1, 6);
  SetSize(&big, 10, 10, 0.5, 0.5, kMapCap, kShuffleCap);  // almost done
  Snapshot snap = Cluster({Sized(2, 6, 1, 1), big});
  snap.jobs[0].submit_time = 0;  // arrives first
  EXPECT_EQ(MapsPerJob(MaxSrptScheduler("maxsrpt").Schedule(snap)), (std::map<JobId, int>{{1, 6}}));
}

// Uncapped links (shuffle_capacity 0). Job 1: x = 12/6 = 2 s and 3e9 shuffle bytes;
// job 2: x = 2.5 s, no shuffle. Without a link rate the shuffle is free (y = 0, as a
// paper station of infinite capacity), so job 1 (max 2 s) goes first. With
// maxsrpt-link-rate 0.5e9 each of the two uncapped links counts at that rate: y1 =
// 3e9 / 1e9 = 3 s, and job 2 (2.5 s) goes first.
TEST(MaxSrptTest, UncappedLinksAreFreeUnlessALinkRateIsGiven) {
  Snapshot snap = Cluster({MakeJob(1, 6), MakeJob(2, 6)});
  snap.shuffle_capacity = 0;
  SetSize(&snap.jobs[0], 2, 3, 2, 3, kMapCap, 1e9);
  SetSize(&snap.jobs[1], 2.5, 0, 2.5, 0, kMapCap, 1e9);
  EXPECT_EQ(MapsPerJob(MaxSrptScheduler("maxsrpt").Schedule(snap)), (std::map<JobId, int>{{1, 6}}));
  EXPECT_EQ(MapsPerJob(MaxSrptScheduler("maxsrpt", 0.5e9).Schedule(snap)),
            (std::map<JobId, int>{{2, 6}}));
  // Through the policy table: the option reaches the policy.
  PolicyOptions o;
  ASSERT_TRUE(o.Set(FindPolicy("maxsrpt")->options[0], "500000000").ok());
  auto policy = CreateScheduler("maxsrpt", o);
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_EQ(MapsPerJob((*policy)->Schedule(snap)), (std::map<JobId, int>{{2, 6}}));
  // A capped link keeps its cap; only the uncapped one takes the rate.
  snap.workers[0].shuffle_bandwidth = 2e9;
  EXPECT_DOUBLE_EQ(CapacityOf(snap, 0.5e9).shuffle_bytes_per_sec, 2.5e9);
  EXPECT_TRUE(std::isinf(CapacityOf(snap).shuffle_bytes_per_sec));
}

// SplitSRPT with uncapped links and no rate: every y is 0, so every job is map-heavy
// (beta = infinity) and the class is SRPT on map size; with splitsrpt-link-rate the
// shuffle-heavy job 1 (x = 1, y = 4 at 0.5e9 per link) gets its class's slots.
TEST(SplitSrptTest, UncappedLinksAreFreeUnlessALinkRateIsGiven) {
  Snapshot snap = Cluster({MakeJob(1, 10), MakeJob(2, 10)});
  snap.shuffle_capacity = 0;
  SetSize(&snap.jobs[0], 1, 4, 1, 4, kMapCap, 1e9);
  SetSize(&snap.jobs[1], 4, 2, 4, 2, kMapCap, 1e9);
  Decision free_shuffle = SplitSrptScheduler("splitsrpt").Schedule(snap);
  EXPECT_EQ(MapsPerJob(free_shuffle), (std::map<JobId, int>{{1, 6}}));
  EXPECT_NE(free_shuffle.note.find("beta=inf map-heavy 2 jobs"), std::string::npos) << free_shuffle.note;
  // beta = 2: map-heavy job 2 holds 4 slots, shuffle-heavy job 1 the other 2.
  Decision rated = SplitSrptScheduler("splitsrpt", 0.5e9).Schedule(snap);
  EXPECT_EQ(MapsPerJob(rated), (std::map<JobId, int>{{1, 2}, {2, 4}}));
}

TEST(MaxSrptTest, JobWithoutEstimateGetsOneProbeThenRanksLast) {
  Snapshot snap = Cluster({MakeJob(1, 9), Sized(2, 9, 1, 1), MakeJob(3, 9)});
  snap.jobs[2].maps_running = 1;  // already probed: no second probe
  snap.workers[0].free_map = 2;
  Decision d = MaxSrptScheduler("maxsrpt").Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 1}, {2, 4}}));
}

TEST(SplitSrptTest, BetaIsTheSmallestImbalance) {
  auto sz = [](double x, double y) {
    JobSize s;
    s.known = true;
    s.x = x;
    s.y = y;
    return s;
  };
  EXPECT_DOUBLE_EQ(SplitSrptScheduler::Beta(std::vector<JobSize>{sz(2, 1), sz(1, 2), sz(6, 1)}), 2);
  EXPECT_DOUBLE_EQ(SplitSrptScheduler::Beta(std::vector<JobSize>{sz(1, 4), sz(9, 1)}), 4);
  EXPECT_TRUE(std::isinf(SplitSrptScheduler::Beta(std::vector<JobSize>{sz(3, 0)})));
  EXPECT_DOUBLE_EQ(SplitSrptScheduler::Beta(std::vector<JobSize>{JobSize{}}), 1);
}

// beta = 2 -> mu1 = 1/3, mu2 = 2/3: the map-heavy class holds 2/3 of the 6 map
// slots (4) and 1/3 of the shuffle; the shuffle-heavy class 2 slots and 2/3.
TEST(SplitSrptTest, SplitsCapacityBetweenClassesByBeta) {
  Snapshot snap = Cluster({Sized(1, 10, 6, 1), Sized(2, 10, 2, 1), Sized(3, 10, 1, 2)});
  for (JobView& j : snap.jobs) j.shuffle_bytes_available = 10;
  Decision d = SplitSrptScheduler("splitsrpt").Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  // Within the map-heavy class, SRPT on remaining map size: job 2 (x=2) first.
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{2, 4}, {3, 2}}));
  EXPECT_EQ(d.map_shares, (ShareMap{{2, 4}, {3, 2}}));
  ASSERT_EQ(d.shuffle_shares.size(), 2u);
  EXPECT_NEAR(d.shuffle_shares[2], 1.0 / 3, 1e-12);
  EXPECT_NEAR(d.shuffle_shares[3], 2.0 / 3, 1e-12);
  EXPECT_NE(d.note.find("beta=2"), std::string::npos) << d.note;
}

// In the paper a job leaves Q(t) when its shuffle ends. Job 3 (x = y = 1, imbalance
// 1) has finished its maps and every reducer holds its data (one runs): it no longer
// counts toward beta, which is 2 from jobs 1 and 2, so the map-heavy class holds 4 of
// the 6 slots. Counting job 3 would make beta 1 and split the slots 3/3.
TEST(SplitSrptTest, AJobWhoseShuffleIsOverLeavesBeta) {
  JobView reducing = MakeJob(3, 0);
  reducing.maps_total = reducing.maps_done = 2;
  reducing.reduces_total = reducing.reduces_running = 1;
  SetSize(&reducing, 1, 1, 0, 0, kMapCap, kShuffleCap);
  Snapshot snap = Cluster({Sized(1, 10, 4, 2), Sized(2, 10, 2, 4), reducing});
  ASSERT_TRUE(ShuffleDone(snap.jobs[2]));
  Decision d = SplitSrptScheduler("splitsrpt").Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 4}, {2, 2}}));
  EXPECT_NE(d.note.find("beta=2 map-heavy 1 jobs"), std::string::npos) << d.note;

  // Still fetching: the shuffle is not over and the job is in Q(t).
  snap.jobs[2].reduces_running = 0;
  snap.jobs[2].reduces_fetching = 1;
  ASSERT_FALSE(ShuffleDone(snap.jobs[2]));
  d = SplitSrptScheduler("splitsrpt").Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 3}, {2, 3}}));
  EXPECT_NE(d.note.find("beta=1 map-heavy 2 jobs"), std::string::npos) << d.note;
}

// Map-heavy jobs whose maps are done all have remaining map size 0; SRPT among them
// goes by remaining shuffle (as the fluid model does), not by arrival: the newer
// job 2 with 1 s of shuffle left gets the class's shuffle share before the older
// job 1 with 5 s left.
TEST(SplitSrptTest, MapDoneMapHeavyJobsGoBySmallestRemainingShuffle) {
  auto map_done = [](JobId id, double y_rem) {
    JobView j = MakeJob(id, 0);
    j.maps_total = j.maps_done = 4;
    j.reduces_total = j.reduces_fetching = 1;
    j.shuffle_bytes_available = 100;
    SetSize(&j, 40, 6, 0, y_rem, kMapCap, kShuffleCap);
    return j;
  };
  Snapshot snap = Cluster({map_done(1, 5), map_done(2, 1)});
  Decision d = SplitSrptScheduler("splitsrpt").Schedule(snap);
  EXPECT_EQ(d.shuffle_shares, (ShareMap{{2, 1.0}}));
}

TEST(SplitSrptTest, EmptyClassLeavesEverythingToTheOther) {
  Snapshot snap = Cluster({Sized(1, 10, 3, 1), Sized(2, 10, 4, 1)});
  snap.jobs[1].shuffle_bytes_available = 10;
  Decision d = SplitSrptScheduler("splitsrpt").Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 6}}));
  EXPECT_EQ(d.shuffle_shares, (ShareMap{{2, 1.0}}));
}

TEST(SplitSrptTest, ClassThatCannotUseItsSlotsLendsThem) {
  Snapshot snap = Cluster({Sized(1, 1, 2, 1), Sized(2, 10, 1, 2)});
  EXPECT_EQ(MapsPerJob(SplitSrptScheduler("splitsrpt").Schedule(snap)), (std::map<JobId, int>{{1, 1}, {2, 5}}));
}

TEST(SplitSrptTest, RunningMapsCountAgainstTheClassTarget) {
  Snapshot snap = Cluster({Sized(1, 10, 2, 1), Sized(2, 10, 1, 2)});
  snap.jobs[0].maps_running = 4;
  snap.workers[0].free_map = 1;
  snap.workers[1].free_map = 1;
  EXPECT_EQ(MapsPerJob(SplitSrptScheduler("splitsrpt").Schedule(snap)), (std::map<JobId, int>{{2, 2}}));
}


// beta = 4 gives the shuffle-heavy class lround(3 / 5) = 1 slot. Without rotation that class re-takes the slot its own
// map frees, so all its output sits on one worker's shuffle link.
// Three workers with one map slot each, a map-heavy job 1 and a shuffle-heavy job 2 (beta 4).
Snapshot ThreeOneSlotWorkers(int map_heavy_pending, int shuffle_heavy_pending) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 1), MakeWorker(2, 1), MakeWorker(3, 1)};
  snap.shuffle_capacity = kShuffleCap;
  JobView map_heavy = MakeJob(1, map_heavy_pending), shuffle_heavy = MakeJob(2, shuffle_heavy_pending);
  SetSize(&map_heavy, 8, 2, 8, 2, 3, kShuffleCap);
  SetSize(&shuffle_heavy, 2, 8, 2, 8, 3, kShuffleCap);
  snap.jobs = {map_heavy, shuffle_heavy};
  return snap;
}

// Only worker `id` has its map slot free.
void FreeOnly(Snapshot* snap, WorkerId id) {
  for (WorkerView& w : snap->workers) w.free_map = w.id == id ? 1 : 0;
}

TEST(SplitSrptTest, AOneSlotClassRotatesOverTheWorkers) {
  Snapshot snap = ThreeOneSlotWorkers(50, 50);
  SplitSrptScheduler policy("splitsrpt");
  Decision first = policy.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, first));
  EXPECT_EQ(MapsPerJob(first), (std::map<JobId, int>{{1, 2}, {2, 1}}));
  std::map<JobId, WorkerId> where;
  for (const Assignment& a : first.assignments) where[a.job] = a.worker;  // job 1: its last one

  // Steady state: one slot frees at a time. Each round, the shuffle-heavy job's
  // map finishes on its worker and that slot is offered first.
  std::set<WorkerId> shuffle_heavy_workers = {where[2]};
  WorkerId previous = where[2];
  for (int round = 0; round < 6; ++round) {
    Snapshot s = snap;
    FreeOnly(&s, previous);
    s.jobs[0].maps_running = 2;  // the map-heavy class at its target
    s.jobs[1].maps_running = 0;
    Decision d = policy.Schedule(s);
    ASSERT_TRUE(testing::CheckContract(s, d));
    // The freed slot goes to the map-heavy job, the other class waits ...
    EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 1}})) << "round " << round;
    // ... and takes the next slot freed elsewhere.
    WorkerId other = previous % 3 + 1;
    FreeOnly(&s, other);
    s.jobs[0].maps_running = 2;
    d = policy.Schedule(s);
    ASSERT_EQ(d.assignments.size(), 1u);
    EXPECT_EQ(d.assignments[0].job, 2u) << "round " << round;
    EXPECT_EQ(d.assignments[0].worker, other);
    shuffle_heavy_workers.insert(other);
    previous = other;
  }
  EXPECT_EQ(shuffle_heavy_workers.size(), 3u);
}

// Rotation never idles a slot: if the other class has nothing to run, the
// avoiding class takes the slot after all.
TEST(SplitSrptTest, RotationNeverLeavesASlotIdle) {
  Snapshot snap = ThreeOneSlotWorkers(2, 50);
  SplitSrptScheduler policy("splitsrpt");
  Decision first = policy.Schedule(snap);
  WorkerId w2 = 0;
  for (const Assignment& a : first.assignments) {
    if (a.job == 2) w2 = a.worker;
  }
  ASSERT_NE(w2, 0u);
  Snapshot s = snap;
  FreeOnly(&s, w2);
  s.jobs[0].pending_maps.clear();  // the map-heavy job has no map left to start
  s.jobs[0].maps_running = 2;
  Decision d = policy.Schedule(s);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{2, 1}}));
}

}  // namespace
}  // namespace mr::sched
