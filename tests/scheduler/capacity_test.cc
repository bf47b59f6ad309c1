// The capacity scheduler (scheduler/policies/capacity_scheduler.h) on hand-made snapshots: the
// queues file and its errors, the guarantees, FIFO within a queue, and lending and return on
// a manual clock — a small driver starts the assigned tasks, advances the clock and finishes
// them, so each round sees what the previous ones left running (no preemption: a queue gets
// its guarantee back only as borrowed tasks end).
#include "scheduler/policies/capacity_scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "common/clock.h"
#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;

CapacityQueues Queues(const char* text) {
  Result<CapacityQueues> q = CapacityQueues::Parse(text, "queues.txt");
  EXPECT_TRUE(q.ok()) << q.status().ToString();
  return q.ok() ? std::move(*q) : CapacityQueues();
}

std::string ParseError(const char* text) { return CapacityQueues::Parse(text, "queues.txt").status().message(); }

TEST(CapacityQueuesTest, ParsesTheFileFormat) {
  CapacityQueues q = Queues(
      "# two pools\n"
      "queue small capacity=30 max_capacity=50%   # borrows up to half\n"
      "\n"
      "queue large capacity=70%\n"
      "queue gpu label=rack=r1\n");
  ASSERT_EQ(q.queues().size(), 3u);
  EXPECT_EQ(q.queues()[0].name, "small");
  EXPECT_DOUBLE_EQ(q.queues()[0].capacity, 30);
  EXPECT_DOUBLE_EQ(q.queues()[0].max_capacity, 50);
  EXPECT_DOUBLE_EQ(q.queues()[1].capacity, 70);
  EXPECT_DOUBLE_EQ(q.queues()[1].max_capacity, 0);
  ASSERT_TRUE(q.queues()[2].bound());
  EXPECT_EQ(q.queues()[2].label->key, "rack");
  EXPECT_EQ(q.queues()[2].label->value, "r1");
  EXPECT_EQ(q.Names(), "small, large, gpu");
  EXPECT_EQ(q.Find("large"), 1);
  EXPECT_EQ(q.Find(""), -1) << "no default queue in this file";
  EXPECT_EQ(CapacityQueues().Find(""), 0) << "without a file: one queue, default";
  EXPECT_DOUBLE_EQ(CapacityQueues().queues()[0].capacity, 100);
  // Thirds written by a planner sum to 100 within rounding.
  EXPECT_TRUE(CapacityQueues::Parse("queue a capacity=33.3333333\nqueue b capacity=33.3333333\n"
                                    "queue c capacity=33.3333334\n")
                  .ok());
}

TEST(CapacityQueuesTest, GuaranteesAbove100PercentAreOneLineError) {
  EXPECT_EQ(ParseError("queue a capacity=60\nqueue b capacity=50\n"),
            "queues.txt: the queues' capacities sum to 110% (a 60%, b 50%), more than 100%");
  EXPECT_EQ(ParseError("queue a capacity=101\n"),
            "queues.txt:1: capacity must be a percentage in (0, 100], not '101'");
}

TEST(CapacityQueuesTest, MalformedLinesNameTheLine) {
  EXPECT_EQ(ParseError("queue a capacity=0\n"), "queues.txt:1: capacity must be a percentage in (0, 100], not '0'");
  EXPECT_EQ(ParseError("\npool a capacity=10\n"), "queues.txt:2: expected 'queue NAME key=value...', got 'pool'");
  EXPECT_EQ(ParseError("queue a\n"),
            "queues.txt:1: queue 'a' needs capacity=PERCENT, map_slots=N reduce_slots=N or label=KEY=VALUE");
  EXPECT_EQ(ParseError("queue a capacity=10 weight=2\n"),
            "queues.txt:1: unknown key 'weight' (known: capacity, max_capacity, map_slots, reduce_slots, "
            "max_map_slots, max_reduce_slots, label)");
  EXPECT_EQ(ParseError("queue a capacity=40 max_capacity=30\n"),
            "queues.txt:1: queue 'a': max_capacity 30 is below its capacity 40");
  EXPECT_EQ(ParseError("queue a capacity=10\nqueue a capacity=10\n"), "queues.txt:2: queue 'a' defined twice");
  EXPECT_EQ(ParseError("queue a/b capacity=10\n"),
            "queues.txt:1: queue name 'a/b' must be 1..63 bytes of [A-Za-z0-9._-]");
  EXPECT_EQ(ParseError("queue a label=k=v capacity=10\n"),
            "queues.txt:1: queue 'a': label= binds it to its workers; capacity= and the slot counts are for the "
            "other queues");
  EXPECT_EQ(ParseError("# nothing\n"), "queues.txt: no queue defined");
}

