// The JobTracker's job lifecycle on a manual clock, driven through the RequestHandler as the
// TCP session drives it: a job from submit to commit, a lost worker, a restarted master
// resuming a job from its store. The test plays client and workers (tracker_harness.h).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <set>
#include <string>

#include "common/file_util.h"
#include "common/version.h"
#include "master/job_paths.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::TrackerHarness;

TEST(RequestHandlerTest, RefusesARequestBeforeTheHandshakeAndCloses) {
  TempDir dir("mr-handler-test");
  TrackerHarness h(dir.path(), Fifo());
  PeerConnection conn("peer");
  proto::Envelope in;
  in.mutable_status()->set_job_id(0);
  HandlerOutcome out = h.handler().Handle(conn, in);
  EXPECT_TRUE(out.close);
  EXPECT_EQ(out.reply.error().code(), static_cast<uint32_t>(StatusCode::kProtocolError));
  EXPECT_FALSE(conn.ready());
  EXPECT_EQ(conn.max_frame_bytes(), kMaxHandshakeFrameBytes);
}

TEST(RequestHandlerTest, RefusesAWrongProtocolVersionWithAHelloReply) {
  TempDir dir("mr-handler-test");
  TrackerHarness h(dir.path(), Fifo());
  PeerConnection conn("peer");
  proto::Envelope in;
  in.mutable_hello()->set_protocol_version(kProtocolVersion + 1);
  in.mutable_hello()->set_role("client");
  HandlerOutcome out = h.handler().Handle(conn, in);
  EXPECT_TRUE(out.close);
  EXPECT_FALSE(out.reply.hello_reply().accepted());
  EXPECT_NE(out.reply.hello_reply().error().find("version mismatch"), std::string::npos);
}

TEST(RequestHandlerTest, AClientMayNotHeartbeat) {
  TempDir dir("mr-handler-test");
  TrackerHarness h(dir.path(), Fifo());
  auto client = h.Connect("client");
  EXPECT_EQ(client->max_frame_bytes(), kMaxControlFrameBytes);
  proto::Envelope in;
  in.mutable_heartbeat()->set_worker_id(1);
  HandlerOutcome out = h.handler().Handle(*client, in);
  EXPECT_TRUE(out.close);
  EXPECT_EQ(out.reply.error().code(), static_cast<uint32_t>(StatusCode::kPermissionDenied));
}

TEST(RequestHandlerTest, WaitJobParksARunningJobAndIsAnsweredOnceItEnds) {
  TempDir dir("mr-handler-test");
  TrackerHarness h(dir.path(), Fifo());
  uint64_t job = h.Submit(h.SyntheticSpec(1, 1));
  auto client = h.Connect("client");
  proto::Envelope wait;
  wait.mutable_wait_job()->set_job_id(job);
  wait.mutable_wait_job()->set_timeout_ms(10 * kMaxWaitJobMs);
  HandlerOutcome parked = h.handler().Handle(*client, wait);
  EXPECT_EQ(parked.park_job, job);
  EXPECT_EQ(parked.park_timeout_ms, kMaxWaitJobMs) << "the wait is capped";
  EXPECT_EQ(parked.reply.msg_case(), proto::Envelope::MSG_NOT_SET);

  proto::Envelope kill;
  kill.mutable_kill_job()->set_job_id(job);
  EXPECT_TRUE(h.handler().Handle(*client, kill).reply.has_kill_job_reply());
  // The deferred answer, and a wait on an ended job is answered at once.
  EXPECT_EQ(h.handler().WaitJobReply(job).status_reply().jobs(0).state(), "KILLED");
  HandlerOutcome now = h.handler().Handle(*client, wait);
  EXPECT_EQ(now.park_job, 0u);
  EXPECT_EQ(now.reply.status_reply().jobs(0).state(), "KILLED");
}

