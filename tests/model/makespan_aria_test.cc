// ARIA's stage bounds (aria_profile.h) on a profile computed by hand, its JSON form and the
// estimate's table.
#include <gtest/gtest.h>

#include <sstream>

#include "model/makespan/aria_profile.h"

namespace mr::model {
namespace {

// The paper's WikiTrends shape (71 maps, 64 reduces on 16 + 16 slots) with round numbers.
JobProfile HandProfile() {
  JobProfile p;
  p.name = "wikitrends";
  p.maps = 71;
  p.reduces = 64;
  p.map = {20, 30};
  p.first_shuffle = {5, 8};
  p.typical_shuffle = {10, 14};
  p.reduce = {6, 9};
  return p;
}

TEST(AriaTest, BoundsOnAHandComputedProfile) {
  Result<JobEstimate> e = EstimateJob(HandProfile(), 16, 16);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  // Map: low 71·20/16 = 88.75; up 70·20/16 + 30 = 87.5 + 30 = 117.5; estimate 103.125.
  EXPECT_DOUBLE_EQ(e->map.low, 88.75);
  EXPECT_DOUBLE_EQ(e->map.up, 117.5);
  EXPECT_DOUBLE_EQ(e->map_estimate(), 103.125);
  // Typical shuffle: low (64/16 − 1)·10 = 30; up (63/16 − 1)·10 + 14 = 29.375 + 14 = 43.375.
  EXPECT_DOUBLE_EQ(e->typical_shuffle.low, 30);
  EXPECT_DOUBLE_EQ(e->typical_shuffle.up, 43.375);
  // Reduce phase: low 64·6/16 = 24; up 63·6/16 + 9 = 23.625 + 9 = 32.625.
  EXPECT_DOUBLE_EQ(e->reduce_phase.low, 24);
  EXPECT_DOUBLE_EQ(e->reduce_phase.up, 32.625);
  // Reduce stage: low Sh1_avg 5 + 30 + 24 = 59; up Sh1_max 8 + 43.375 + 32.625 = 84; 71.5.
  EXPECT_DOUBLE_EQ(e->reduce.low, 59);
  EXPECT_DOUBLE_EQ(e->reduce.up, 84);
  EXPECT_DOUBLE_EQ(e->reduce_estimate(), 71.5);
  // Job: low 147.75, up 201.5, estimate 174.625.
  EXPECT_DOUBLE_EQ(e->job.low, 147.75);
  EXPECT_DOUBLE_EQ(e->job.up, 201.5);
  EXPECT_DOUBLE_EQ(e->estimate(), 174.625);
}

TEST(AriaTest, OneWaveAndMapOnly) {
  // 64 slots (Figure 2): map low 71·20/64 = 22.1875, up 70·20/64 + 30 = 51.875. Reduce: one
  // wave, the typical-shuffle term as the paper writes it, (64/64 − 1)·10 = 0 and
  // (63/64 − 1)·10 + 14 = 13.84375.
  Result<JobEstimate> e = EstimateJob(HandProfile(), 64, 64);
  ASSERT_TRUE(e.ok());
  EXPECT_DOUBLE_EQ(e->map.low, 22.1875);
  EXPECT_DOUBLE_EQ(e->map.up, 51.875);
  EXPECT_DOUBLE_EQ(e->typical_shuffle.low, 0);
  EXPECT_DOUBLE_EQ(e->typical_shuffle.up, 13.84375);
  JobProfile map_only;
  map_only.maps = 3;
  map_only.map = {2, 4};
  Result<JobEstimate> m = EstimateJob(map_only, 2, 1);
  ASSERT_TRUE(m.ok());
  // 3·2/2 = 3 and 2·2/2 + 4 = 6; no reduce stage at all.
  EXPECT_DOUBLE_EQ(m->map.low, 3);
  EXPECT_DOUBLE_EQ(m->map.up, 6);
  EXPECT_DOUBLE_EQ(m->reduce.low, 0);
  EXPECT_DOUBLE_EQ(m->reduce.up, 0);
  EXPECT_DOUBLE_EQ(m->estimate(), 4.5);
}

TEST(AriaTest, RefusesBadInput) {
  EXPECT_FALSE(EstimateJob(HandProfile(), 0, 16).ok());
  EXPECT_FALSE(EstimateJob(HandProfile(), 16, 0).ok());
  JobProfile p = HandProfile();
  p.map = {31, 30};  // avg above max
  EXPECT_NE(ValidateProfile(p).message().find("map avg"), std::string::npos);
  p = HandProfile();
  p.reduces = 0;  // reduce time without reduces
  EXPECT_FALSE(ValidateProfile(p).ok());
  p = HandProfile();
  p.maps = 0;
  EXPECT_FALSE(ValidateProfile(p).ok());
}

TEST(AriaTest, ProfileFromDurations) {
  const std::vector<double> maps = {2, 4, 6}, reduces = {1, 3};
  JobProfile p = ProfileFromDurations("x", maps, reduces, 0.5);
  EXPECT_EQ(p.maps, 3);
  EXPECT_EQ(p.reduces, 2);
  EXPECT_DOUBLE_EQ(p.map.avg, 4);
  EXPECT_DOUBLE_EQ(p.map.max, 6);
  EXPECT_DOUBLE_EQ(p.reduce.avg, 2);
  EXPECT_DOUBLE_EQ(p.reduce.max, 3);
  EXPECT_DOUBLE_EQ(p.first_shuffle.avg, 0.5);
  EXPECT_DOUBLE_EQ(p.typical_shuffle.max, 0);
}

TEST(AriaTest, JsonRoundTripAndErrors) {
  JobProfile p = HandProfile();
  p.input_bytes = 1 << 20;
  p.shuffle_bytes = 5000;
  p.output_bytes = 7;
  p.measured_map_stage = 100;
  p.measured_reduce_stage = 70;
  Result<JobProfile> back = ProfileFromJson(ProfileToJson(p));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->name, "wikitrends");
  EXPECT_EQ(back->maps, 71);
  EXPECT_EQ(back->reduces, 64);
  EXPECT_DOUBLE_EQ(back->typical_shuffle.max, 14);
  EXPECT_EQ(back->input_bytes, 1u << 20);
  EXPECT_DOUBLE_EQ(back->measured_reduce_stage, 70);
  EXPECT_EQ(ProfileFromJson("{").status().message(), "profile: not valid JSON");
  EXPECT_EQ(ProfileFromJson(R"({"maps": 2, "reduces": 0, "reduce": {"avg": 0, "max": 0}})").status().message(),
            "profile: 'map' must be an object {\"avg\": S, \"max\": S}");
  EXPECT_EQ(ProfileFromJson(R"({"maps": 0, "reduces": 0})").status().message(),
            "profile: 'maps' must be an integer in 1..10000000");
  EXPECT_EQ(ProfileFromJson(R"({"maps": 1, "reduces": 0, "map": {"avg": 2, "max": 1},
                               "reduce": {"avg": 0, "max": 0}})")
                .status()
                .message(),
            "profile: map avg must not exceed its max");
}

TEST(AriaTest, EstimateTable) {
  EstimateOptions o;
  o.profile = HandProfile();
  o.profile.measured_map_stage = 100;
  o.map_slots = 16;
  o.reduce_slots = 16;
  std::ostringstream out;
  ASSERT_TRUE(RunEstimate(o, out).ok());
  const std::string text = out.str();
  EXPECT_NE(text.find("# wikitrends: 71 maps, 64 reduces on 16 map and 16 reduce slots"), std::string::npos) << text;
  EXPECT_NE(text.find("map                    88.750      117.500      103.125      100.000"), std::string::npos)
      << text;
  EXPECT_NE(text.find("job                   147.750      201.500      174.625"), std::string::npos) << text;
  o.map_slots = 0;
  std::ostringstream bad;
  EXPECT_FALSE(RunEstimate(o, bad).ok());
  std::ostringstream shown;
  PrintProfile(o.profile, shown);
  EXPECT_NE(shown.str().find("typical shuffle  avg 10.000 s, max 14.000 s"), std::string::npos) << shown.str();
}

}  // namespace
}  // namespace mr::model