TEST(CapacityTest, AnUnknownQueueIsRefusedWithTheKnownNames) {
  CapacityScheduler s("capacity", Queues("queue small capacity=30\nqueue large capacity=70\n"));
  JobParams p;
  p.queue = "large";
  EXPECT_TRUE(s.AdmitJob(p).ok());
  p.queue = "huge";
  Status st = s.AdmitJob(p);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "unknown queue 'huge' (known: small, large)");
  p.queue = "";
  EXPECT_EQ(s.AdmitJob(p).message(), "the job names no queue and there is no 'default' queue (known: small, large)");
  EXPECT_TRUE(CapacityScheduler("capacity").AdmitJob(p).ok()) << "without a file every job runs in default";
}

JobView InQueue(JobId id, int maps, const char* queue) {
  JobView j = MakeJob(id, maps);
  j.params.queue = queue;
  return j;
}

// Ten free map slots, both queues with more work than that: each gets its guarantee.
TEST(CapacityTest, EachBusyQueueGetsItsGuarantee) {
  CapacityScheduler s("capacity", Queues("queue a capacity=70\nqueue b capacity=30\n"));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 5), MakeWorker(2, 5)};
  snap.jobs = {InQueue(1, 20, "b"), InQueue(2, 20, "a")};
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 3}, {2, 7}}));
}

// Within a queue the earliest job takes what the queue gets before the next one (FIFO).
TEST(CapacityTest, FifoWithinAQueue) {
  CapacityScheduler s("capacity", Queues("queue a capacity=50\nqueue b capacity=50\n"));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 4), MakeWorker(2, 4)};
  snap.jobs = {InQueue(1, 3, "a"), InQueue(2, 10, "a"), InQueue(3, 10, "b")};
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 3}, {2, 1}, {3, 4}}));
}

// Starts assigned maps, advances a manual clock and ends them: rounds see what earlier
// rounds left running. Every map of a job takes the job's `seconds`.
class ManualCluster {
 public:
  ManualCluster(int workers, int slots_each) {
    for (int w = 1; w <= workers; ++w) workers_.push_back(MakeWorker(static_cast<WorkerId>(w), slots_each));
  }
  void Submit(JobView job, double seconds) {
    job.submit_time = clock_.Now();
    seconds_[job.id] = seconds;
    jobs_.push_back(std::move(job));
  }
  Snapshot Snap() const {
    Snapshot snap;
    snap.now = clock_.Now();
    snap.workers = workers_;
    snap.jobs = jobs_;
    return snap;
  }
  // One scheduling round; returns the maps it started per job.
  std::map<JobId, int> Round(Scheduler& s) {
    const Snapshot snap = Snap();
    const Decision d = s.Schedule(snap);
    EXPECT_TRUE(testing::CheckContract(snap, d));
    for (const Assignment& a : d.assignments) {
      JobView& j = Job(a.job);
      std::erase(j.pending_maps, a.index);
      j.running.push_back({TaskKind::kMap, a.index, 0, a.worker, a.slot, clock_.Now()});
      ++j.maps_running;
      --Worker(a.worker).free_map;
    }
    return MapsPerJob(d);
  }
  // Advances the clock to t, ending every map that has run its job's seconds by then.
  void AdvanceTo(double t) {
    clock_.Set(t);
    for (JobView& j : jobs_) {
      std::erase_if(j.running, [&](const RunningAttempt& a) {
        if (a.start_time + seconds_[j.id] > t) return false;
        --j.maps_running;
        ++j.maps_done;
        ++Worker(a.worker).free_map;
        return true;
      });
    }
  }
  int Running(JobId id) { return Job(id).maps_running; }

 private:
  JobView& Job(JobId id) {
    for (JobView& j : jobs_) {
      if (j.id == id) return j;
    }
    ADD_FAILURE() << "no job " << id;
    return jobs_.front();
  }
  WorkerView& Worker(WorkerId id) { return workers_[id - 1]; }

  ManualClock clock_;
  std::vector<WorkerView> workers_;
  std::vector<JobView> jobs_;
  std::map<JobId, double> seconds_;
};