// A waiting `mr run` polls every 100-250 ms: its answer holds the one job and the worker
// count, not a row per worker as a StatusRequest's does (issue 29: with 5,000 workers each
// poll built and sent 5,000 rows). Failed before: the wait reply carried every row.
TEST(RequestHandlerTest, AWaitIsAnsweredWithoutTheWorkerRows) {
  TempDir dir("mr-handler-test");
  TrackerHarness h(dir.path(), Fifo());
  for (int i = 0; i < 3; ++i) h.AddWorker(1, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(1, 1));
  auto client = h.Connect("client");
  proto::Envelope kill;
  kill.mutable_kill_job()->set_job_id(job);
  ASSERT_TRUE(h.handler().Handle(*client, kill).reply.has_kill_job_reply());
  proto::Envelope wait;
  wait.mutable_wait_job()->set_job_id(job);
  wait.mutable_wait_job()->set_timeout_ms(100);
  const proto::StatusReply waited = h.handler().Handle(*client, wait).reply.status_reply();
  ASSERT_EQ(waited.jobs_size(), 1);
  EXPECT_EQ(waited.jobs(0).state(), "KILLED");
  EXPECT_EQ(waited.workers(), 3u);
  EXPECT_EQ(waited.worker_rows_size(), 0);
  proto::Envelope status;
  status.mutable_status()->set_job_id(job);
  EXPECT_EQ(h.handler().Handle(*client, status).reply.status_reply().worker_rows_size(), 3);
}

TEST(JobTrackerTest, SubmitAssignMapDoneFetchReduceCommit) {
  TempDir dir("mr-tracker-test");
  TrackerHarness h(dir.path(), Fifo());
  uint32_t w = h.AddWorker(/*map_slots=*/2, /*reduce_slots=*/1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/3, /*reduces=*/2);
  uint64_t job = h.Submit(spec);
  EXPECT_EQ(h.Status(job).state(), "RUNNING");

  h.Beat(w);
  ASSERT_EQ(h.worker(w).maps.size(), 2u) << "two map slots, two maps";
  EXPECT_EQ(h.Status(job).maps_running(), 2u);
  h.FinishMaps(w);  // and takes the third
  ASSERT_EQ(h.worker(w).maps.size(), 1u);
  EXPECT_EQ(h.worker(w).maps[0].index(), 2u);
  EXPECT_TRUE(h.worker(w).placed.empty()) << "slow start 1.0: reducers wait for every map";
  h.FinishMaps(w);
  EXPECT_EQ(h.Status(job).maps_done(), 3u);
  // Slow start reached: both reducers placed here, and told where every map output is.
  EXPECT_EQ(h.worker(w).placed.size(), 2u);
  std::set<uint32_t> located;
  for (const auto& l : h.worker(w).locations) located.insert(l.map_index());
  EXPECT_EQ(located, (std::set<uint32_t>{0, 1, 2}));

  h.RunReduces(w);
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "SUCCEEDED") << st.error();
  EXPECT_EQ(st.reduces_done(), 2u);
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), PartName(0))));
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), PartName(1))));
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), "_SUCCESS")));
  EXPECT_FALSE(PathExists(JoinPath(spec.output(), "_temporary")));
}

TEST(JobTrackerTest, ALostWorkersRunningAndNeededDoneMapsRunAgainElsewhere) {
  TempDir dir("mr-tracker-test");
  TrackerHarness h(dir.path(), Fifo());
  uint32_t a = h.AddWorker(1, 1);
  uint32_t b = h.AddWorker(1, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(/*maps=*/3, /*reduces=*/1));
  h.Beat(a);
  h.Beat(b);
  ASSERT_EQ(h.worker(a).maps.size(), 1u);
  ASSERT_EQ(h.worker(b).maps.size(), 1u);
  const proto::Assignment done_on_a = h.worker(a).maps[0];
  h.FinishMaps(a);  // done on a; a now runs the third map
  ASSERT_EQ(h.worker(a).maps.size(), 1u);
  const proto::Assignment running_on_a = h.worker(a).maps[0];

  // a falls silent; b keeps beating past the timeout.
  for (int i = 0; i < 12; ++i) {
    h.clock().Advance(1);
    h.Beat(b);
    h.tracker().Tick();
  }
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.maps_done(), 0u) << "a's done map is needed by the unplaced reducer: re-run";
  EXPECT_EQ(h.tracker().worker_count(), 1u);
  int64_t killed = 0;
  for (const auto& c : st.counters()) {
    if (c.name() == kKilledMapsCounter) killed = c.value();
  }
  EXPECT_EQ(killed, 2) << "one running map lost, one done map re-executed";

  // b runs everything; the re-runs are new attempts.
  std::set<uint32_t> on_b;
  for (int i = 0; i < 6 && h.Status(job).maps_done() < 3; ++i) {
    for (const auto& m : h.worker(b).maps) {
      on_b.insert(m.index());
      if (m.index() == done_on_a.index()) {
        EXPECT_GT(m.attempt(), done_on_a.attempt());
      }
      if (m.index() == running_on_a.index()) {
        EXPECT_GT(m.attempt(), running_on_a.attempt());
      }
    }
    h.FinishMaps(b);
  }
  EXPECT_EQ(on_b, (std::set<uint32_t>{0, 1, 2}));
  h.RunReduces(b);
  EXPECT_EQ(h.Status(job).state(), "SUCCEEDED");
}

