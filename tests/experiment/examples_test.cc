// Every experiment file in examples/experiments/ parses and makes its jobs, and the
// task-level simulator runs those jobs to completion under each of its policies (and placements), so an
// example cannot rot when the schema, the policy table or a workload source changes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "experiment/cluster_shape.h"
#include "experiment/experiment_file.h"
#include "experiment/workload_import.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/policy_table.h"

namespace mr::experiment {
namespace {

TEST(ExampleExperimentsTest, EveryFileParsesAndMakesItsJobs) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "run under ctest (it sets MR_SOURCE_DIR)";
  std::filesystem::path dir = std::filesystem::path(src) / "examples" / "experiments";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  ASSERT_GE(files.size(), 6u) << "synthetic-small, three seeded, one batch, swim-hour";
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    Result<Experiment> e = LoadExperimentFile(file.string());
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    EXPECT_EQ(e->name, file.stem().string()) << "results/NAME/ should say which file made it";
    ImportSummary summary;
    Result<JobList> jobs = MakeJobs(e->workload, e->cluster, &summary);
    ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
    EXPECT_GT(jobs->size(), 0u);
    EXPECT_EQ(summary.jobs, static_cast<int>(jobs->size()));
    std::printf("%s: %s\n", file.filename().c_str(), summary.notes.c_str());
    Result<model::ClusterSpec> cluster = ToClusterSpec(e->cluster);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    for (const PolicyRun& run : e->policies) {
      SCOPED_TRACE(run.label);
      const sched::PolicyRow* row = sched::FindPolicy(run.policy);
      ASSERT_NE(row, nullptr);
      sched::PolicyOptions given;
      for (const auto& [name, value] : run.options) {
        for (const sched::OptionSpec& spec : row->options) {
          if (name == spec.name) {
            ASSERT_TRUE(given.Set(spec, value).ok());
          }
        }
      }
      auto options = sched::ResolvePolicyOptions(run.policy, given);
      ASSERT_TRUE(options.ok()) << options.status().ToString();
      auto policy = sched::CreateScheduler(run.policy, *options);
      ASSERT_TRUE(policy.ok()) << policy.status().ToString();
      std::map<std::string, std::string, std::less<>> flags(run.placement.begin(), run.placement.end());
      auto placement = sched::PlacementConfigFromFlags(flags);
      ASSERT_TRUE(placement.ok()) << placement.status().ToString();
      auto scheduler = sched::WithPlacement(std::move(*policy), *placement);
      ASSERT_TRUE(scheduler.ok()) << scheduler.status().ToString();
      auto result = model::SimulateTasks(*jobs, *cluster, **scheduler);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      // Uncalibrated: how long a live run of the file will roughly take.
      std::printf("  %-10s simulated mean response %.2f s, makespan %.1f s\n", run.label.c_str(),
                  result->mean_response, result->makespan);
      for (size_t i = 0; i < jobs->size(); ++i) {
        EXPECT_GE(result->completion[i], (*jobs)[i].arrival);
        EXPECT_FALSE(result->failed[i]);
      }
    }
  }
}

}  // namespace
}  // namespace mr::experiment
