// ARIA's stage estimates checked on a run (experiment/aria_check.h): a hand-written trace
// whose profile, slots and estimate are worked by hand with the paper's equations.
#include "experiment/aria_check.h"

#include <gtest/gtest.h>

#include "trace/reader.h"

namespace mr::experiment {
namespace {

// Two maps one after the other on one slot (0-2 and 2-5 s), then one reduce (5-6 s).
constexpr char kJob[] = R"(
{"event":"job_submit","t":0,"job":"job-000001","name":"a","kind":"synthetic","maps":2,"reduces":1,"policy":"fifo"}
{"event":"attempt_end","t":2,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":0,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":5,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"start":2,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":6,"job":"job-000001","task":"r-00000","attempt":3,"worker":1,"start":5,"status":"ok"}
{"event":"job_end","t":6,"job":"job-000001","status":"ok","response_time":6}
)";

std::vector<trace::Event> Parse(const std::string& text) {
  auto events = trace::ParseTraceLines(text);
  EXPECT_TRUE(events.ok()) << events.status().ToString();
  return events.ok() ? *events : std::vector<trace::Event>{};
}

TEST(AriaCheckTest, HandComputedEstimateBesideTheMeasuredStages) {
  Result<StageCheck> c = CheckJobStages(Parse(kJob));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->job, "job-000001");
  EXPECT_EQ(c->map_slots, 1);
  EXPECT_EQ(c->reduce_slots, 1);
  // Map stage, N_M = 2, M_avg = 2.5, M_max = 3 on one slot: low 2·2.5/1 = 5, up
  // 1·2.5/1 + 3 = 5.5, estimate 5.25; measured 5 − 0 = 5.
  EXPECT_DOUBLE_EQ(c->map_estimate, 5.25);
  EXPECT_DOUBLE_EQ(c->map_measured, 5);
  // Reduce stage, N_R = 1, R_avg = R_max = 1, no shuffle: low 1·1/1 = 1, up 0 + 1 = 1;
  // measured 6 − 5 = 1.
  EXPECT_DOUBLE_EQ(c->reduce_estimate, 1);
  EXPECT_DOUBLE_EQ(c->reduce_measured, 1);
  const std::string md = AriaMarkdown({*c});
  // Map error |5.25/5 − 1| = 5%, within 10%; reduce 0%.
  EXPECT_NE(md.find("| 1 | 5.0% | 5.0% | 1/1 | 0.0% | 0.0% | 1/1 |"), std::string::npos) << md;
  EXPECT_EQ(AriaMarkdown({}), "");
}

TEST(AriaCheckTest, PeakAttemptsCountsOverlapsOfOneKind) {
  // A failed attempt 0-3 beside the two maps: two at once from 0 to 3.
  std::string text = kJob;
  text += R"({"event":"attempt_end","t":3,"job":"job-000001","task":"m-00001","attempt":4,"worker":2,"start":0,"status":"failed"})";
  const std::vector<trace::Event> events = Parse(text);
  EXPECT_EQ(PeakAttempts(events, 'm'), 2);
  EXPECT_EQ(PeakAttempts(events, 'r'), 1);
  // One ending when the next starts (2 s) is not an overlap.
  EXPECT_EQ(PeakAttempts(Parse(kJob), 'm'), 1);
}

}  // namespace
}  // namespace mr::experiment