const QueueUse& Use(const std::vector<QueueUse>& all, const char* name) {
  for (const QueueUse& q : all) {
    if (q.name == name) return q;
  }
  ADD_FAILURE() << "no queue " << name;
  return all.front();
}

// Queue a alone borrows b's idle half; b's job then waits (nothing is preempted) and gets
// the slots back one by one as a's borrowed maps end, until both hold their guarantee; a
// slot a frees after that goes back to a.
TEST(CapacityTest, IdleCapacityIsLentAndReturnedAsBorrowedTasksFinish) {
  CapacityScheduler s("capacity", Queues("queue a capacity=50\nqueue b capacity=50\n"));
  ManualCluster c(2, 2);  // 4 map slots: 2 guaranteed to each queue
  c.Submit(InQueue(1, 20, "a"), /*seconds=*/10);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{1, 4}})) << "a borrows b's idle slots";
  std::vector<QueueUse> use = s.Queues(c.Snap());
  EXPECT_EQ(Use(use, "a").map.in_use, 4);
  EXPECT_DOUBLE_EQ(Use(use, "a").map.guaranteed, 2);
  EXPECT_DOUBLE_EQ(Use(use, "a").map.borrowed, 2);
  EXPECT_DOUBLE_EQ(Use(use, "b").map.lent, 2);
  EXPECT_DOUBLE_EQ(Use(use, "b").map.borrowed, 0);

  c.AdvanceTo(1);
  c.Submit(InQueue(2, 20, "b"), /*seconds=*/10);
  EXPECT_TRUE(c.Round(s).empty()) << "no preemption: b waits for a slot to free";

  // a's maps started at 0 end at 10: the freed slots go to b, the queue below its guarantee,
  // up to its guarantee; then a gets the rest.
  c.AdvanceTo(10);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{1, 2}, {2, 2}}));
  use = s.Queues(c.Snap());
  EXPECT_EQ(Use(use, "a").map.in_use, 2);
  EXPECT_EQ(Use(use, "b").map.in_use, 2);
  EXPECT_DOUBLE_EQ(Use(use, "b").map.lent, 0);
  EXPECT_DOUBLE_EQ(Use(use, "a").map.borrowed, 0);
}

// The same, slot by slot: a's borrowed maps end one at a time; each freed slot returns to b
// until b holds its guarantee, and the next one goes back to a.
TEST(CapacityTest, BorrowedSlotsReturnOneByOne) {
  CapacityScheduler s("capacity", Queues("queue a capacity=50\nqueue b capacity=50\n"));
  ManualCluster c(1, 4);
  c.Submit(InQueue(1, 1, "a"), 1);
  c.Submit(InQueue(2, 1, "a"), 2);
  c.Submit(InQueue(3, 1, "a"), 3);
  c.Submit(InQueue(4, 10, "a"), 100);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{1, 1}, {2, 1}, {3, 1}, {4, 1}}));
  c.Submit(InQueue(5, 10, "b"), 100);
  EXPECT_TRUE(c.Round(s).empty());
  c.AdvanceTo(1);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{5, 1}})) << "b 0/2 is further below its guarantee than a 3/2";
  c.AdvanceTo(2);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{5, 1}})) << "b 1/2 still below a 2/2";
  c.AdvanceTo(3);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{4, 1}})) << "b at its guarantee: a's slot returns to a";
  EXPECT_EQ(c.Running(4), 2);
  EXPECT_EQ(c.Running(5), 2);
}

// max_capacity caps borrowing: the slots above it stay idle although a job waits.
TEST(CapacityTest, MaxCapacityCapsBorrowing) {
  CapacityScheduler s("capacity", Queues("queue a capacity=25 max_capacity=50\nqueue b capacity=75\n"));
  ManualCluster c(2, 4);
  c.Submit(InQueue(1, 20, "a"), 10);
  EXPECT_EQ(c.Round(s), (std::map<JobId, int>{{1, 4}}));
  EXPECT_EQ(s.Queues(c.Snap())[0].map.max, 4);
}

