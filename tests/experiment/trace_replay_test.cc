// Trace replay (experiment/trace_replay.h, replay_prediction.h): a hand-written recorded run
// read back into the simulator's jobs and the measured outcomes, and replayed under its own
// policy on a cluster where the hand-computed schedule is the only one possible.
#include "experiment/trace_replay.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "experiment/replay_prediction.h"
#include "tests/experiment/trace_text.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

// job-000001 (fifo): two maps, one reduce; map 0's first attempt failed, then ran 2 s;
// map 1 ran 3 s; each wrote 1000 bytes; the reduce ran 0.5 s. Its size was hinted.
constexpr char kJobA[] = R"(
{"event":"job_submit","t":100,"job":"job-000001","name":"a","kind":"synthetic","maps":2,"reduces":1,"policy":"fifo"}
{"event":"estimate","t":100,"job":"job-000001","source":"hint","map_seconds":4,"map_seconds_remaining":4,"shuffle_bytes":2000,"shuffle_bytes_remaining":2000,"reduce_source":"hint","reduce_seconds":0.7,"reduce_seconds_remaining":0.7}
{"event":"attempt_end","t":102.5,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":100.5,"status":"failed","bytes_out":0}
{"event":"attempt_end","t":103.5,"job":"job-000001","task":"m-00001","attempt":2,"worker":1,"start":100.5,"status":"ok","bytes_out":1000}
{"event":"estimate","t":103.5,"job":"job-000001","source":"online","map_seconds":6,"map_seconds_remaining":3,"shuffle_bytes":2000,"shuffle_bytes_remaining":1000}
{"event":"fetch_end","t":103.7,"job":"job-000001","task":"r-00000","map":"m-00001","src_worker":1,"worker":2,"start":103.5,"bytes":1000,"status":"ok"}
{"event":"served","t":103.75,"job":"job-000001","worker":1,"start":103.5,"bytes":1000}
{"event":"attempt_end","t":104.6,"job":"job-000001","task":"m-00000","attempt":3,"worker":2,"start":102.6,"status":"ok","bytes_out":1000}
{"event":"served","t":105.0,"job":"job-000001","worker":2,"start":104.6,"bytes":1000}
{"event":"fetch_end","t":105.0,"job":"job-000001","task":"r-00000","map":"m-00000","src_worker":2,"worker":2,"start":104.6,"bytes":1000,"status":"ok"}
{"event":"attempt_end","t":105.6,"job":"job-000001","task":"r-00000","attempt":4,"worker":2,"start":105.1,"status":"ok"}
{"event":"job_end","t":105.7,"job":"job-000001","status":"ok","response_time":5.7}
)";

// job-000002 (fifo): one map (2 s, 500 bytes) whose backup was killed when it won; one
// reduce (1 s); no hint. The backup's end is written after the original's.
constexpr char kJobB[] = R"(
{"event":"job_submit","t":101,"job":"job-000002","name":"b","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"estimate","t":101,"job":"job-000002","source":"online","map_seconds":0,"map_seconds_remaining":0,"shuffle_bytes":0,"shuffle_bytes_remaining":0}
{"event":"attempt_end","t":106.6,"job":"job-000002","task":"m-00000","attempt":5,"worker":1,"start":104.6,"status":"ok","bytes_out":500}
{"event":"attempt_end","t":106.65,"job":"job-000002","task":"m-00000","attempt":6,"worker":2,"start":105.0,"status":"killed"}
{"event":"fetch_end","t":106.8,"job":"job-000002","task":"r-00000","map":"m-00000","src_worker":1,"worker":1,"start":106.6,"bytes":500,"status":"ok"}
{"event":"attempt_end","t":107.9,"job":"job-000002","task":"r-00000","attempt":7,"worker":1,"start":106.9,"status":"ok"}
{"event":"job_end","t":108,"job":"job-000002","status":"ok","response_time":7.0}
)";

// job-000003: submitted, never ended (the run was stopped).
constexpr char kJobC[] = R"(
{"event":"job_submit","t":102,"job":"job-000003","name":"c","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_end","t":104,"job":"job-000003","task":"m-00000","attempt":8,"worker":1,"start":103,"status":"lost"}
)";

using trace_text::Parse;

