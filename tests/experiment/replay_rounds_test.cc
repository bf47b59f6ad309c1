// The replay of a clock-driven policy re-plans at the rounds the live master ran
// (experiment/trace_replay.h, RecordedRun::replans; model::ClusterSpec::round_times), not on
// an exact grid of the master's 0.1 s period. Issue 25: with flex's epoch clock started at the
// first job, epoch boundaries fall among task ends (5 s and 1 s tasks, 0.5 s epochs), and
// which side of the ends the live re-plan lands on is decided by the phase of the master's
// periodic round, which drifts by milliseconds per period; the grid put every replayed
// re-plan exactly on the boundary, before the ends.
#include <gtest/gtest.h>

#include <vector>

#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "tests/experiment/trace_text.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using trace_text::Parse;

// A live flex run (response time, 0.5 s epochs, no pools) on one worker with two map slots
// and one reduce slot; no size hints, so a phase counts 1 s per task until a task of it ends
// and flex gives every unmeasured phase a slot. The epoch clock starts at 0 (A's first
// round). A (t = 0): six maps of 1.02 s; maps 0 and 1 run 0-1.02. B (t = 0.1): two maps of
// 1 s. Live, the master re-planned at 0 (A alone), 0.5 (A and B, both unmeasured: one slot
// each) and at 1.03, a round after A's first maps ended: A now measured (4 maps x 1.02 s
// left) and B unmeasured (2 s), so B first with both slots: B's maps 1.03-2.03, its 0.1-s
// reduce to 2.14 (response 2.04); A's maps 2.03-3.05 and 3.05-4.07, reduce to 4.17.
// A grid of 0.1 s from the first round re-plans at 1.0, before A's maps end: A still
// unmeasured keeps one slot, B gets the other, and B finishes a task length later (about 3.1).
constexpr char kJobA[] = R"(
{"event":"job_submit","t":100,"job":"job-000001","name":"a","kind":"synthetic","maps":6,"reduces":1,"policy":"flex"}
{"event":"attempt_start","t":100,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"map"}
{"event":"attempt_start","t":100,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"slot":"map"}
{"event":"allocation","t":100.0001,"job":"job-000001","policy":"flex","slot":"map","slots":2,"min_slots":1,"max_slots":6,"rank":0}
{"event":"allocation","t":100.5,"job":"job-000001","policy":"flex","slot":"map","slots":1,"min_slots":1,"max_slots":6,"rank":1}
{"event":"attempt_end","t":101.02,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":100,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":101.02,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"start":100,"status":"ok","bytes_out":0}
{"event":"allocation","t":101.03,"job":"job-000001","policy":"flex","slot":"map","slots":0,"min_slots":0,"max_slots":4,"rank":1}
{"event":"allocation","t":101.53,"job":"job-000001","policy":"flex","slot":"map","slots":0,"min_slots":0,"max_slots":4,"rank":1}
{"event":"attempt_end","t":103.05,"job":"job-000001","task":"m-00002","attempt":5,"worker":1,"start":102.03,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":103.05,"job":"job-000001","task":"m-00003","attempt":6,"worker":1,"start":102.03,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":104.07,"job":"job-000001","task":"m-00004","attempt":7,"worker":1,"start":103.05,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":104.07,"job":"job-000001","task":"m-00005","attempt":8,"worker":1,"start":103.05,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":104.17,"job":"job-000001","task":"r-00000","attempt":9,"worker":1,"start":104.07,"status":"ok"}
{"event":"job_end","t":104.17,"job":"job-000001","status":"ok","response_time":4.17}
)";
constexpr char kJobB[] = R"(
{"event":"job_submit","t":100.1,"job":"job-000002","name":"b","kind":"synthetic","maps":2,"reduces":1,"policy":"flex"}
{"event":"allocation","t":100.5,"job":"job-000002","policy":"flex","slot":"map","slots":1,"min_slots":1,"max_slots":2,"rank":0}
{"event":"allocation","t":101.03,"job":"job-000002","policy":"flex","slot":"map","slots":2,"min_slots":1,"max_slots":2,"rank":0}
{"event":"allocation","t":101.5301,"job":"job-000002","policy":"flex","slot":"map","slots":2,"min_slots":1,"max_slots":2,"rank":0}
{"event":"attempt_end","t":102.03,"job":"job-000002","task":"m-00000","attempt":3,"worker":1,"start":101.03,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":102.03,"job":"job-000002","task":"m-00001","attempt":4,"worker":1,"start":101.03,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":102.14,"job":"job-000002","task":"r-00000","attempt":10,"worker":1,"start":102.04,"status":"ok"}
{"event":"job_end","t":102.14,"job":"job-000002","status":"ok","response_time":2.04}
)";

model::ClusterSpec TwoMapSlots() {
  model::ClusterSpec c;
  c.workers = 1;
  c.map_slots = 2;
  c.reduce_slots = 1;
  c.shuffle_bandwidth = 1e6;
  c.slow_start = 1;
  c.refresh_rounds = 0.1;  // the master's period, as every experiment's replay has it
  return c;
}

sched::PolicyOptions FlexOptions() {
  sched::PolicyOptions o;
  o.SetValue("flex-metric", std::string("response-time"));
  o.SetValue("flex-epoch", 0.5);
  return o;
}

TEST(ReplayRoundsTest, TheRunsAllocationEventsAreItsReplans) {
  auto run = RecordedRunFromTraces({Parse(kJobA), Parse(kJobB)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  // One round's events, microseconds apart, are one time; ascending over every job.
  const std::vector<double> want = {0.0001, 0.5, 1.03, 1.53};
  ASSERT_EQ(run->replans.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(run->replans[i], want[i], 1e-6) << i;
}

// Failed before the replay took the recorded rounds: B replayed at about 3.1 s against 2.04
// measured (the grid's re-plan at 1.0 came before A's maps ended).
TEST(ReplayRoundsTest, FlexReplansWhereTheMasterDidNotOnTheGrid) {
  auto run = RecordedRunFromTraces({Parse(kJobA), Parse(kJobB)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  auto p = PredictRun(*run, "flex", FlexOptions(), TwoMapSlots());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_FALSE(p->what_if);
  EXPECT_EQ(p->cluster.round_times, run->replans);
  ASSERT_EQ(p->sim.response.size(), 2u);
  // Replayed: A's first maps end at 1.02, the round there is the epoch's (>= 1.0): B's maps
  // 1.02-2.02, reduce to 2.12 (response 2.02); A's maps 2.02-3.04-4.06, reduce to 4.16.
  EXPECT_NEAR(p->sim.response[1], 2.02, 1e-6);
  EXPECT_NEAR(p->sim.response[0], 4.16, 1e-6);
  EXPECT_LT(p->abs_error_p90, 0.01);
}

// A what-if under another policy has no recorded rounds of its own: the grid stays.
TEST(ReplayRoundsTest, AWhatIfKeepsTheGrid) {
  auto run = RecordedRunFromTraces({Parse(kJobA), Parse(kJobB)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  auto p = PredictRun(*run, "fifo", {}, TwoMapSlots());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->what_if);
  EXPECT_TRUE(p->cluster.round_times.empty());
}

}  // namespace
}  // namespace mr::experiment
