#include "experiment/band.h"

#include <gtest/gtest.h>

#include <cmath>

#include "experiment/fidelity_bounds.h"

namespace mr::experiment {
namespace {

TEST(BandTest, PerJobSmallestLargestAndMean) {
  // Three simulations of two jobs: job 0 at 10, 12, 11; job 1 at 5 every time.
  const std::vector<Band> b = BandsOf({{10, 5}, {12, 5}, {11, 5}});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b[0].lo, 10);
  EXPECT_DOUBLE_EQ(b[0].hi, 12);
  EXPECT_DOUBLE_EQ(b[0].mean, 11);
  EXPECT_DOUBLE_EQ(b[1].lo, 5);
  EXPECT_DOUBLE_EQ(b[1].hi, 5);
  EXPECT_TRUE(BandsOf({}).empty());
}

TEST(BandTest, InsideIsTheBandWidenedByFivePercent) {
  const Band b{10, 12, 11};
  EXPECT_TRUE(InsideBand(11, b));
  EXPECT_TRUE(InsideBand(9.5, b));    // 10 x 0.95
  EXPECT_TRUE(InsideBand(12.6, b));   // 12 x 1.05
  EXPECT_FALSE(InsideBand(9.49, b));
  EXPECT_FALSE(InsideBand(12.61, b));
}

TEST(BandTest, JitterWritesOutFixedTasksAndMovesEachWithinTheJitter) {
  model::TaskJob fixed;
  fixed.maps = 3;
  fixed.map_seconds = 0.6;
  fixed.reducers = 2;
  fixed.reduce_seconds = 1;
  model::TaskJob drawn = fixed;
  drawn.map_time.kind = model::MapTimeDist::Kind::kLogNormal;
  drawn.map_time.cv = 0.5;
  JobList jobs = {fixed, drawn};
  JitterTaskDurations(0.001, 3, /*cluster_map_time_cv=*/0, &jobs);
  ASSERT_EQ(jobs[0].map_durations.size(), 3u);
  ASSERT_EQ(jobs[0].reduce_durations.size(), 2u);
  for (double d : jobs[0].map_durations) EXPECT_LE(std::abs(d - 0.6), 0.001);
  for (double d : jobs[0].reduce_durations) EXPECT_LE(std::abs(d - 1), 0.001);
  // Equal before, apart after: the point of the jitter.
  EXPECT_NE(jobs[0].map_durations[0], jobs[0].map_durations[1]);
  EXPECT_TRUE(jobs[1].map_durations.empty()) << "a drawn map time keeps its law";
  EXPECT_EQ(jobs[1].reduce_durations.size(), 2u);
  // The cluster's default law with a spread is drawn too; seed 0 jitter changes nothing.
  JobList cluster_drawn = {fixed};
  JitterTaskDurations(0.001, 3, /*cluster_map_time_cv=*/0.2, &cluster_drawn);
  EXPECT_TRUE(cluster_drawn[0].map_durations.empty());
  JobList untouched = {fixed};
  JitterTaskDurations(0, 3, 0, &untouched);
  EXPECT_TRUE(untouched[0].map_durations.empty());
  // The same seed, the same draws.
  JobList again = {fixed, drawn};
  JitterTaskDurations(0.001, 3, 0, &again);
  EXPECT_EQ(again[0].map_durations, jobs[0].map_durations);
}

JobResult Row(double measured, double predicted, std::optional<double> replayed = std::nullopt) {
  JobResult r;
  r.policy = "p";
  r.measured = measured;
  r.predicted = predicted;
  r.replayed = replayed;
  return r;
}

const FidelityBound& BoundNamed(const std::string& name) {
  for (const FidelityBound& b : FidelityBounds()) {
    if (name == b.name) return b;
  }
  ADD_FAILURE() << "no bound " << name;
  return FidelityBounds()[0];
}

TEST(FidelityBoundsTest, ThePapersPerJobLimits) {
  // ARIA: median <= 10%, p90 <= 25%; SimMR: 5% / 15% (the and the papers' figures).
  EXPECT_DOUBLE_EQ(BoundNamed("aria").median, 0.10);
  EXPECT_DOUBLE_EQ(BoundNamed("aria").p90, 0.25);
  EXPECT_DOUBLE_EQ(BoundNamed("simmr").median, 0.05);
  EXPECT_DOUBLE_EQ(BoundNamed("simmr").p90, 0.15);
  // Errors 0, 10%, 20%, 40% (predicted against measured 10): median 15%, p90 0.2 + 0.7 x
  // 0.2 = 34%; the replays' 0, 0, 4%, 10%: median 2%, p90 0.04 + 0.7 x 0.06 = 8.2%.
  std::vector<JobResult> rows = {Row(10, 10, 10), Row(10, 11, 10), Row(10, 12, 10.4), Row(10, 14, 11)};
  std::vector<const JobResult*> ptrs;
  for (const JobResult& r : rows) ptrs.push_back(&r);
  Verdict aria = Judge(BoundNamed("aria"), ptrs);
  EXPECT_NEAR(aria.median, 0.15, 1e-12);
  EXPECT_NEAR(aria.p90, 0.34, 1e-12);
  EXPECT_FALSE(aria.met);
  EXPECT_EQ(aria.figures, "15.0% / 34.0% **miss**");
  Verdict simmr = Judge(BoundNamed("simmr"), ptrs);
  EXPECT_NEAR(simmr.median, 0.02, 1e-12);
  EXPECT_NEAR(simmr.p90, 0.082, 1e-12);
  EXPECT_TRUE(simmr.met);
  EXPECT_EQ(Judge(BoundNamed("replay-band"), ptrs).figures, "-") << "no band: not judged";
}

TEST(FidelityBoundsTest, TheBandCountsJobsInsideAndTheMean) {
  // 10 jobs measured 10 s. Nine bands [9, 11] (inside), one [11, 12] (10 < 11 x 0.95 = 10.45:
  // outside): 9/10 = 90% inside, at the limit. Band means 10 x 9 and 11.5: mean error 1.5%.
  std::vector<JobResult> rows(10, Row(10, 10));
  for (JobResult& r : rows) r.replay_band = Band{9, 11, 10};
  rows[9].replay_band = Band{11, 12, 11.5};
  std::vector<const JobResult*> ptrs;
  for (const JobResult& r : rows) ptrs.push_back(&r);
  Verdict v = Judge(BoundNamed("replay-band"), ptrs);
  EXPECT_EQ(v.jobs, 10);
  EXPECT_EQ(v.inside, 9);
  EXPECT_NEAR(v.mean_error, 0.015, 1e-12);
  EXPECT_TRUE(v.met);
  EXPECT_EQ(v.figures, "9/10 inside, mean 1.5% meets");
  rows[8].replay_band = Band{11, 12, 11.5};  // 8/10 inside: a miss
  EXPECT_FALSE(Judge(BoundNamed("replay-band"), ptrs).met);
  rows[8].replay_band = Band{9, 11, 10};
  for (JobResult& r : rows) r.replay_band->mean = 10.6;  // all inside, mean 6% off: a miss
  rows[9].replay_band = Band{9, 11, 10.6};
  v = Judge(BoundNamed("replay-band"), ptrs);
  EXPECT_EQ(v.inside, 10);
  EXPECT_FALSE(v.met);
}

TEST(FidelityBoundsTest, TheReportSectionShowsEveryBoundPerPolicy) {
  std::vector<JobResult> rows = {Row(10, 10, 10)};
  rows[0].predicted_band = Band{9, 11, 10};
  const std::string md = FidelityMarkdown(rows, 8, 0.001);
  EXPECT_NE(md.find("## Fidelity bounds"), std::string::npos);
  EXPECT_NE(md.find("K = 8 times"), std::string::npos) << md;
  EXPECT_NE(md.find("at most 1 ms"), std::string::npos) << md;
  EXPECT_NE(md.find("| policy | prediction per job (ARIA) | prediction band | replay per job (SimMR) | replay band |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| p | 0.0% / 0.0% meets | 1/1 inside, mean 0.0% meets | 0.0% / 0.0% meets | - |"),
            std::string::npos)
      << md;
  EXPECT_EQ(FidelityMarkdown({}, 8, 0.001), "");
  EXPECT_EQ(md.find("coefficient of variation"), std::string::npos) << "the default band draws no map times";
  EXPECT_NE(FidelityMarkdown(rows, 8, 0.001, 0.069).find("coefficient of variation of 0.069"), std::string::npos);
}

}  // namespace
}  // namespace mr::experiment