// A queue bound to a label runs only on the workers carrying it, and they run nothing else.
TEST(CapacityTest, ALabelBoundQueueOwnsItsWorkers) {
  CapacityScheduler s("capacity", Queues("queue batch capacity=100\nqueue gpu label=class=gpu\n"));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 2), MakeWorker(2, 2), MakeWorker(3, 2)};
  snap.workers[2].labels = WorkerLabels::Parse({"class=gpu"}).value();
  snap.jobs = {InQueue(1, 10, "batch"), InQueue(2, 10, "gpu")};
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  for (const Assignment& a : d.assignments) EXPECT_EQ(a.worker == 3, a.job == 2) << "job " << a.job;
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 4}, {2, 2}}));
  JobParams gpu, batch;
  gpu.queue = "gpu";
  batch.queue = "batch";
  EXPECT_TRUE(s.MayRunOn(gpu, snap.workers[2].labels));
  EXPECT_FALSE(s.MayRunOn(gpu, snap.workers[0].labels));
  EXPECT_FALSE(s.MayRunOn(batch, snap.workers[2].labels));
  const std::vector<QueueUse> use = s.Queues(snap);
  EXPECT_EQ(Use(use, "gpu").label, "class=gpu");
  EXPECT_DOUBLE_EQ(Use(use, "gpu").map.guaranteed, 2);
  EXPECT_DOUBLE_EQ(Use(use, "batch").map.guaranteed, 4);
}

// Reduce slots are handed out by the same rule: b's reduce gets the one free reduce slot
// while a already holds its guarantee of them.
TEST(CapacityTest, ReduceSlotsFollowTheGuaranteesToo) {
  CapacityScheduler s("capacity", Queues("queue a capacity=50\nqueue b capacity=50\n"));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 0, 2)};
  snap.workers[0].free_reduce = 1;
  snap.jobs = {InQueue(1, 0, "a"), InQueue(2, 0, "b")};
  snap.jobs[0].reduces_running = 1;
  snap.jobs[0].ready_reduces = {{1, 1}};
  snap.jobs[1].ready_reduces = {{0, 1}};
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].job, 2);
  EXPECT_EQ(d.assignments[0].kind, TaskKind::kReduce);
}

// A planner's pools: guarantees and caps in slots. Both queues busy: each gets its slots;
// with caps equal to the guarantees the pools are fixed partitions (nothing lent).
TEST(CapacityTest, GuaranteesInSlotsForAPlannersPools) {
  CapacityScheduler s("capacity", Queues("queue small map_slots=2 reduce_slots=1 max_map_slots=2\n"
                                         "queue large map_slots=6 reduce_slots=3 max_map_slots=6\n"));
  Snapshot snap;
  snap.workers = {MakeWorker(1, 4, 2), MakeWorker(2, 4, 2)};
  snap.jobs = {InQueue(1, 20, "large"), InQueue(2, 20, "small")};
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 6}, {2, 2}}));
  snap.jobs = {InQueue(2, 20, "small")};
  EXPECT_EQ(MapsPerJob(s.Schedule(snap)), (std::map<JobId, int>{{2, 2}})) << "capped: the rest stays idle";
  const std::vector<QueueUse> use = s.Queues(snap);
  EXPECT_DOUBLE_EQ(Use(use, "large").map.guaranteed, 6);
  EXPECT_DOUBLE_EQ(Use(use, "large").reduce.guaranteed, 3);
  EXPECT_EQ(Use(use, "small").map.max, 2);
  // Fewer live slots than promised (a worker missing): the guarantees shrink in proportion.
  snap.workers = {MakeWorker(1, 4, 2)};
  EXPECT_DOUBLE_EQ(Use(s.Queues(snap), "large").map.guaranteed, 3);
  EXPECT_DOUBLE_EQ(Use(s.Queues(snap), "small").map.guaranteed, 1);
}

TEST(CapacityQueuesTest, SlotGuaranteesAreOneWayForEveryQueue) {
  EXPECT_EQ(ParseError("queue a capacity=50\nqueue b map_slots=1 reduce_slots=1\n"),
            "queues.txt:2: queue 'b' gives its guarantee in slots, queue 'a' in capacity=: one way for every queue");
  EXPECT_EQ(ParseError("queue a map_slots=1\n"), "queues.txt:1: queue 'a': map_slots= and reduce_slots= go together");
  EXPECT_EQ(ParseError("queue a map_slots=4 reduce_slots=1 max_map_slots=3\n"),
            "queues.txt:1: queue 'a': max_map_slots 3 is below its guarantee 4");
  EXPECT_EQ(ParseError("queue a map_slots=x reduce_slots=1\n"),
            "queues.txt:1: map_slots must be a whole number of slots in [0, 1000000], not 'x'");
  EXPECT_EQ(ParseError("queue a capacity=10 map_slots=1 reduce_slots=1\n"),
            "queues.txt:1: queue 'a': capacity= or map_slots=/reduce_slots=, not both");
}

}  // namespace
}  // namespace mr::sched
