// The paper's workloads (makespan_workloads.h): sizes, ranges, determinism, the Facebook table.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "common/stats.h"
#include "model/makespan/makespan_workloads.h"

namespace mr::model {
namespace {

std::vector<BatchJob> Make(const std::string& name, int jobs = 0, uint64_t seed = 1) {
  Result<std::vector<BatchJob>> w = GenerateMakespanWorkload({name, jobs, seed});
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? *w : std::vector<BatchJob>{};
}

TEST(MakespanWorkloadsTest, SizesAndRanges) {
  for (const MakespanWorkloadInfo& info : MakespanWorkloads()) {
    SCOPED_TRACE(info.name);
    const std::vector<BatchJob> jobs = Make(info.name);
    ASSERT_EQ(jobs.size(), 100u);
    for (const BatchJob& j : jobs) {
      EXPECT_FALSE(j.map_durations.empty());
      for (double d : j.map_durations) EXPECT_GT(d, 0);
      for (double d : j.reduce_durations) EXPECT_GT(d, 0);
      EXPECT_TRUE(ValidateBatchJob(j).ok());
    }
    if (std::string(info.name).rfind("synthetic", 0) == 0) {
      for (const BatchJob& j : jobs) {
        EXPECT_LE(j.map_durations.size(), 100u);  // U{1..100}
        EXPECT_GE(j.reduce_durations.size(), 1u);
        EXPECT_LE(j.reduce_durations.size(), 50u);  // U{1..50}
      }
    }
  }
}

TEST(MakespanWorkloadsTest, DeterministicForASeed) {
  const std::vector<BatchJob> a = Make("synthetic1-bimodal", 20, 7), b = Make("synthetic1-bimodal", 20, 7);
  const std::vector<BatchJob> c = Make("synthetic1-bimodal", 20, 8);
  ASSERT_EQ(a.size(), 20u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].map_durations, b[i].map_durations);
  EXPECT_NE(a[0].map_durations, c[0].map_durations);
}

TEST(MakespanWorkloadsTest, TruncatedNormalMeans) {
  // Synthetic2's maps N(20, 100) truncated to > 0 have mean 20 + 100 φ(0.2)/(1 − Φ(−0.2)) =
  // 20 + 100 · 0.3910 / 0.5793 = 87.5, times the scale factor: 90% of the jobs U[1,3] (mean
  // 2), 10% U[8,10] (mean 9), 2.7 on average: about 236 s per map over many jobs.
  const std::vector<BatchJob> jobs = Make("synthetic2", 2000, 3);
  double sum = 0, count = 0;
  for (const BatchJob& j : jobs) {
    sum += std::accumulate(j.map_durations.begin(), j.map_durations.end(), 0.0);
    count += static_cast<double>(j.map_durations.size());
  }
  EXPECT_NEAR(sum / count, 87.5 * 2.7, 87.5 * 2.7 * 0.05);
  // Yahoo's map counts N(154, 558) truncated to >= 1 (drawn >= 0.5, rounded): mean about
  // 154 + 558 φ(a)/(1 − Φ(a)), a = (0.5 − 154)/558 = −0.275: 154 + 558 · 0.3842/0.6083 = 506.
  const std::vector<BatchJob> yahoo = Make("yahoo-unimodal", 2000, 3);
  double maps = 0;
  for (const BatchJob& j : yahoo) maps += static_cast<double>(j.map_durations.size());
  EXPECT_NEAR(maps / 2000, 506, 506 * 0.05);
}

TEST(MakespanWorkloadsTest, TheFacebookTable) {
  const std::vector<BatchJob> jobs = Make("facebook");
  size_t maps = 0, reduces = 0, map_only = 0, small = 0;
  for (const BatchJob& j : jobs) {
    maps += j.map_durations.size();
    reduces += j.reduce_durations.size();
    map_only += j.reduce_durations.empty() ? 1 : 0;
    small += j.map_durations.size() <= 10 ? 1 : 0;
  }
  // 38·1 + 16·2 + 14·10 + 8·50 + 6·100 + 6·200 + 4·400 + 4·800 + 2·2400 + 2·4800 maps;
  // 14·3 + 6·50 + 4·180 + 2·360 reduces; 74 jobs without reduces; 68 of at most 10 maps.
  EXPECT_EQ(maps, 21610u);
  EXPECT_EQ(reduces, 1782u);
  EXPECT_EQ(map_only, 74u);
  EXPECT_EQ(small, 68u);
}

TEST(MakespanWorkloadsTest, BadOptions) {
  EXPECT_EQ(GenerateMakespanWorkload({"nope", 0, 1}).status().message(),
            "makespan workload: unknown 'nope' (known: synthetic1-unimodal, synthetic1-bimodal, synthetic2, "
            "yahoo-unimodal, yahoo-bimodal, facebook)");
  EXPECT_FALSE(GenerateMakespanWorkload({"facebook", 50, 1}).ok());
  EXPECT_TRUE(GenerateMakespanWorkload({"facebook", 100, 1}).ok());
  EXPECT_FALSE(GenerateMakespanWorkload({"synthetic2", -1, 1}).ok());
}

}  // namespace
}  // namespace mr::model
