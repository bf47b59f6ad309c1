// The batch simulator (model/makespan/batch_sim.h) against the project's task-level simulator
// (model/tasksim), which runs the live policies: on a batch that both can express (every job
// there at 0, no shuffle bytes) the live FIFO policy must give every job the completion time
// the batch simulator gives it in the same order when all slots are on one worker. On several
// workers mrlab pins each reducer to the worker it was placed on at slow-start, which the
// paper's simulator does not (docs/makespan.md, "Departures"): there only the map stages must
// agree. And the paper's Figure 5 on the live policies: two (10, 10) jobs take 30 under FIFO
// and 40 under fair sharing.
#include <gtest/gtest.h>

#include <vector>

#include "common/rng.h"
#include "common/stats.h"
#include "model/makespan/batch_sim.h"
#include "task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::LivePolicy;

// `jobs` as the task simulator's jobs, all at time 0, listed in `order` (the live FIFO
// policy's arrival order is then the list's order).
std::vector<TaskJob> AsTaskJobs(const std::vector<BatchJob>& jobs, const std::vector<int>& order) {
  std::vector<TaskJob> out;
  for (int i : order) {
    TaskJob t;
    t.maps = static_cast<int>(jobs[i].map_durations.size());
    t.map_durations = jobs[i].map_durations;
    t.map_seconds = Mean(t.map_durations);
    t.reducers = static_cast<int>(jobs[i].reduce_durations.size());
    t.reduce_durations = jobs[i].reduce_durations;
    t.reduce_seconds = Mean(t.reduce_durations);
    t.params.hint_map_seconds = t.map_seconds * t.maps;
    out.push_back(std::move(t));
  }
  return out;
}

ClusterSpec Workers(int n, int slots = 1) {
  ClusterSpec c;
  c.workers = n;
  c.map_slots = slots;
  c.reduce_slots = slots;
  c.shuffle_bandwidth = 1e9;  // no bytes move: the links never matter
  return c;
}

// A random batch: 1-12 maps, 1-6 reduces, durations uniform on (0.5, 5.5) (no ties).
std::vector<BatchJob> RandomBatch(uint64_t seed, int n) {
  Rng rng(seed);
  std::vector<BatchJob> jobs;
  for (int j = 0; j < n; ++j) {
    BatchJob b;
    b.name = "J" + std::to_string(j + 1);
    const int maps = 1 + static_cast<int>(rng.Uniform() * 12), reduces = 1 + static_cast<int>(rng.Uniform() * 6);
    for (int i = 0; i < maps; ++i) b.map_durations.push_back(0.5 + 5 * rng.Uniform());
    for (int i = 0; i < reduces; ++i) b.reduce_durations.push_back(0.5 + 5 * rng.Uniform());
    jobs.push_back(std::move(b));
  }
  return jobs;
}

// `workers` workers of `slots` map and reduce slots each. With one worker every job's
// completion must agree; with more, the end of every job's map stage (its sojourn).
void ExpectSameRun(const std::vector<BatchJob>& jobs, const std::vector<int>& order, int workers, int slots) {
  Result<BatchSimResult> batch = SimulateBatch(jobs, order, {workers * slots, workers * slots});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto fifo = LivePolicy("fifo");
  const std::vector<TaskJob> tasks = AsTaskJobs(jobs, order);
  TaskSimResult live = testing::MustRun(tasks, Workers(workers, slots), *fifo);
  ASSERT_EQ(live.completion.size(), order.size());
  for (size_t pos = 0; pos < order.size(); ++pos) {
    EXPECT_NEAR(live.sojourn[pos], batch->maps_end[order[pos]], 1e-9) << "job " << jobs[order[pos]].name;
    if (workers == 1) {
      EXPECT_NEAR(live.completion[pos], batch->completion[order[pos]], 1e-9) << "job " << jobs[order[pos]].name;
    }
  }
  if (workers == 1) {
    EXPECT_NEAR(live.makespan, batch->makespan, 1e-9);
  }
}

TEST(MakespanTaskSimTest, FifoAgreesWithTheBatchSimulator) {
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<BatchJob> jobs = RandomBatch(seed, 8);
    std::vector<JobProfile> profiles;
    for (const BatchJob& j : jobs) profiles.push_back(ProfileOf(j));
    for (auto [workers, slots] : {std::pair{1, 1}, {1, 3}, {1, 7}, {3, 1}, {4, 2}}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(workers) + " workers of " +
                   std::to_string(slots) + " slots");
      const SlotShape shape{workers * slots, workers * slots};
      ExpectSameRun(jobs, ArrivalOrder(8), workers, slots);
      const std::vector<int> johnson = JohnsonOrderOn(profiles, ArrivalOrder(8), shape);
      ExpectSameRun(jobs, johnson, workers, slots);
      ExpectSameRun(jobs, Reversed(johnson), workers, slots);
    }
  }
}

TEST(MakespanTaskSimTest, TwoEqualJobsFifoThirtyFairForty) {
  // Figure 5: J1 = J2 = (10, 10), each 30 maps and 30 reduces of 10 s, on 30 workers of one
  // map and one reduce slot. FIFO: J1 maps 0-10, J1 reduces and J2 maps 10-20, J2 reduces
  // 20-30: 30. Fair: 15 slots each, so each stage takes two waves: maps 0-20, reduces 20-40:
  // both jobs end at 40.
  BatchJob j;
  j.map_durations.assign(30, 10);
  j.reduce_durations.assign(30, 10);
  const std::vector<BatchJob> jobs = {j, j};
  const std::vector<TaskJob> tasks = AsTaskJobs(jobs, ArrivalOrder(2));
  auto fifo = LivePolicy("fifo");
  EXPECT_DOUBLE_EQ(testing::MustRun(tasks, Workers(30), *fifo).makespan, 30);
  auto fair = LivePolicy("fair");
  TaskSimResult shared = testing::MustRun(tasks, Workers(30), *fair);
  EXPECT_DOUBLE_EQ(shared.makespan, 40);
  EXPECT_DOUBLE_EQ(shared.completion[0], 40);
  EXPECT_DOUBLE_EQ(shared.completion[1], 40);
  Result<BatchSimResult> batch = SimulateBatch(jobs, ArrivalOrder(2), {30, 30});
  ASSERT_TRUE(batch.ok());
  EXPECT_DOUBLE_EQ(batch->makespan, 30);
}

}  // namespace
}  // namespace mr::model
