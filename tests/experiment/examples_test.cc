// Every experiment file in examples/experiments/ parses and makes its jobs, so an example
// cannot rot when the schema, the policy table or a workload source changes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "experiment/experiment_file.h"
#include "experiment/workload_import.h"

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
  }
}

}  // namespace
}  // namespace mr::experiment
