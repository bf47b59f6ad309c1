// The task-level simulator shows a WorkerSpec's labels to the policy in every snapshot's
// WorkerView, as the master shows a registration's (docs/model.md).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::LivePolicy;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

TEST(TaskSimLabelsTest, EverySnapshotCarriesEachWorkersLabels) {
  WorkerSpec fast = Worker(1, 1, 0, 1.0);
  fast.labels = WorkerLabels::Parse({"rack=r1", "class=fast"}).value();
  WorkerSpec plain = Worker(1, 1, 0, 0.5);
  ClusterSpec c = ClusterOf({fast, plain});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 3, 1.0)};
  auto fifo = LivePolicy("fifo");
  int rounds = 0;
  std::map<sched::WorkerId, std::string> seen;
  ScriptedScheduler recording([&](const sched::Snapshot& snap) {
    ++rounds;
    for (const sched::WorkerView& w : snap.workers) {
      auto it = seen.emplace(w.id, w.labels.ToString()).first;
      EXPECT_EQ(it->second, w.labels.ToString()) << "worker " << w.id << "'s labels changed";
    }
    return fifo->Schedule(snap);
  });
  TaskSimResult r = MustRun(jobs, c, recording);
  EXPECT_EQ(r.completion.size(), 1u);
  EXPECT_GT(rounds, 0);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1], "class=fast,rack=r1");  // worker i of the spec is id i + 1
  EXPECT_EQ(seen[2], "");
}

}  // namespace
}  // namespace mr::model
