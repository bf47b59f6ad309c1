// generator: asrpt (experiment/workload_asrpt.cc): the slotted model's paper workloads as
// live jobs, unit for unit, with the slots stretched to the target load of the unified slots.
#include <gtest/gtest.h>

#include <string>

#include "experiment/experiment_file.h"
#include "experiment/workload_import.h"
#include "model/slotted/slotted_workload.h"

namespace mr::experiment {
namespace {

// 2 workers with one unified slot each, at speed 1.5: 3 unified slot-seconds per second.
ClusterShape TwoUnified() {
  ClusterShape c;
  c.groups.push_back({2, 0, 0, 1.5, 20e6, /*unified_slots=*/1});
  return c;
}

WorkloadSpec Asrpt(const std::string& workload, int jobs, uint64_t seed) {
  WorkloadSpec s;
  s.kind = WorkloadKind::kGenerator;
  s.generator = "asrpt";
  s.params = {{"workload", workload}, {"jobs", std::to_string(jobs)}, {"load", "0.6"},
              {"unit_seconds", "0.5"}};
  s.seed = seed;
  return s;
}

// The slotted generator's first `n` jobs for `workload` and `seed` with the defaults of the
// experiment generator (2 arrivals per slot, up to 10 reduce tasks).
std::vector<model::SlottedJob> PaperJobs(const std::string& workload, int n, uint64_t seed) {
  model::SlottedGenOptions base;
  base.rate = 2;
  base.slots = 1000;
  base.max_reduce_tasks = 10;
  base.seed = seed;
  auto options = model::PaperWorkload(workload, base);
  EXPECT_TRUE(options.ok());
  auto jobs = model::GenerateSlotted(*options);
  EXPECT_TRUE(jobs.ok());
  EXPECT_GE(static_cast<int>(jobs->size()), n);
  jobs->resize(n);
  return *jobs;
}

TEST(AsrptWorkloadTest, TheSlottedGeneratorsJobsUnitForUnit) {
  const int n = 40;
  auto live = MakeJobs(Asrpt("u1-9-u10-70", n, 3), TwoUnified(), nullptr);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  std::vector<model::SlottedJob> paper = PaperJobs("u1-9-u10-70", n, 3);
  ASSERT_EQ(live->size(), paper.size());
  double units = 0;
  for (const model::SlottedJob& j : paper) units += j.maps + static_cast<double>(j.reduce_units());
  // Slot length: 2 arrivals per slot at load 0.6 of 3 slot-s/s with the drawn mean work.
  const double slot = 2 * (0.5 * units / n) / (0.6 * 3);
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    const model::TaskJob& j = (*live)[i];
    EXPECT_EQ(j.maps, paper[i].maps);
    EXPECT_EQ(j.map_seconds, 0.5);
    EXPECT_EQ(j.map_bytes, 0);
    EXPECT_EQ(j.reducers, static_cast<int>(paper[i].reduces.size()));
    EXPECT_NEAR(j.reducers * j.reduce_seconds, 0.5 * paper[i].reduce_units(), 1e-9);
    EXPECT_NEAR(j.params.hint_map_seconds, 0.5 * paper[i].maps, 1e-12);
    EXPECT_NEAR(j.params.hint_reduce_seconds, 0.5 * paper[i].reduce_units(), 1e-9);
    EXPECT_NEAR(j.arrival, (paper[i].arrival - paper[0].arrival) * slot, 1e-9);
  }
}

TEST(AsrptWorkloadTest, SameSeedSameJobsOtherSeedOtherJobs) {
  auto a = MakeJobs(Asrpt("exp5-exp40", 30, 1), TwoUnified(), nullptr);
  auto b = MakeJobs(Asrpt("exp5-exp40", 30, 1), TwoUnified(), nullptr);
  auto c = MakeJobs(Asrpt("exp5-exp40", 30, 2), TwoUnified(), nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  bool same_ab = true, same_ac = true;
  for (size_t i = 0; i < a->size(); ++i) {
    same_ab &= (*a)[i].arrival == (*b)[i].arrival && (*a)[i].maps == (*b)[i].maps &&
               (*a)[i].reduce_seconds == (*b)[i].reduce_seconds;
    same_ac &= (*a)[i].arrival == (*c)[i].arrival && (*a)[i].maps == (*c)[i].maps &&
               (*a)[i].reduce_seconds == (*c)[i].reduce_seconds;
  }
  EXPECT_TRUE(same_ab);
  EXPECT_FALSE(same_ac);
}

TEST(AsrptWorkloadTest, NeedsUnifiedSlots) {
  ClusterShape plain;
  plain.groups.push_back({2, 1, 1, 1.0, 20e6});
  auto jobs = MakeJobs(Asrpt("u1-9-u10-70", 10, 1), plain, nullptr);
  ASSERT_EQ(jobs.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(jobs.status().message().find("unified_slots"), std::string::npos) << jobs.status().message();
}

TEST(AsrptWorkloadTest, AnUnknownPaperWorkloadIsAnErrorAtItsLine) {
  Result<Experiment> e = ParseExperiment(R"(name: x
cluster: {workers: [{count: 2, unified_slots: 1}]}
workload:
  generator: asrpt
  params:
    workload: u1-9-u10-71
policies: [fifo]
)",
                                         "/exp/a.yaml");
  ASSERT_FALSE(e.ok());
  const std::string m = e.status().message();
  EXPECT_NE(m.find("/exp/a.yaml:6: workload.params.workload: "), std::string::npos) << m;
  EXPECT_NE(m.find("u1-9-u10-70"), std::string::npos) << m;  // the known names are listed
}

}  // namespace
}  // namespace mr::experiment