RecordedRun HandRun() {
  // C first: the run is ordered by submit, whatever the order of the traces.
  auto run = RecordedRunFromTraces({Parse(kJobC), Parse(kJobB), Parse(kJobA)});
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return run.ok() ? *run : RecordedRun{};
}

TEST(TraceReplayTest, HandWrittenRunGivesTheMeasuredJobsAndOutcomes) {
  RecordedRun run = HandRun();
  EXPECT_EQ(run.t0, 100);
  EXPECT_EQ(run.policy, "fifo");
  ASSERT_EQ(run.jobs.size(), 2u);
  const model::TaskJob& a = run.jobs[0];
  EXPECT_DOUBLE_EQ(a.arrival, 0);
  EXPECT_EQ(a.maps, 2);
  EXPECT_EQ(a.reducers, 1);
  // Only the successful attempt of map 0 counts (2 s), not the failed one (2 s earlier).
  ASSERT_EQ(a.map_durations.size(), 2u);
  EXPECT_NEAR(a.map_durations[0], 2.0, 1e-9);
  EXPECT_NEAR(a.map_durations[1], 3.0, 1e-9);
  ASSERT_EQ(a.reduce_durations.size(), 1u);
  EXPECT_NEAR(a.reduce_durations[0], 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(a.map_bytes, 1000);
  EXPECT_NEAR(a.map_seconds, 2.5, 1e-9);
  EXPECT_DOUBLE_EQ(a.params.hint_map_seconds, 4);  // the estimate at submit, not the later online one
  EXPECT_DOUBLE_EQ(a.params.hint_shuffle_bytes, 2000);
  EXPECT_DOUBLE_EQ(a.params.hint_reduce_seconds, 0.7);  // asrpt and lrpt rank by it

  const model::TaskJob& b = run.jobs[1];
  EXPECT_DOUBLE_EQ(b.arrival, 1);
  ASSERT_EQ(b.map_durations.size(), 1u);
  EXPECT_NEAR(b.map_durations[0], 2.0, 1e-9);  // the original, not the killed backup (1.65 s)
  EXPECT_NEAR(b.reduce_durations[0], 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(b.map_bytes, 500);
  EXPECT_EQ(b.params.hint_map_seconds, 0);  // an online estimate is no hint
  EXPECT_EQ(b.params.hint_shuffle_bytes, 0);
  EXPECT_EQ(b.params.hint_reduce_seconds, 0);

  ASSERT_EQ(run.measured.size(), 2u);
  EXPECT_EQ(run.measured[0].id, "job-000001");
  EXPECT_DOUBLE_EQ(run.measured[0].response, 5.7);
  EXPECT_NEAR(run.measured[0].shuffle_done, 5.0, 1e-9);  // last fetch_end - submit
  EXPECT_EQ(run.measured[0].failed_attempts, 1);
  EXPECT_EQ(run.measured[1].id, "job-000002");
  EXPECT_DOUBLE_EQ(run.measured[1].response, 7.0);
  EXPECT_NEAR(run.measured[1].shuffle_done, 5.8, 1e-9);
  EXPECT_EQ(run.measured[1].killed_attempts, 1);

  ASSERT_EQ(run.excluded.size(), 1u);
  EXPECT_EQ(run.excluded[0].id, "job-000003");
  EXPECT_EQ(run.excluded[0].reason, "no job_end: unfinished");

  // Fetches from worker 1: 1000 B in [103.5, 103.7] and 500 B in [106.6, 106.8]; from
  // worker 2: 1000 B in [104.6, 105.0]. The served reports are not used.
  ASSERT_EQ(run.links.size(), 2u);
  EXPECT_NEAR(run.links.at(1).busy_seconds, 0.4, 1e-9);
  EXPECT_NEAR(run.links.at(1).bytes, 1500, 1e-9);
  EXPECT_NEAR(MeasuredShuffleRate(run), (3750.0 + 2500.0) / 2, 1e-6);
}

TEST(TraceReplayTest, AJobKeepsTheCapacityQueueItNamed) {
  // A capacity run (BalancedPools' pools as queues) replays with each job in its queue: the
  // capacity policy refuses a job without one when there is no "default" queue.
  constexpr char kQueued[] = R"(
{"event":"job_submit","t":100,"job":"job-000004","name":"d","kind":"synthetic","maps":1,"reduces":1,"policy":"capacity","queue":"small"}
{"event":"attempt_end","t":101,"job":"job-000004","task":"m-00000","attempt":1,"worker":1,"start":100,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":102,"job":"job-000004","task":"r-00000","attempt":2,"worker":1,"start":101,"status":"ok"}
{"event":"job_end","t":102,"job":"job-000004","status":"ok","response_time":2}
)";
  auto run = RecordedRunFromTraces({Parse(kQueued), Parse(kJobA)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->jobs.size(), 2u);
  EXPECT_EQ(run->jobs[0].params.queue, "");  // job A named none
  EXPECT_EQ(run->jobs[1].params.queue, "small");
  // The workload's parameters attached afterwards name no queue: the traced one stays.
  sched::JobParams workload;
  workload.weight = 2;
  AttachJobParams({{4, workload}}, &*run);
  EXPECT_EQ(run->jobs[1].params.queue, "small");
  EXPECT_DOUBLE_EQ(run->jobs[1].params.weight, 2);
}

// The traces carry no weight, metric or deadline: the runner attaches each job's workload
// parameters by live job id, and the traced hints stay (they are what the master saw).
TEST(TraceReplayTest, AttachedParamsReachTheReplayedJobsAndKeepTheTracedHints) {
  RecordedRun run = HandRun();
  sched::JobParams b;
  b.weight = 3;
  b.metric = "tardiness";
  b.deadline = 6;
  b.hint_map_seconds = 99;  // the workload's hint: the trace's (none) wins
  AttachJobParams({{2, b}, {7, b}}, &run);  // job 7 is not in the run: ignored
  ASSERT_EQ(run.jobs.size(), 2u);
  EXPECT_DOUBLE_EQ(run.jobs[0].params.weight, 1);  // job-000001: not in the map, defaults
  EXPECT_TRUE(run.jobs[0].params.metric.empty());
  EXPECT_DOUBLE_EQ(run.jobs[0].params.hint_map_seconds, 4);
  EXPECT_DOUBLE_EQ(run.jobs[1].params.weight, 3);
  EXPECT_EQ(run.jobs[1].params.metric, "tardiness");
  EXPECT_DOUBLE_EQ(run.jobs[1].params.deadline, 6);
  EXPECT_DOUBLE_EQ(run.jobs[1].params.hint_map_seconds, 0);
}

TEST(TraceReplayTest, JobWithoutSuccessfulTaskOrFailedIsExcluded) {
  const std::string failed = R"({"event":"job_submit","t":5,"job":"job-000009","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_end","t":6,"job":"job-000009","task":"m-00000","attempt":1,"worker":1,"start":5,"status":"failed"}
{"event":"job_end","t":6,"job":"job-000009","status":"failed","error":"map failed 4 times","response_time":1})";
  auto run = RecordedRunFromTraces({Parse(kJobA), Parse(failed.c_str())});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->jobs.size(), 1u);
  ASSERT_EQ(run->excluded.size(), 1u);
  EXPECT_EQ(run->excluded[0].reason, "ended failed: map failed 4 times");
}

TEST(TraceReplayTest, RefusesTracesItCannotUse) {
  EXPECT_FALSE(RecordedRunFromTraces({}).ok());
  EXPECT_FALSE(RecordedRunFromTraces({Parse(kJobA), Parse(kJobA)}).ok());  // one job twice
  auto no_submit = RecordedRunFromTraces({Parse(R"({"event":"job_end","t":1,"job":"job-000001","status":"ok","response_time":1})")});
  ASSERT_FALSE(no_submit.ok());
  EXPECT_NE(no_submit.status().message().find("job-000001"), std::string::npos);
  auto bad_task = RecordedRunFromTraces({Parse(R"({"event":"job_submit","t":1,"job":"job-000001","maps":1,"reduces":1}
{"event":"attempt_end","t":2,"job":"job-000001","task":"x-1","start":1,"status":"ok"})")});
  EXPECT_FALSE(bad_task.ok());
}

TEST(TraceReplayTest, ReadsAStateDirectoryOrFiles) {
  TempDir tmp("mr-trace-replay-test");
  const std::string traces = JoinPath(tmp.path(), "traces");
  ASSERT_TRUE(MakeDirs(traces).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(traces, "job-000001.jsonl"), kJobA).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(traces, "job-000002.jsonl"), kJobB).ok());
  auto from_state = ReadRecordedRun({tmp.path()});
  ASSERT_TRUE(from_state.ok()) << from_state.status().ToString();
  EXPECT_EQ(from_state->jobs.size(), 2u);
  auto one_file = ReadRecordedRun({JoinPath(traces, "job-000002.jsonl")});
  ASSERT_TRUE(one_file.ok()) << one_file.status().ToString();
  EXPECT_EQ(one_file->jobs.size(), 1u);
  EXPECT_EQ(ReadRecordedRun({JoinPath(tmp.path(), "absent")}).status().code(), StatusCode::kNotFound);
}

// One worker, one map slot, one reduce slot, a 1000 B/s link, no decision latency: FIFO
// has one schedule. A's maps run 0-2 and 2-5, their outputs cross the link 2-3 and 5-6, its
// reduce runs 6-6.5; B (arrived at 1) maps 5-7, sends 7-7.5, reduces 7.5-8.5.
model::ClusterSpec OneWorker() {
  model::ClusterSpec c;
  c.workers = 1;
  c.map_slots = 1;
  c.reduce_slots = 1;
  c.shuffle_bandwidth = 1000;
  return c;
}

TEST(ReplayPredictionTest, OwnPolicyOnExactDurationsGivesTheHandComputedPrediction) {
  RecordedRun run = HandRun();
  auto p = PredictRun(run, "fifo", {}, OneWorker());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_FALSE(p->what_if);
  ASSERT_EQ(p->sim.response.size(), 2u);
  EXPECT_NEAR(p->sim.response[0], 6.5, 1e-9);
  EXPECT_NEAR(p->sim.response[1], 7.5, 1e-9);
  ASSERT_EQ(p->error.size(), 2u);
  EXPECT_NEAR(p->error[0], 6.5 / 5.7 - 1, 1e-9);
  EXPECT_NEAR(p->error[1], 7.5 / 7.0 - 1, 1e-9);
  // The runner's quantile (linear between ranks, as numpy's default) of the two errors.
  const double e1 = 7.5 / 7.0 - 1, e2 = 6.5 / 5.7 - 1;
  EXPECT_NEAR(p->abs_error_median, (e1 + e2) / 2, 1e-9);
  EXPECT_NEAR(p->abs_error_p90, e1 + 0.9 * (e2 - e1), 1e-9);
  EXPECT_NEAR(p->measured_makespan, 8.0, 1e-9);
  EXPECT_NEAR(p->makespan_error, 8.5 / 8.0 - 1, 1e-9);

  std::ostringstream out;
  WritePrediction(run, *p, out);
  const std::string csv = out.str();
  EXPECT_EQ(csv.rfind("job,name,arrival,maps,reducers,measured,predicted,error,shuffle_done\n"
                      "job-000001,a,0.000,2,1,5.700,6.500,0.1404,5.000\n"
                      "job-000002,b,1.000,1,1,7.000,7.500,0.0714,5.800\n",
                      0),
            0u)
      << csv;
  EXPECT_NE(csv.find("# mode=prediction policy=fifo recorded_policy=fifo jobs=2 excluded=1\n"), std::string::npos);
  EXPECT_NE(csv.find("# abs_error_median=0.1059 abs_error_p90=0.1335 makespan_error=0.0625\n"), std::string::npos);
  EXPECT_NE(csv.find("failed_attempts=1 killed_attempts=1 lost_attempts=0"), std::string::npos) << csv;
  EXPECT_NE(csv.find("# excluded job-000003: no job_end: unfinished\n"), std::string::npos);
}

TEST(ReplayPredictionTest, AnotherPolicyIsAWhatIf) {
  RecordedRun run = HandRun();
  auto p = PredictRun(run, "maxsrpt", {}, OneWorker());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->what_if);
  EXPECT_TRUE(p->error.empty());
  std::ostringstream out;
  WritePrediction(run, *p, out);
  EXPECT_NE(out.str().find("# mode=what-if policy=maxsrpt recorded_policy=fifo"), std::string::npos);
  EXPECT_NE(out.str().find("job-000001,a,0.000,2,1,5.700,"), std::string::npos);
  EXPECT_EQ(out.str().find("abs_error_median"), std::string::npos);
}

