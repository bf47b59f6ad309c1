// generator: makespan (experiment/workload_makespan.cc): the makespan paper's batches as live
// jobs, all at time 0, each job's tasks its drawn tasks' mean times the one scale factor.
#include <gtest/gtest.h>

#include <string>

#include "common/stats.h"
#include "experiment/workload_import.h"
#include "model/makespan/makespan_workloads.h"

namespace mr::experiment {
namespace {

WorkloadSpec Makespan(const std::string& workload, int jobs, const std::string& scale) {
  WorkloadSpec s;
  s.kind = WorkloadKind::kGenerator;
  s.generator = "makespan";
  s.params = {{"workload", workload}, {"jobs", std::to_string(jobs)}, {"time_scale", scale}};
  s.seed = 7;
  return s;
}

ClusterShape FourWorkers() {
  ClusterShape c;
  c.groups.push_back({4, 2, 2, 1.0, 20e6, 0});
  return c;
}

TEST(MakespanWorkloadSourceTest, ThePlannersBatchScaledInTime) {
  auto live = MakeJobs(Makespan("synthetic1-bimodal", 12, "0.01"), FourWorkers(), nullptr);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  auto batch = model::GenerateMakespanWorkload({"synthetic1-bimodal", 12, 7});
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ(live->size(), 12u);
  for (size_t i = 0; i < live->size(); ++i) {
    const model::TaskJob& j = (*live)[i];
    const model::BatchJob& b = (*batch)[i];
    EXPECT_EQ(j.arrival, 0);
    EXPECT_EQ(j.maps, static_cast<int>(b.map_durations.size()));
    EXPECT_DOUBLE_EQ(j.map_seconds, 0.01 * Mean(b.map_durations));
    EXPECT_EQ(j.reducers, static_cast<int>(b.reduce_durations.size()));
    EXPECT_DOUBLE_EQ(j.reduce_seconds, 0.01 * Mean(b.reduce_durations));
    EXPECT_NEAR(j.params.hint_map_seconds, 0.01 * Mean(b.map_durations) * static_cast<double>(b.map_durations.size()), 1e-6 * j.params.hint_map_seconds);
  }
}

TEST(MakespanWorkloadSourceTest, MapOnlyJobsGetOneEmptyReduce) {
  auto live = MakeJobs(Makespan("facebook", 0, "0.001"), FourWorkers(), nullptr);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  ASSERT_EQ(live->size(), 100u);
  int map_only = 0;
  for (const model::TaskJob& j : *live) {
    EXPECT_GE(j.reducers, 1);
    if (j.reduce_seconds == 0) {
      ++map_only;
      EXPECT_EQ(j.reducers, 1);
    }
  }
  EXPECT_EQ(map_only, 74);  // the table's map-only bins: 38 + 16 + 8 + 6 + 4 + 2
}

TEST(MakespanWorkloadSourceTest, BadParameters) {
  auto unknown = MakeJobs(Makespan("google", 10, "0.01"), FourWorkers(), nullptr);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown makespan workload 'google'"), std::string::npos)
      << unknown.status().message();
  EXPECT_FALSE(MakeJobs(Makespan("facebook", 10, "0.01"), FourWorkers(), nullptr).ok());
  EXPECT_FALSE(MakeJobs(Makespan("synthetic2", 10, "0"), FourWorkers(), nullptr).ok());
}

}  // namespace
}  // namespace mr::experiment
