// Workload file format and the generators' statistics.
#include <gtest/gtest.h>

#include <cmath>

#include "common/file_util.h"
#include "model/fluid/workload.h"

namespace mr::model {
namespace {

TEST(WorkloadTest, FileRoundTripIsExact) {
  std::vector<TandemJob> jobs = GeneratePoisson(50, 1.3, 0.7, 2.1, 5);
  TempDir dir("model-test");
  std::string path = JoinPath(dir.path(), "w.csv");
  ASSERT_TRUE(SaveWorkload(path, jobs).ok());
  auto loaded = LoadWorkload(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ((*loaded)[i].arrival, jobs[i].arrival);
    EXPECT_EQ((*loaded)[i].x, jobs[i].x);
    EXPECT_EQ((*loaded)[i].y, jobs[i].y);
  }
}

TEST(WorkloadTest, ParsesCommentsBlankLinesAndSpaces) {
  auto jobs = ParseWorkloadCsv("# made by hand\narrival, x, y\r\n\n0, 1, 2\n 0.5 ,3,1e-1\n");
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[1].arrival, 0.5);
  EXPECT_EQ((*jobs)[1].y, 0.1);
}

void ExpectLineError(const std::string& text, int line, const std::string& what) {
  auto r = ParseWorkloadCsv(text);
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("line " + std::to_string(line)), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status().message();
}

TEST(WorkloadTest, BadFilesNameTheLine) {
  ExpectLineError("time,x,y\n0,1,1\n", 1, "header");
  ExpectLineError("arrival,x,y\n0,1,1\n1,2\n", 3, "3 fields");
  ExpectLineError("arrival,x,y\n0,1,1\n1,2,1,4\n", 3, "3 fields");
  ExpectLineError("arrival,x,y\n0,abc,1\n", 2, "bad number for x");
  ExpectLineError("arrival,x,y\n0,1,1x\n", 2, "bad number for y");
  ExpectLineError("arrival,x,y\n0,1,inf\n", 2, "bad number for y");
  ExpectLineError("arrival,x,y\n-1,1,1\n", 2, "arrival");
  ExpectLineError("arrival,x,y\n\n0,0,1\n", 3, "> 0");
  EXPECT_FALSE(ParseWorkloadCsv("").ok());
  EXPECT_EQ(LoadWorkload("/nonexistent/w.csv").status().code(), StatusCode::kNotFound);
}

TEST(WorkloadTest, GoogleLikeMomentsMatchThePaper) {
  auto jobs = GenerateGoogleLike({200000, 0.5, 3, false});
  ASSERT_TRUE(jobs.ok());
  WorkloadStats s = ComputeStats(*jobs);
  std::printf("google-like: %s\n", FormatStats(s).c_str());
  EXPECT_NEAR(s.mean_x, 1.0, 1e-9);  // normalised, as the paper's trace
  EXPECT_NEAR(s.mean_y, 1.0, 1e-9);
  EXPECT_NEAR(s.sd_x, 3.65, 3.65 * 0.2);
  EXPECT_NEAR(s.sd_y, 12.95, 12.95 * 0.35);  // heavy tail: the sample sd is noisy
  EXPECT_GT(s.max_x / s.min_x, 1e3);
  EXPECT_GT(s.map_heavy_fraction, 0.80);
  EXPECT_LT(s.map_heavy_fraction, 0.90);
  EXPECT_NEAR(s.load, 0.5, 0.01);
}

TEST(WorkloadTest, LogNormalSyntheticMoments) {
  std::vector<TandemJob> jobs = GenerateLogNormal(400000, 0.75, 9);
  WorkloadStats s = ComputeStats(jobs);
  std::printf("lognormal: %s\n", FormatStats(s).c_str());
  EXPECT_NEAR(s.mean_x, 1.0, 0.05);
  EXPECT_NEAR(s.mean_y, 1.0, 0.15);
  EXPECT_NEAR(s.sd_x, 3.65, 3.65 * 0.25);
  EXPECT_NEAR(s.load, 0.75, 0.05);
}

TEST(WorkloadTest, GeneratorsAreDeterministicPerSeed) {
  auto a = GenerateGoogleLike({1000, 0.3, 11, false});
  auto b = GenerateGoogleLike({1000, 0.3, 11, false});
  auto c = GenerateGoogleLike({1000, 0.3, 12, false});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(FormatWorkloadCsv(*a), FormatWorkloadCsv(*b));
  EXPECT_NE(FormatWorkloadCsv(*a), FormatWorkloadCsv(*c));
  EXPECT_EQ(GenerateGoogleLike({0, 0.3, 1, false}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(GenerateGoogleLike({10, 0, 1, false}).status().code(), StatusCode::kInvalidArgument);
}

// Paper §5.2: ratio -> cube root of ratio, x kept, shuffle mean restored.
TEST(WorkloadTest, RebalanceTakesCubeRootOfRatio) {
  auto orig = GenerateGoogleLike({5000, 0.5, 4, false});
  auto reb = GenerateGoogleLike({5000, 0.5, 4, true});
  ASSERT_TRUE(orig.ok() && reb.ok());
  double scale = (*reb)[0].y / ((*orig)[0].x * std::cbrt((*orig)[0].y / (*orig)[0].x));
  for (size_t i = 0; i < orig->size(); ++i) {
    const TandemJob &o = (*orig)[i], &r = (*reb)[i];
    ASSERT_EQ(o.x, r.x);
    ASSERT_EQ(o.arrival, r.arrival);
    ASSERT_NEAR(r.y / r.x, scale * std::cbrt(o.y / o.x), 1e-9 * r.y / r.x);
  }
  WorkloadStats s = ComputeStats(*reb);
  EXPECT_NEAR(s.mean_y, 1.0, 1e-9);
  EXPECT_LT(s.sd_ratio, ComputeStats(*orig).sd_ratio);
}

}  // namespace
}  // namespace mr::model