// A batch's first decision sees the jobs submitted by the first round, not the first job
// alone. Live (maxsrpt, one map slot): job 1 (one 3-s map) submitted at 0, job 2 (one 1-s
// map) at 0.01; no worker heartbeat before 0.02, when the round ranks both and runs job 2
// first. Replayed, the simulator holds its first round until the run's first assignment
// (0.02): job 2's map [0.02, 1.02] and 0.1-s reduce to 1.12 (response 1.11), job 1's map
// [1.02, 4.02], reduce to 4.12. Deciding at job 1's arrival instead would run job 1 first.
constexpr char kLongFirst[] = R"(
{"event":"job_submit","t":200,"job":"job-000001","name":"long","kind":"synthetic","maps":1,"reduces":1,"policy":"maxsrpt"}
{"event":"estimate","t":200,"job":"job-000001","source":"hint","map_seconds":3,"map_seconds_remaining":3,"shuffle_bytes":0,"shuffle_bytes_remaining":0}
{"event":"attempt_start","t":201.02,"job":"job-000001","task":"m-00000","attempt":2,"worker":1,"slot":"map"}
{"event":"attempt_end","t":204.02,"job":"job-000001","task":"m-00000","attempt":2,"worker":1,"start":201.02,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":204.12,"job":"job-000001","task":"r-00000","attempt":4,"worker":1,"start":204.02,"status":"ok"}
{"event":"job_end","t":204.12,"job":"job-000001","status":"ok","response_time":4.12}
)";
constexpr char kShortSecond[] = R"(
{"event":"job_submit","t":200.01,"job":"job-000002","name":"short","kind":"synthetic","maps":1,"reduces":1,"policy":"maxsrpt"}
{"event":"estimate","t":200.01,"job":"job-000002","source":"hint","map_seconds":1,"map_seconds_remaining":1,"shuffle_bytes":0,"shuffle_bytes_remaining":0}
{"event":"attempt_start","t":200.02,"job":"job-000002","task":"m-00000","attempt":1,"worker":1,"slot":"map"}
{"event":"attempt_end","t":201.02,"job":"job-000002","task":"m-00000","attempt":1,"worker":1,"start":200.02,"status":"ok","bytes_out":0}
{"event":"attempt_end","t":201.12,"job":"job-000002","task":"r-00000","attempt":3,"worker":1,"start":201.02,"status":"ok"}
{"event":"job_end","t":201.12,"job":"job-000002","status":"ok","response_time":1.11}
)";