// Regression (crash_test's map.records_in one split short, unified_slots_test's map ending ok
// after a reduce started): a worker holding a done map's output is lost while a reducer that
// already fetched that output is still fetching others. The map runs again; the reducer then
// reports READY (it holds every run). It used to start at once and commit, and the job
// succeeded with the map still running again: its counters, taken out at the re-execution,
// never came back, and its attempt ended ok after the reduce had started. A reduce starts
// only once every map of its job is done.
TEST(JobTrackerTest, AReducerHoldingEveryRunWaitsForAMapRunningAgain) {
  TempDir dir("mr-tracker-test");
  TrackerHarness h(dir.path(), Fifo());
  uint32_t a = h.AddWorker(/*map_slots=*/1, /*reduce_slots=*/0);
  uint32_t b = h.AddWorker(/*map_slots=*/1, /*reduce_slots=*/1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/2, /*reduces=*/1, /*slow_start=*/0);
  uint64_t job = h.Submit(spec);
  constexpr int64_t kRecordsPerMap = 10;
  auto succeeded = [&](const proto::Assignment& m) {
    proto::TaskReport r = TrackerHarness::MapReport(m, proto::SUCCEEDED);
    proto::Counter* c = r.add_counters();
    c->set_name("map.records_in");
    c->set_value(kRecordsPerMap);
    return r;
  };
  h.Beat(a);
  h.Beat(b);
  ASSERT_EQ(h.worker(a).maps.size(), 1u);
  ASSERT_EQ(h.worker(b).maps.size(), 1u);
  ASSERT_EQ(h.worker(b).placed.size(), 1u) << "slow start 0: the reducer is placed on b at once";
  const proto::Assignment reducer = h.worker(b).placed[0];
  const proto::Assignment on_b = h.worker(b).maps[0];
  h.Beat(a, {succeeded(h.worker(a).maps[0])});
  h.worker(a).maps.clear();
  h.Beat(b, {h.ReduceReport(reducer, proto::FETCHING, /*maps_fetched=*/1)});  // a's output fetched

  // a falls silent: its done map runs again (the fetching reducer might need it).
  for (int i = 0; i < 12; ++i) {
    h.clock().Advance(1);
    h.Beat(b);
    h.tracker().Tick();
  }
  ASSERT_EQ(h.tracker().worker_count(), 1u);
  ASSERT_EQ(h.Status(job).maps_done(), 0u);

  // b's own map ends and b takes the re-run; the reducer holds both runs.
  h.Beat(b, {succeeded(on_b)});
  ASSERT_EQ(h.worker(b).maps.size(), 2u);
  const proto::Assignment rerun = h.worker(b).maps[1];
  h.Beat(b, {h.ReduceReport(reducer, proto::READY, /*maps_fetched=*/2)});
  h.Beat(b);
  EXPECT_TRUE(h.worker(b).reduces.empty()) << "a reduce started while a map of its job runs again";
  EXPECT_EQ(h.Status(job).state(), "RUNNING");

  h.worker(b).maps.clear();
  h.Beat(b, {succeeded(rerun)});
  ASSERT_EQ(h.worker(b).reduces.size(), 1u) << "every map done: the reduce starts";
  h.RunReduces(b, 2);
  proto::JobStatus st = h.Status(job);
  ASSERT_EQ(st.state(), "SUCCEEDED") << st.error();
  int64_t records_in = -1;
  for (const auto& c : st.counters()) {
    if (c.name() == "map.records_in") records_in = c.value();
  }
  EXPECT_EQ(records_in, 2 * kRecordsPerMap) << "a committed attempt of every map counts once";
  // In the order the master recorded them, no map attempt ends ok after a reduce started.
  std::ifstream trace(JoinPath(spec.output(), "_trace.jsonl"));
  bool reduce_started = false;
  for (std::string line; std::getline(trace, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    const std::string task = e.value("task", "");
    if (e.at("event") == "attempt_start" && task[0] == 'r') reduce_started = true;
    if (e.at("event") == "attempt_end" && task[0] == 'm' && e.value("status", "") == "ok") {
      EXPECT_FALSE(reduce_started) << "map attempt ended ok after a reduce started: " << e.dump();
    }
  }
  EXPECT_TRUE(reduce_started);
}

// attempt_end carries `reported`: the master's clock when the report reached it. Until then
// the master counted the slot busy, whatever the worker measured (a replay holds the slot
// as long: docs/model.md, "A slot's hold").
TEST(JobTrackerTest, AnAttemptEndSaysWhenTheMasterHeardOfIt) {
  TempDir dir("mr-tracker-test");
  TrackerHarness h(dir.path(), Fifo());
  uint32_t w = h.AddWorker(/*map_slots=*/1, /*reduce_slots=*/1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/1, /*reduces=*/1);
  uint64_t job = h.Submit(spec);
  h.Beat(w);
  ASSERT_EQ(h.worker(w).maps.size(), 1u);
  h.clock().Advance(3);  // the report comes 3 s after the assignment
  const double heard = h.clock().Now();
  h.FinishMaps(w);
  h.RunReduces(w);
  ASSERT_EQ(h.Status(job).state(), "SUCCEEDED");
  std::ifstream trace(JoinPath(spec.output(), "_trace.jsonl"));
  int ends = 0;
  for (std::string line; std::getline(trace, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    if (e.at("event") != "attempt_end" || e.value("task", "") != "m-00000") continue;
    ++ends;
    ASSERT_TRUE(e.contains("reported")) << e.dump();
    EXPECT_DOUBLE_EQ(e.at("reported").get<double>(), heard);
    EXPECT_DOUBLE_EQ(e.at("t").get<double>(), 1001);  // the worker's end, as it reported it
  }
  EXPECT_EQ(ends, 1);
}

TEST(JobTrackerTest, ARestartedMasterResumesAJobFromItsStore) {
  TempDir dir("mr-tracker-test");
  const std::string db = JoinPath(dir.path(), "db");
  proto::JobSpec spec;
  uint64_t job = 0;
  std::vector<proto::HeldMapOutput> held;
  uint32_t port = 0;
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    uint32_t w = h.AddWorker(2, 1);
    port = h.worker(w).registration.shuffle_port();
    spec = h.SyntheticSpec(/*maps=*/2, /*reduces=*/2);
    job = h.Submit(spec);
    h.Beat(w);
    for (const auto& m : h.worker(w).maps) {
      proto::HeldMapOutput o;
      o.set_job_id(job);
      o.set_map(m.index());
      o.set_attempt(m.attempt());
      held.push_back(o);
    }
    h.FinishMaps(w);
    ASSERT_EQ(h.worker(w).placed.size(), 2u);
    // Reducer 0 commits; reducer 1 is still fetching when the master goes down.
    const proto::Assignment r0 = h.worker(w).placed[0];
    h.worker(w).placed.erase(h.worker(w).placed.begin() + 1);
    h.RunReduces(w, 2);
    ASSERT_EQ(h.Status(job).reduces_done(), 1u);
    ASSERT_EQ(r0.index(), 0u);
  }
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
  ASSERT_TRUE(h.tracker().Recover().ok());
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "RUNNING");
  EXPECT_EQ(st.reduces_done(), 1u) << "the committed reduce is kept";
  EXPECT_EQ(st.maps_running(), 2u) << "done maps await their worker";

  // The worker comes back offering both outputs: adopted, not re-run.
  uint32_t w = h.AddWorker(2, 1, 0, held, port);
  EXPECT_TRUE(h.worker(w).deleted.empty());
  EXPECT_EQ(h.Status(job).maps_done(), 2u);
  h.Beat(w);
  EXPECT_TRUE(h.worker(w).maps.empty()) << "no map runs again";
  ASSERT_EQ(h.worker(w).placed.size(), 1u);
  EXPECT_EQ(h.worker(w).placed[0].index(), 1u) << "only the uncommitted reducer is placed";
  h.RunReduces(w);
  st = h.Status(job);
  EXPECT_EQ(st.state(), "SUCCEEDED") << st.error();
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), PartName(0))));
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), PartName(1))));
}

}  // namespace
}  // namespace mr::master

