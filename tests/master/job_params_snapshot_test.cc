// One definition of a job's parameters, seen from both drivers of a policy: the same request
// made a JobSpec and submitted to the live master's JobTracker, and given to the task-level
// simulator as a TaskJob, shows the policy the same JobView::params (the master through
// jobs::JobParamsFromSpec, the simulator by copying TaskJob::params).
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "jobs/job_request.h"
#include "model/tasksim/task_sim.h"
#include "tests/master/tracker_harness.h"

namespace mr::master::testing {
namespace {

// Records the parameters of the first job it is shown, then decides as fifo does.
class Recorder final : public sched::Scheduler {
 public:
  std::string_view name() const override { return "recorder"; }
  sched::Decision Schedule(const sched::Snapshot& snap) override {
    if (!seen && !snap.jobs.empty()) seen = snap.jobs[0].params;
    return fifo_->Schedule(snap);
  }
  std::optional<sched::JobParams> seen;

 private:
  std::unique_ptr<sched::Scheduler> fifo_ = sched::CreateScheduler("fifo").value();
};

TEST(JobParamsSnapshotTest, MasterAndSimulatorShowThePolicyTheSameParams) {
  TempDir dir("mr-job-params-snapshot");
  jobs::JobRequest r;
  r.job = "synthetic";
  r.output = JoinPath(dir.path(), "out");
  r.num_maps = 2;
  r.scheduling.pool = "batch";
  r.scheduling.weight = 2.5;
  r.scheduling.hint_map_seconds = 12;
  r.scheduling.hint_shuffle_bytes = 3e6;
  r.scheduling.hint_reduce_seconds = 4;
  r.scheduling.speculative = false;
  Result<proto::JobSpec> spec = jobs::MakeJobSpec(r, jobs::LocalInputs());
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();

  auto live = std::make_unique<Recorder>();
  Recorder* master_view = live.get();
  TrackerHarness h(dir.path(), std::move(live));
  const uint32_t w = h.AddWorker(2, 1);
  h.Submit(*spec);
  h.clock().Advance(1);
  h.Beat(w);
  ASSERT_TRUE(master_view->seen.has_value()) << "the master ran no round";

  model::TaskJob t;
  t.maps = 2;
  t.map_seconds = 1;
  t.params = r.scheduling;
  model::ClusterSpec cluster;
  cluster.shuffle_bandwidth = 1e6;
  Recorder sim_view;
  std::vector<model::TaskJob> jobs = {t};
  Result<model::TaskSimResult> run = model::SimulateTasks(jobs, cluster, sim_view);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_TRUE(sim_view.seen.has_value());

  EXPECT_TRUE(*master_view->seen == r.scheduling);
  EXPECT_TRUE(*sim_view.seen == r.scheduling);
}

}  // namespace
}  // namespace mr::master::testing