TEST(ReplayPredictionTest, TheFirstRoundIsTheRunsFirstAssignment) {
  auto run = RecordedRunFromTraces({Parse(kLongFirst), Parse(kShortSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_NEAR(run->first_assignment, 0.02, 1e-9);
  auto p = PredictRun(*run, "maxsrpt", {}, OneWorker());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->sim.response.size(), 2u);
  EXPECT_NEAR(p->sim.response[0], 4.12, 1e-9);
  EXPECT_NEAR(p->sim.response[1], 1.11, 1e-9);
  EXPECT_NEAR(p->abs_error_p90, 0, 1e-9);
}

// --jitter: every recorded duration moves by less than the jitter, the same seed moves them
// the same way, another seed another way, and 0 leaves the run as recorded.
TEST(TraceReplayTest, JitterMovesEveryDurationWithinItsBoundBySeed) {
  const RecordedRun run = HandRun();
  std::vector<double> recorded;
  for (const model::TaskJob& j : run.jobs) {
    recorded.insert(recorded.end(), j.map_durations.begin(), j.map_durations.end());
    recorded.insert(recorded.end(), j.reduce_durations.begin(), j.reduce_durations.end());
  }
  ASSERT_GE(recorded.size(), 3u);
  auto jittered = [&](double seconds, uint64_t seed) {
    RecordedRun r = run;
    JitterDurations(seconds, seed, &r);
    std::vector<double> out;
    for (const model::TaskJob& j : r.jobs) {
      out.insert(out.end(), j.map_durations.begin(), j.map_durations.end());
      out.insert(out.end(), j.reduce_durations.begin(), j.reduce_durations.end());
    }
    return out;
  };
  EXPECT_EQ(jittered(0, 1), recorded);
  const std::vector<double> a = jittered(0.001, 1);
  ASSERT_EQ(a.size(), recorded.size());
  int moved = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_LT(std::abs(a[i] - recorded[i]), 0.001) << i;
    EXPECT_GE(a[i], 0.0);
    moved += a[i] != recorded[i];
  }
  EXPECT_GT(moved, 0);
  EXPECT_EQ(jittered(0.001, 1), a);
  EXPECT_NE(jittered(0.001, 2), a);
}

// The live policy's round clock from its decisions' notes: round 0 at t0 + 0.0106, round 1
// at t0 + 1.2031, round 5 at t0 + 5.6929 (a 1-s round): the clock started by min(0.0106,
// 0.2031, 0.6929) = 0.0106, moved back one round to -0.9894 (the same phase, before the
// first arrival). With a 0.5-s round: min(0.0106, 0.7031, 3.1929) = 0.0106 - 0.5 = -0.4894.
// A note without a round, and a run without notes, give nothing.
TEST(TraceReplayTest, TheRoundClockStartsWhereTheDecisionsRoundNotesPutIt) {
  const std::string trace = R"json(
{"event":"job_submit","t":100,"job":"job-000001","name":"a","kind":"synthetic","maps":1,"reduces":1,"policy":"asrpt"}
{"event":"decision","t":100.0106,"job":"job-000001","worker":1,"policy":"asrpt","note":"asrpt: round 0, 2 unified slots, job 1 first (alloc 0)","tasks":["m-00000"]}
{"event":"attempt_start","t":100.0106,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":101.0,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":100.0106,"status":"ok","bytes_out":0}
{"event":"decision","t":101.2031,"job":"job-000001","worker":1,"policy":"asrpt","note":"asrpt: round 1, 2 unified slots, job 1 first (alloc 1)","tasks":["r-00000"]}
{"event":"decision","t":105.6929,"job":"job-000001","worker":2,"policy":"asrpt","note":"asrpt: round 5 planned, 2 unified slots, job 1 first (alloc 1)","tasks":["r-00000"]}
{"event":"decision","t":105.0,"job":"job-000001","worker":2,"policy":"asrpt","note":"no round here","tasks":["r-00000"]}
{"event":"attempt_end","t":106.0,"job":"job-000001","task":"r-00000","attempt":2,"worker":2,"start":105.6929,"status":"ok"}
{"event":"job_end","t":106.0,"job":"job-000001","status":"ok","response_time":6.0}
)json";
  auto run = RecordedRunFromTraces({Parse(trace.c_str())});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->rounds.size(), 3u);
  std::optional<double> start = RoundClockStart(*run, 1.0);
  ASSERT_TRUE(start.has_value());
  EXPECT_NEAR(*start, -0.9894, 1e-9);
  start = RoundClockStart(*run, 0.5);
  ASSERT_TRUE(start.has_value());
  EXPECT_NEAR(*start, -0.4894, 1e-9);
  EXPECT_FALSE(RoundClockStart(HandRun(), 1.0).has_value());
  EXPECT_FALSE(RoundClockStart(*run, 0).has_value());
}

