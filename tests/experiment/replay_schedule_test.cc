// `mr model predict --schedule-out`: the replay's schedule as trace lines (attempt_start /
// attempt_end on the run's clock, with the run's job ids), so that it can be set beside the
// run's own attempt lines (experiment/replay_schedule.h).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "common/file_util.h"
#include "experiment/predict_command.h"
#include "experiment/replay_prediction.h"
#include "experiment/replay_schedule.h"
#include "experiment/trace_replay.h"
#include "tests/experiment/trace_text.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using trace_text::OneUnifiedSlot;
using trace_text::Parse;

// fifo, one unified slot, two jobs of one map and one reduce submitted at 500. Every slot
// was held from its assignment to the master's receipt of the end's report (`reported`), and
// the master assigned the next task 0.5 ms after each report: a replay that holds each slot
// that long and reacts that late starts every attempt when the run did.
constexpr char kFirst[] = R"(
{"event":"job_submit","t":500,"job":"job-000001","name":"first","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":500.001,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":501.2,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":500.2,"reported":501.5,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":501.5005,"job":"job-000001","task":"r-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":502.001,"job":"job-000001","task":"r-00000","attempt":1,"worker":1,"start":501.501,"reported":502.0015,"status":"ok"}
{"event":"job_end","t":502.0015,"job":"job-000001","status":"ok","response_time":2.0015}
)";
constexpr char kSecond[] = R"(
{"event":"job_submit","t":500,"job":"job-000002","name":"second","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":502.002,"job":"job-000002","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.0025,"job":"job-000002","task":"m-00000","attempt":1,"worker":1,"start":502.0025,"reported":503.003,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":503.0035,"job":"job-000002","task":"r-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":503.504,"job":"job-000002","task":"r-00000","attempt":1,"worker":1,"start":503.004,"reported":503.5045,"status":"ok"}
{"event":"job_end","t":503.5045,"job":"job-000002","status":"ok","response_time":3.5045}
)";

// The attempt_start events of a list of events, in order.
std::vector<trace::AttemptStart> Starts(const std::vector<trace::Event>& events) {
  std::vector<trace::AttemptStart> out;
  for (const trace::Event& e : events) {
    if (const auto* s = std::get_if<trace::AttemptStart>(&e)) out.push_back(*s);
  }
  return out;
}

TEST(ReplayScheduleTest, TheScheduleIsTheSimulatorsLaunchesAsTraceLines) {
  auto run = RecordedRunFromTraces({Parse(kFirst), Parse(kSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  model::ClusterSpec cluster = OneUnifiedSlot();
  cluster.record_schedule = true;
  auto p = PredictRun(*run, "fifo", {}, cluster);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Four attempts, each started and ended: 8 lines, in time order.
  ASSERT_EQ(p->sim.schedule.size(), 8u);
  std::ostringstream text;
  WriteSchedule(*run, *p, text);
  const std::vector<trace::Event> replayed = Parse(text.str().c_str());
  ASSERT_EQ(replayed.size(), 8u);
  // Hand-worked: job 1's map at the first assignment (500.001), held 1.499 s to 501.5; its
  // reduce 0.5 ms later (501.5005), held 0.501 s to 502.0015; job 2's map at 502.002, held
  // 1.001 s to 503.003; its reduce at 503.0035 — the run's attempt_starts, line for line.
  const std::vector<trace::AttemptStart> live = Starts(Parse((std::string(kFirst) + kSecond).c_str()));
  const std::vector<trace::AttemptStart> sim = Starts(replayed);
  ASSERT_EQ(sim.size(), 4u);
  const double want_t[] = {500.001, 501.5005, 502.002, 503.0035};
  for (size_t i = 0; i < sim.size(); ++i) {
    EXPECT_NEAR(sim[i].t, want_t[i], 1e-6) << i;
    EXPECT_NEAR(sim[i].t, live[i].t, 1e-6) << i;
    EXPECT_EQ(sim[i].job, live[i].job) << i;
    EXPECT_EQ(sim[i].task, live[i].task) << i;
    EXPECT_EQ(sim[i].worker, live[i].worker) << i;
    EXPECT_EQ(sim[i].slot, std::optional<std::string>("unified")) << i;
    EXPECT_EQ(sim[i].attempt, std::optional<int64_t>(1)) << i;
  }
  // An end says when its attempt started and how it ended: the simulator's end is the slot's
  // release (the report's receipt), 501.5 for job 1's map.
  const auto* end = std::get_if<trace::AttemptEnd>(&replayed[1]);
  ASSERT_NE(end, nullptr);
  EXPECT_NEAR(end->t, 501.5, 1e-6);
  EXPECT_NEAR(end->start.value_or(0), 500.001, 1e-6);
  EXPECT_EQ(end->status, std::optional<std::string>("ok"));
  EXPECT_EQ(end->task, std::optional<std::string>("m-00000"));
}

TEST(ReplayScheduleTest, WithoutTheFlagNothingIsRecorded) {
  auto run = RecordedRunFromTraces({Parse(kFirst), Parse(kSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  auto p = PredictRun(*run, "fifo", {}, OneUnifiedSlot());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->sim.schedule.empty());
}

TEST(ReplayScheduleTest, PredictWritesTheFile) {
  TempDir dir("replay-schedule");
  const std::string traces = JoinPath(dir.path(), "traces");
  ASSERT_TRUE(MakeDirs(traces).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(traces, "job-000001.jsonl"), kFirst).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(traces, "job-000002.jsonl"), kSecond).ok());
  PredictOptions o;
  o.traces = {traces};
  o.policy = "fifo";
  o.cluster = OneUnifiedSlot();
  o.shuffle_bandwidth = 1000;
  o.schedule_out = JoinPath(dir.path(), "schedule.jsonl");
  std::ostringstream csv;
  Status st = RunPredictCommand(o, csv);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto text = ReadFileToString(o.schedule_out);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  const std::vector<trace::Event> lines = Parse(text->c_str());
  ASSERT_EQ(lines.size(), 8u);
  const std::vector<trace::AttemptStart> starts = Starts(lines);
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(starts[1].job, "job-000001");
  EXPECT_EQ(starts[1].task, std::optional<std::string>("r-00000"));
  EXPECT_NEAR(starts[3].t, 503.0035, 1e-6);
}

}  // namespace
}  // namespace mr::experiment
