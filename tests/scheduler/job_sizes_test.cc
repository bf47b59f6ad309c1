// sched::EstimateSize's reduce half (docs/policies.md, "Size estimates"): the reduce work of a
// job from the first measured reduce, else the --hint-reduce-seconds hint, else the stored
// profile, chosen independently of the map estimate's source.
#include <gtest/gtest.h>

#include <algorithm>

#include "scheduler/util/job_sizes.h"

namespace mr::sched {
namespace {

// The running tasks' elapsed time, capped at the mean as the master's callers cap it.
auto Elapsed(double seconds) {
  return [seconds](double mean) { return std::min(mean, seconds); };
}

EstimateInputs ThreeReduces() {
  EstimateInputs in;
  in.maps_total = 4;
  in.reduces_total = 3;
  return in;
}

TEST(ReduceEstimateTest, NoneWithoutHintProfileOrDoneReduce) {
  SizeEstimate e = EstimateSize(ThreeReduces(), Elapsed(0), Elapsed(0));
  EXPECT_EQ(e.reduce_source, EstimateSource::kNone);
  EXPECT_EQ(e.reduce_seconds_total, 0);
  EXPECT_EQ(e.reduce_seconds_remaining, 0);
}

TEST(ReduceEstimateTest, HintIsTheTotalAndRunningReducesCountAsPartlyDone) {
  EstimateInputs in = ThreeReduces();
  in.hint_reduce_seconds = 30;  // 10 s per reduce
  SizeEstimate e = EstimateSize(in, Elapsed(0), Elapsed(4));
  EXPECT_EQ(e.reduce_source, EstimateSource::kHint);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_total, 30);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_remaining, 26);
  // The map estimate has its own source: no map hint, no map estimate.
  EXPECT_EQ(e.source, EstimateSource::kNone);
}

TEST(ReduceEstimateTest, ProfileIsPerTaskTimesReducers) {
  EstimateInputs in = ThreeReduces();
  in.has_reduce_profile = true;
  in.profile_reduce_seconds_per_task = 7;
  in.hint_map_seconds = 8;
  SizeEstimate e = EstimateSize(in, Elapsed(0), Elapsed(0));
  EXPECT_EQ(e.reduce_source, EstimateSource::kProfile);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_total, 21);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_remaining, 21);
  EXPECT_EQ(e.source, EstimateSource::kHint);
  EXPECT_DOUBLE_EQ(e.map_seconds_total, 8);
}

TEST(ReduceEstimateTest, AHintWinsOverTheProfile) {
  EstimateInputs in = ThreeReduces();
  in.hint_reduce_seconds = 30;
  in.has_reduce_profile = true;
  in.profile_reduce_seconds_per_task = 7;
  EXPECT_EQ(EstimateSize(in, Elapsed(0), Elapsed(0)).reduce_source, EstimateSource::kHint);
}

TEST(ReduceEstimateTest, OnlineFromTheFirstMeasuredReduceOverridesTheHint) {
  EstimateInputs in = ThreeReduces();
  in.hint_reduce_seconds = 30;
  in.reduces_done = 1;
  in.reduces_measured = 1;
  in.reduce_seconds_done = 8;
  // One running reduce 20 s in counts as one mean (8 s) done, not 20.
  SizeEstimate e = EstimateSize(in, Elapsed(0), Elapsed(20));
  EXPECT_EQ(e.reduce_source, EstimateSource::kOnline);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_total, 24);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_remaining, 8);  // 8 x 2 not done - 8 elapsed
}

TEST(ReduceEstimateTest, ReducesDoneBeforeARestartAreNotMeasuredButAreDone) {
  // A resumed job: one reduce committed before the restart (no duration known), none since.
  EstimateInputs in = ThreeReduces();
  in.hint_reduce_seconds = 30;
  in.reduces_done = 1;
  SizeEstimate e = EstimateSize(in, Elapsed(0), Elapsed(0));
  EXPECT_EQ(e.reduce_source, EstimateSource::kHint);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_total, 30);
  EXPECT_DOUBLE_EQ(e.reduce_seconds_remaining, 20);
}

TEST(ReduceEstimateTest, RemainingNeverNegative) {
  EstimateInputs in = ThreeReduces();
  in.hint_reduce_seconds = 3;
  in.reduces_done = 2;
  SizeEstimate e = EstimateSize(in, Elapsed(0), [](double) { return 50.0; });
  EXPECT_EQ(e.reduce_seconds_remaining, 0);
}

}  // namespace
}  // namespace mr::sched