// A reducer placed in a round is not ready in that round. Live (fifo, one unified slot):
// job 1's only map ends at 301 and its reducer is placed there; it has fetched (nothing) by
// 301.01, but the round at 301 gave the freed slot to job 2's map (301-302), so job 1's
// 0.5-s reduce runs 302-302.5 and job 2's 302.5-303: both respond in 2.5 s. A replay that
// made the reducer ready at its placement ran job 1's reduce at 301 (response 1.5). The
// measured delay (placement to the last fetch_end, the median over reducers: 0.01 s)
// reproduces the run.
constexpr char kReduceFirst[] = R"(
{"event":"job_submit","t":300,"job":"job-000001","name":"first","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":300,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":301,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":300,"status":"ok","bytes_out":0}
{"event":"maps_done","t":301,"job":"job-000001","sojourn":1}
{"event":"reduce_place","t":301,"job":"job-000001","task":"r-00000","worker":1,"maps_done":1}
{"event":"fetch_end","t":301.01,"job":"job-000001","task":"r-00000","map":"m-00000","src_worker":1,"worker":1,"start":301.005,"bytes":0,"status":"ok"}
{"event":"attempt_start","t":302,"job":"job-000001","task":"r-00000","attempt":3,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":302.5,"job":"job-000001","task":"r-00000","attempt":3,"worker":1,"start":302,"status":"ok"}
{"event":"job_end","t":302.5,"job":"job-000001","status":"ok","response_time":2.5}
)";
constexpr char kMapMeanwhile[] = R"(
{"event":"job_submit","t":300.5,"job":"job-000002","name":"second","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":301,"job":"job-000002","task":"m-00000","attempt":2,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":302,"job":"job-000002","task":"m-00000","attempt":2,"worker":1,"start":301,"status":"ok","bytes_out":0}
{"event":"maps_done","t":302,"job":"job-000002","sojourn":1.5}
{"event":"reduce_place","t":302,"job":"job-000002","task":"r-00000","worker":1,"maps_done":1}
{"event":"fetch_end","t":302.01,"job":"job-000002","task":"r-00000","map":"m-00000","src_worker":1,"worker":1,"start":302.005,"bytes":0,"status":"ok"}
{"event":"attempt_start","t":302.5,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":303,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"start":302.5,"status":"ok"}
{"event":"job_end","t":303,"job":"job-000002","status":"ok","response_time":2.5}
)";

TEST(ReplayPredictionTest, AFreedSlotGoesToAMapWhileTheReducerPlacedThenFetches) {
  auto run = RecordedRunFromTraces({Parse(kReduceFirst), Parse(kMapMeanwhile)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_NEAR(run->reduce_ready_delay, 0.01, 1e-9);
  auto p = PredictRun(*run, "fifo", {}, trace_text::OneUnifiedSlot());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->sim.response.size(), 2u);
  EXPECT_NEAR(p->sim.response[0], 2.5, 1e-9);
  EXPECT_NEAR(p->sim.response[1], 2.5, 1e-9);
}

// A slot's next task starts a turnover after the last one's end: the end's report, the next
// round, the assignment's delivery, which the recorded durations (worker start to end) leave
// out. Live (fifo, one unified slot, two jobs of one 1-s map and one 0.5-s reduce submitted
// at 400): job 1's map ran 400.01-401.01, its reduce 401.02-401.52, job 2's map
// 401.53-402.53 and reduce 402.54-403.04, each assigned 4 ms after the end before it and
// started 10 ms after it (responses 1.52 and 3.04). Replayed with the measured turnover
// (0.01 s) the same; without it 1.51 and 3.01: over a run the replay drifts ahead by the
// turnover per task.
constexpr char kTurnFirst[] = R"(
{"event":"job_submit","t":400,"job":"job-000001","name":"first","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":400.01,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":401.01,"job":"job-000001","task":"m-00000","attempt":1,"worker":1,"start":400.01,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":401.014,"job":"job-000001","task":"r-00000","attempt":2,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":401.52,"job":"job-000001","task":"r-00000","attempt":2,"worker":1,"start":401.02,"status":"ok"}
{"event":"job_end","t":401.52,"job":"job-000001","status":"ok","response_time":1.52}
)";
constexpr char kTurnSecond[] = R"(
{"event":"job_submit","t":400,"job":"job-000002","name":"second","kind":"synthetic","maps":1,"reduces":1,"policy":"fifo"}
{"event":"attempt_start","t":401.524,"job":"job-000002","task":"m-00000","attempt":3,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":402.53,"job":"job-000002","task":"m-00000","attempt":3,"worker":1,"start":401.53,"status":"ok","bytes_out":0}
{"event":"attempt_start","t":402.534,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"slot":"unified"}
{"event":"attempt_end","t":403.04,"job":"job-000002","task":"r-00000","attempt":4,"worker":1,"start":402.54,"status":"ok"}
{"event":"job_end","t":403.04,"job":"job-000002","status":"ok","response_time":3.04}
)";

TEST(ReplayPredictionTest, ASlotsNextTaskStartsTheMeasuredTurnoverAfterTheLastEnds) {
  auto run = RecordedRunFromTraces({Parse(kTurnFirst), Parse(kTurnSecond)});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_NEAR(run->slot_turnover, 0.01, 1e-9);
  model::ClusterSpec c;
  c.workers = 1;
  c.map_slots = c.reduce_slots = 0;
  c.unified_slots = 1;
  c.shuffle_bandwidth = 1000;
  auto p = PredictRun(*run, "fifo", {}, c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->sim.response.size(), 2u);
  EXPECT_NEAR(p->sim.response[0], 1.52, 1e-9);
  EXPECT_NEAR(p->sim.response[1], 3.04, 1e-9);
}

}  // namespace
}  // namespace mr::experiment
