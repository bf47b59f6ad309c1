// A replay holds each slot as the master saw it busy: from the attempt's assignment
// (attempt_start) until the worker's report of its end reached the master (attempt_end's
// `reported`), not only for the worker-measured duration (docs/model.md, "A slot's hold").
#include <gtest/gtest.h>

#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "tests/experiment/trace_text.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using trace_text::Parse;
using trace_text::OneUnifiedSlot;

// Live (fifo, one unified slot, two jobs of one 1-s map and one 0.5-s reduce submitted at
// 500): job 1's map was assigned at 500.001 but its worker started it only at 500.2 (a
// loaded host delivering late), ran it 1 s and its report reached the master at 501.5, so
// the master held the slot 1.499 s for 1 s of work. Every other attempt was delivered and
// reported within a millisecond (held 0.501 and 1.001 s), and the master reacted 0.5 ms
// after each report. Responses 2.0015 and 3.5045.
constexpr char kLateFirst[] = R"(
{"event":"job_submit","t":500,"job":"job-000001","name":"first","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":500.001,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":501.2,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":500.2,"reported":501.5,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":501.5005,"job":"job-000001","task":"r-00000","attempt":2,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":502.001,"job":"job-000001","task":"r-00000","attempt":2,"worker":1,"start":501.501,"reported":502.0015,"status":"ok"}
{"event":"job_end","t":502.0015,"job":"job-000001","status":"ok","response_time":2.0015}
)";
constexpr char kPromptSecond[] = R"(
{"event":"job_submit","t":500,"job":"job-000002","name":"second","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":502.002,"job":"job-000002","task":"m-00000","attempt":3,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.0025,"job":"job-000002","task":"m-00000","attempt":3,"worker":1,"start":502.0025,"reported":503.003,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":503.0035,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.504,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"start":503.004,"reported":503.5045,"status":"ok"}
{"event":"job_end","t":503.5045,"job":"job-000002","status":"ok","response_time":3.5045}
)";


TEST(SlotHoldTest, EachTasksOverheadIsItsHoldBeyondItsDuration) {
  auto run = RecordedRunFromTraces({Parse(kLateFirst), Parse(kPromptSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->jobs.size(), 2u);
  // The durations stay the worker's (what the estimates see); the hold's rest is overhead.
  EXPECT_NEAR(run->jobs[0].map_durations.at(0), 1.0, 1e-9);
  ASSERT_EQ(run->jobs[0].map_overheads.size(), 1u);
  EXPECT_NEAR(run->jobs[0].map_overheads[0], 0.499, 1e-9);
  ASSERT_EQ(run->jobs[0].reduce_overheads.size(), 1u);
  EXPECT_NEAR(run->jobs[0].reduce_overheads[0], 0.001, 1e-9);
  EXPECT_NEAR(run->jobs[1].map_overheads.at(0), 0.001, 1e-9);
  // The turnover is then the master's own reaction: report to the next assignment.
  EXPECT_NEAR(run->slot_turnover, 0.0005, 1e-9);
}

TEST(SlotHoldTest, AReplayHoldsTheSlotUntilTheMasterHeardOfTheEnd) {
  auto run = RecordedRunFromTraces({Parse(kLateFirst), Parse(kPromptSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  auto p = PredictRun(*run, "fifo", {}, OneUnifiedSlot());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->sim.response.size(), 2u);
  // 0.001 + 1.499 (map) + 0.0005 + 0.501 (reduce); job 2: + 0.0005 + 1.001 + 0.0005 + 0.501.
  EXPECT_NEAR(p->sim.response[0], 2.0015, 1e-9);
  EXPECT_NEAR(p->sim.response[1], 3.5045, 1e-9);
}

// A trace without `reported` (older masters) replays as before: the worker-measured
// durations and the turnover from one end to the next worker start.
TEST(SlotHoldTest, WithoutReportedTheReplayUsesTheDurations) {
  std::string first = kLateFirst, second = kPromptSecond;
  for (std::string* s : {&first, &second}) {
    for (size_t at; (at = s->find(",\"reported\":")) != std::string::npos;) {
      s->erase(at, s->find(',', at + 1) - at);
    }
  }
  auto run = RecordedRunFromTraces({Parse(first.c_str()), Parse(second.c_str())});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(run->jobs[0].map_overheads.empty());
  EXPECT_TRUE(run->jobs[1].reduce_overheads.empty());
  EXPECT_NEAR(run->slot_turnover, 0.0015, 1e-9);  // 502.0025 - 502.001, 503.004 - 503.0025
  auto p = PredictRun(*run, "fifo", {}, OneUnifiedSlot());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // The first round waits for the arrival plus that turnover (0.0015 > the first assignment).
  EXPECT_NEAR(p->sim.response[0], 0.0015 + 1.0 + 0.0015 + 0.5, 1e-9);
}

}  // namespace
}  // namespace mr::experiment