namespace mr::master {
namespace {

// A master killed after it created OUTPUT/_temporary and before it stored the job left that
// empty directory behind, and the same `mr run` then failed for ever with "output directory
// already exists" (found by scripts/fault-sweep.sh). An output directory holding only an empty
// _temporary is unclaimed: a new submit takes it over, unless a job of this master names it.
TEST(JobTrackerOutputTest, AnUnclaimedOutputIsTakenOverUnlessAJobOfOursNamesIt) {
  TempDir dir("mr-tracker-output-test");
  TrackerHarness h(dir.path(), Fifo());
  h.AddWorker(1, 1);
  proto::JobSpec left = h.SyntheticSpec(2, 1);
  ASSERT_TRUE(MakeDirs(JoinPath(left.output(), "_temporary")).ok());
  Result<uint64_t> taken = h.tracker().Submit(left);
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  // The job is running and its _temporary is still empty: the directory is ours now.
  Result<uint64_t> again = h.tracker().Submit(left);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  // A directory with anything else in it stays taken.
  proto::JobSpec used = h.SyntheticSpec(2, 1);
  ASSERT_TRUE(MakeDirs(JoinPath(used.output(), "_temporary")).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(used.output(), "part-r-00000"), "x\n").ok());
  EXPECT_EQ(h.tracker().Submit(used).status().code(), StatusCode::kAlreadyExists);
  proto::JobSpec partial = h.SyntheticSpec(2, 1);
  ASSERT_TRUE(MakeDirs(JoinPath(partial.output(), "_temporary/attempt-r-00000-1")).ok());
  EXPECT_EQ(h.tracker().Submit(partial).status().code(), StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace mr::master

namespace mr::master {
namespace {

// A master killed while a client's submit was on the wire (scripts/fault-sweep.sh: 2-3 of 50
// master kills) left `mr run` with "connection closed by peer", though the master may already
// have stored the job. The client now sends the same submission again after reconnecting; the
// master answers a submission id it holds, also after a restart, with that job, never a second.
TEST(JobTrackerSubmitRetryTest, TheSameSubmissionSentAgainIsTheSameJobAlsoAfterARestart) {
  TempDir dir("mr-tracker-retry-test");
  const std::string db = JoinPath(dir.path(), "db");
  proto::JobSpec spec;
  uint64_t job = 0;
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    h.AddWorker(1, 1);
    spec = h.SyntheticSpec(/*maps=*/2, /*reduces=*/1);
    spec.set_submission_id("5ca1ab1e");
    job = h.Submit(spec);
    Result<uint64_t> again = h.tracker().Submit(spec);
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_EQ(*again, job);
    // Another submission with the same output is still refused: the id names a submission.
    proto::JobSpec other = spec;
    other.set_submission_id("0ther");
    EXPECT_EQ(h.tracker().Submit(other).status().code(), StatusCode::kAlreadyExists);
  }
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
  ASSERT_TRUE(h.tracker().Recover().ok());
  Result<uint64_t> after = h.tracker().Submit(spec);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(*after, job) << "the restarted master knows the submission from its store";
  EXPECT_EQ(h.Status(job).state(), "RUNNING");
}

}  // namespace
}  // namespace mr::master
