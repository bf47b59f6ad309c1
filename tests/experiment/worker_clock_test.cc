// A trace mixes the master's clock with each worker's, converted to the master's by an offset
// the worker measures once at its handshake (worker/master_link.h, MasterClock: the local
// clock plus the offset of the last handshake). The replay measures each worker's error from
// its attempts and reads gaps from a master event to a worker event on the master's clock
// (docs/model.md, "Worker clocks").
#include <gtest/gtest.h>

#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "tests/experiment/trace_text.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using trace_text::OneUnifiedSlot;
using trace_text::Parse;

// Live (fifo, one unified slot, slow_start 1): one job of three 1-s maps and one 0.5-s reduce,
// submitted at 500, on a worker whose handshake got its offset 50 ms wrong: every time it
// measured (attempt_end's t and start, fetch_end's t) is 0.05 s ahead of the master's clock.
// On the master's clock each map was delivered 0.5 ms after its assignment and reported
// 0.5 ms after its end; the master assigned the next map 0.5 ms after each report
// (master/job_tracker.cc: the report's heartbeat applies it, then runs a round). The last
// map's report (503.005) reached slow start: the master placed the reducer
// (master/reduce_placement.cc, PlaceReduces, reduce_place at 503.005), the worker fetched the
// three (empty) outputs and reported READY, and the round of that report assigned the reduce
// at 503.0255: 20.5 ms after the placement, of which 20 ms to the last fetch's end (503.025
// on the master's clock, 503.075 as the worker wrote it). Response 3.5265.
constexpr char kSkewed[] = R"(
{"event":"job_submit","t":500,"job":"job-000001","name":"skewed","kind":"synthetic","maps":3,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":500.001,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":501.0515,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":500.0515,"reported":501.002,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":501.0025,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":502.053,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"start":501.053,"reported":502.0035,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":502.004,"job":"job-000001","task":"m-00002","attempt":3,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.0545,"job":"job-000001","task":"m-00002","attempt":3,"worker":1,"start":502.0545,"reported":503.005,"status":"ok","bytes_out":0}
{"event":"maps_done","t":503.005,"job":"job-000001","sojourn":3.005}
{"event":"reduce_place","t":503.005,"job":"job-000001","task":"r-00000","worker":1,"maps_done":3}
{"event":"fetch_end","t":503.073,"job":"job-000001","task":"r-00000","map":0,"src_worker":1,"worker":1,"start":503.07,"bytes":0,"status":"ok"}
{"event":"fetch_end","t":503.074,"job":"job-000001","task":"r-00000","map":1,"src_worker":1,"worker":1,"start":503.071,"bytes":0,"status":"ok"}
{"event":"fetch_end","t":503.075,"job":"job-000001","task":"r-00000","map":2,"src_worker":1,"worker":1,"start":503.072,"bytes":0,"status":"ok"}
{"event":"attempt_start","t":503.0255,"job":"job-000001","task":"r-00000","attempt":4,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.576,"job":"job-000001","task":"r-00000","attempt":4,"worker":1,"start":503.076,"reported":503.5265,"status":"ok"}
{"event":"job_end","t":503.5265,"job":"job-000001","status":"ok","response_time":3.5265}
)";

TEST(WorkerClockTest, AWorkersOffsetIsTheMiddleOfWhatItsAttemptsAllow) {
  auto run = RecordedRunFromTraces({Parse(kSkewed)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  // Each start is 50.5 ms after its assignment as written (offset <= 0.0505), each end
  // 49.5 ms after its report's receipt (offset >= 0.0495): 0.05.
  ASSERT_EQ(run->worker_clock_offsets.size(), 1u);
  EXPECT_NEAR(run->worker_clock_offsets.at(1), 0.05, 1e-9);
  // Placement (503.005, the master's) to the last fetch's end (503.075 - 0.05): 20 ms, not
  // the 70 ms the two clocks read as they are.
  EXPECT_NEAR(run->reduce_ready_delay, 0.02, 1e-9);
  // The report-to-assignment gaps 0.5, 0.5 and 20.5 ms: the median reaction is 0.5 ms.
  EXPECT_NEAR(run->slot_turnover, 0.0005, 1e-9);
}

TEST(WorkerClockTest, TheReplayStartsTheReduceWhenTheMasterHeardItWasReady) {
  auto run = RecordedRunFromTraces({Parse(kSkewed)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  auto p = PredictRun(*run, "fifo", {}, OneUnifiedSlot());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Each map holds its slot 1.001 s (assignment to report), the next starts 0.5 ms after:
  // maps end at 1.002, 2.0035, 3.005. The reducer, placed at 3.005, is ready 20 ms later;
  // the round 0.5 ms after that starts it (3.0255), and it holds its slot 0.501 s: 3.5265,
  // the measured response. With the worker's clock read as the master's it started 50 ms late.
  EXPECT_NEAR(p->sim.response.at(0), 3.5265, 1e-9);
}

// Without `reported` (older masters) there are no bounds on the clocks: no offset, and the
// delay is read as recorded.
TEST(WorkerClockTest, WithoutReportedTheDelayIsAsRecorded) {
  std::string text = kSkewed;
  for (size_t at; (at = text.find(",\"reported\":")) != std::string::npos;) text.erase(at, text.find(',', at + 1) - at);
  auto run = RecordedRunFromTraces({Parse(text.c_str())});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(run->worker_clock_offsets.empty());
  EXPECT_NEAR(run->reduce_ready_delay, 0.07, 1e-9);
}

}  // namespace
}  // namespace mr::experiment
