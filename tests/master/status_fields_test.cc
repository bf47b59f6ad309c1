// The status fields issue 32 gave a meaning under every policy, checked under fifo (orders by
// arrival, reads no size estimate) and maxsrpt (an SRPT policy that does), on a JobTracker
// driven through its RequestHandler on a manual clock:
//   - estimate_ignored: the policy reads no estimate (the views say "n/a under fifo");
//   - shuffle_bytes_waiting: map output the placed reducers may fetch now and have not (what
//     the share applies to; the views show "-" for the share when it is 0);
//   - map_progress: 100% only once every map is done;
//   - worker rows' and failed attempts' name: the worker's name label, else its host;
//   - the job's and the cluster's measured shuffle_rate in /api/jobs/ID, /api/cluster and
//     the StatusReply.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/job_id.h"
#include "master/job.h"
#include "master/status_json.h"
#include "scheduler/scheduler.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

class StatusFieldsTest : public ::testing::TestWithParam<const char*> {
 protected:
  StatusFieldsTest() {
    auto policy = sched::CreateScheduler(GetParam());
    EXPECT_TRUE(policy.ok()) << GetParam();
    h_ = std::make_unique<TrackerHarness>(dir_.path(), std::move(*policy));
  }
  bool SrptPolicy() const { return std::string(GetParam()) != "fifo"; }

  TempDir dir_{"mr-status-fields-test"};
  std::unique_ptr<TrackerHarness> h_;
};

TEST_P(StatusFieldsTest, EstimateSaysWhetherThePolicyReadsIt) {
  h_->AddWorker(1, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1));
  const proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(st.policy(), GetParam());
  EXPECT_EQ(st.estimate_ignored(), !SrptPolicy());
  auto api = h_->tracker().ApiGet("/api/jobs/" + JobIdString(job));
  ASSERT_TRUE(api.ok()) << api.status().ToString();
  EXPECT_EQ(nlohmann::json::parse(*api).at("estimate").at("used_by_policy"), SrptPolicy());
}

TEST_P(StatusFieldsTest, WaitingBytesAreTheOutputTheReducersHaveNotFetched) {
  const uint32_t w = h_->AddWorker(1, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1, /*slow_start=*/0.0));
  EXPECT_EQ(h_->Status(job).shuffle_bytes_waiting(), 0) << "no map output yet";
  h_->Beat(w);
  ASSERT_EQ(h_->worker(w).maps.size(), 1u);
  h_->FinishMaps(w);  // one map done: 100 bytes for the one reducer, none fetched
  proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(st.shuffle_bytes_total(), 100u);
  EXPECT_DOUBLE_EQ(st.shuffle_bytes_waiting(), 100.0);
  // Half the maps are done; the map phase is not at 100%.
  EXPECT_LT(st.map_progress(), 1.0);
  h_->Beat(w);
  h_->FinishMaps(w);
  h_->RunReduces(w);
  st = h_->Status(job);
  EXPECT_EQ(st.state(), "SUCCEEDED");
  EXPECT_EQ(st.shuffle_bytes_waiting(), 0) << "an ended job has nothing waiting";
  EXPECT_DOUBLE_EQ(st.map_progress(), 1.0);
}

TEST_P(StatusFieldsTest, AWorkerIsNamedByItsNameLabelElseItsHost) {
  const uint32_t w = h_->AddWorker(1, 1);
  proto::Envelope in;
  in.mutable_status();
  auto conn = h_->Connect("client");
  HandlerOutcome out = h_->handler().Handle(*conn, in);
  ASSERT_EQ(out.reply.status_reply().worker_rows_size(), 1);
  const proto::WorkerRow& row = out.reply.status_reply().worker_rows(0);
  EXPECT_EQ(row.id(), w);
  EXPECT_EQ(row.name(), row.host());  // the harness registers no name label
  EXPECT_FALSE(row.name().empty());
  auto workers = h_->tracker().ApiGet("/api/workers");
  ASSERT_TRUE(workers.ok());
  EXPECT_EQ(nlohmann::json::parse(*workers)[0].at("name"), row.name());
  auto cluster = h_->tracker().ApiGet("/api/cluster");
  ASSERT_TRUE(cluster.ok());
  EXPECT_EQ(nlohmann::json::parse(*cluster).at("shuffle_rate"), 0.0);  // nothing sent yet
  EXPECT_EQ(out.reply.status_reply().shuffle_rate(), 0.0);
}

// Times on the manual clock: submit_time is the submission, sojourn_time (the overlapping-
// phases paper's map-phase sojourn) is unset until the last map ends and then that instant
// minus the submission, end_time is set only at the end; the share is a fraction of a link,
// and an ended job has none. The StatusReply and /api/jobs/ID say the same.
TEST_P(StatusFieldsTest, TimesSojournAndShareMeanTheSameUnderEveryPolicy) {
  const uint32_t w = h_->AddWorker(1, 1);
  const double t0 = h_->clock().Now();
  const uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1, /*slow_start=*/0.0));
  proto::JobStatus st = h_->Status(job);
  EXPECT_DOUBLE_EQ(st.submit_time(), t0);
  EXPECT_EQ(st.sojourn_time(), 0) << "no sojourn before the last map ends";
  EXPECT_EQ(st.end_time(), 0);
  h_->Beat(w);
  h_->clock().Advance(2);
  h_->FinishMaps(w);
  st = h_->Status(job);
  EXPECT_EQ(st.sojourn_time(), 0) << "one map of two is done";
  EXPECT_GE(st.share(), 0.0);
  EXPECT_LE(st.share(), 1.0);
  h_->Beat(w);
  h_->clock().Advance(3);
  h_->FinishMaps(w);
  st = h_->Status(job);
  EXPECT_NEAR(st.sojourn_time(), 5.0, 1e-9) << "the last map ended 5 s after the submission";
  h_->clock().Advance(1);
  h_->RunReduces(w);
  st = h_->Status(job);
  ASSERT_EQ(st.state(), "SUCCEEDED");
  EXPECT_NEAR(st.sojourn_time(), 5.0, 1e-9) << "the sojourn does not move after the maps";
  EXPECT_GE(st.end_time(), t0 + 6);
  EXPECT_EQ(st.share(), 0.0) << "an ended job holds no share";
  auto api = h_->tracker().ApiGet("/api/jobs/" + JobIdString(job));
  ASSERT_TRUE(api.ok()) << api.status().ToString();
  const nlohmann::json j = nlohmann::json::parse(*api);
  EXPECT_DOUBLE_EQ(j.at("submit_time").get<double>(), st.submit_time());
  EXPECT_DOUBLE_EQ(j.at("end_time").get<double>(), st.end_time());
  EXPECT_DOUBLE_EQ(j.at("sojourn_time").get<double>(), st.sojourn_time());
  EXPECT_DOUBLE_EQ(j.at("share").get<double>(), st.share());
}

// The measured shuffle rates: a job's is the bytes the workers' shuffle servers reported
// sending for it over the last 2 s (over the shuffle's own age while it is younger), the
// cluster's the sum over its jobs; the StatusReply, /api/jobs/ID and /api/cluster say the
// same, whatever the policy shares.
TEST_P(StatusFieldsTest, ShuffleRatesAreTheBytesServedOverTheLastTwoSeconds) {
  const uint32_t w = h_->AddWorker(1, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1, /*slow_start=*/0.0));
  h_->Beat(w);
  h_->FinishMaps(w);  // one map's output waits for the reducer
  EXPECT_EQ(h_->Status(job).shuffle_rate(), 0) << "nothing served yet";
  const double t = h_->clock().Now();
  h_->clock().Advance(1);
  proto::Heartbeat served;  // the worker sent 1 MB for the job over the last second
  served.set_served_since(t);
  served.set_served_until(t + 1);
  served.set_shuffle_bytes_sent(1e6);
  proto::ServedBytes* e = served.add_served();
  e->set_job_id(job);
  e->set_bytes(1000000);
  h_->Beat(w, {}, served);
  EXPECT_NEAR(h_->Status(job).shuffle_rate(), 1e6, 1) << "1 MB over the shuffle's 1 s of age";
  auto conn = h_->Connect("client");
  proto::Envelope in;
  in.mutable_status();
  EXPECT_NEAR(h_->handler().Handle(*conn, in).reply.status_reply().shuffle_rate(), 1e6, 1);
  auto api = h_->tracker().ApiGet("/api/jobs/" + JobIdString(job));
  ASSERT_TRUE(api.ok());
  EXPECT_NEAR(nlohmann::json::parse(*api).at("shuffle_rate").get<double>(), 1e6, 1);
  auto cluster = h_->tracker().ApiGet("/api/cluster");
  ASSERT_TRUE(cluster.ok());
  EXPECT_NEAR(nlohmann::json::parse(*cluster).at("shuffle_rate").get<double>(), 1e6, 1);
  h_->clock().Advance(1);
  EXPECT_NEAR(h_->Status(job).shuffle_rate(), 5e5, 1) << "the same 1 MB over the 2 s window";
  h_->clock().Advance(2);
  EXPECT_EQ(h_->Status(job).shuffle_rate(), 0) << "nothing served in the last 2 s";
  cluster = h_->tracker().ApiGet("/api/cluster");
  EXPECT_EQ(nlohmann::json::parse(*cluster).at("shuffle_rate").get<double>(), 0);
}

// "Fetched" (shuffle_bytes_fetched, the shuffle's progress) counts the bytes the reducers'
// fetches in flight have received so far, as their workers report them, so it moves while
// bytes flow (the measured rate does); a fetch's bytes move from in flight to finished
// without being counted twice, and a reducer that is ready counts nothing in flight. Failed
// before the master read TaskReport.shuffle_bytes_in_flight: "0 B fetched" at 60 B received.
TEST_P(StatusFieldsTest, FetchedCountsTheBytesOfFetchesInFlight) {
  const uint32_t w = h_->AddWorker(1, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1, /*slow_start=*/0.0));
  h_->Beat(w);
  h_->FinishMaps(w);  // 100 bytes for the reducer
  ASSERT_EQ(h_->worker(w).placed.size(), 1u);
  const proto::Assignment placed = h_->worker(w).placed[0];
  proto::TaskReport r = h_->ReduceReport(placed, proto::FETCHING, 0);
  r.set_shuffle_bytes_in_flight(60);
  h_->Beat(w, {r});
  proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(st.shuffle_bytes_fetched(), 60u);
  EXPECT_GT(st.shuffle_progress(), 0.0);
  auto api = h_->tracker().ApiGet("/api/jobs/" + JobIdString(job));
  ASSERT_TRUE(api.ok());
  EXPECT_EQ(nlohmann::json::parse(*api).at("shuffle_bytes_fetched").get<uint64_t>(), 60u);
  EXPECT_DOUBLE_EQ(st.shuffle_bytes_waiting(), 100.0) << "waiting is the policy's view: finished fetches only";
  r = h_->ReduceReport(placed, proto::FETCHING, 1);  // the fetch ended: 100 finished, none in flight
  r.set_shuffle_bytes(100);
  h_->Beat(w, {r});
  EXPECT_EQ(h_->Status(job).shuffle_bytes_fetched(), 100u);
  h_->Beat(w);
  h_->FinishMaps(w);  // the second map: 100 more bytes
  r = h_->ReduceReport(placed, proto::FETCHING, 1);
  r.set_shuffle_bytes(100);
  r.set_shuffle_bytes_in_flight(30);
  h_->Beat(w, {r});
  EXPECT_EQ(h_->Status(job).shuffle_bytes_fetched(), 130u);
  r = h_->ReduceReport(placed, proto::READY, 2);
  r.set_shuffle_bytes(200);
  r.set_shuffle_bytes_in_flight(30);  // a ready reducer has nothing in flight, whatever it says
  h_->Beat(w, {r});
  st = h_->Status(job);
  EXPECT_EQ(st.shuffle_bytes_fetched(), 200u);
  EXPECT_DOUBLE_EQ(st.shuffle_progress(), 1.0);
}

// Reports the first durations.size() maps w runs as succeeded, map i after durations[i]
// seconds (worker clock), each with combine counters (in, out).
void FinishMapsTaking(TrackerHarness& h, uint32_t w, const std::vector<double>& durations,
                      std::pair<int64_t, int64_t> combine = {0, 0}) {
  std::vector<proto::TaskReport> reports;
  EXPECT_GE(h.worker(w).maps.size(), durations.size());
  for (size_t i = 0; i < std::min(durations.size(), h.worker(w).maps.size()); ++i) {
    proto::TaskReport r = TrackerHarness::MapReport(h.worker(w).maps[i], proto::SUCCEEDED);
    r.set_start_time(1000);
    r.set_end_time(1000 + durations.at(i));
    for (auto [name, v] : {std::pair{"combine.records_in", combine.first}, {"combine.records_out", combine.second}}) {
      proto::Counter* c = r.add_counters();
      c->set_name(name);
      c->set_value(v);
    }
    reports.push_back(std::move(r));
  }
  auto& maps = h.worker(w).maps;
  maps.erase(maps.begin(), maps.begin() + static_cast<std::ptrdiff_t>(reports.size()));
  h.Beat(w, std::move(reports));
}

nlohmann::json WorkerJson(TrackerHarness& h, uint32_t w) {
  auto api = h.tracker().ApiGet("/api/workers");
  EXPECT_TRUE(api.ok());
  for (const auto& row : nlohmann::json::parse(*api)) {
    if (row.at("id") == w) return row;
  }
  ADD_FAILURE() << "no worker " << w << " in " << *api;
  return {};
}

proto::WorkerRow WorkerRowOf(TrackerHarness& h, uint32_t w) {
  auto conn = h.Connect("client");
  proto::Envelope in;
  in.mutable_status();
  const proto::StatusReply r = h.handler().Handle(*conn, in).reply.status_reply();
  for (const auto& row : r.worker_rows()) {
    if (row.id() == w) return row;
  }
  ADD_FAILURE() << "no worker row " << w;
  return {};
}

// A worker's SPEED is the speed it registered with; MAP RATE (map_task_rate) the maps it
// finished per second of map-slot time, i.e. their count over the sum of their durations
// (the last 16; a failed attempt does not count), 0 before any; QUEUED (queued_maps) 0 under
// pull placement, whatever waits; its heartbeat age is now minus last_heartbeat, the master's
// clock at its last heartbeat. The StatusReply row and /api/workers say the same.
TEST_P(StatusFieldsTest, WorkerSpeedMapRateQueuedAndHeartbeatMeanTheSameUnderEveryPolicy) {
  const uint32_t w = h_->AddWorker(2, 1);
  h_->Submit(h_->SyntheticSpec(5, 1));
  EXPECT_EQ(WorkerRowOf(*h_, w).map_task_rate(), 0.0) << "no map finished yet";
  h_->Beat(w);
  ASSERT_EQ(h_->worker(w).maps.size(), 2u);
  EXPECT_EQ(WorkerRowOf(*h_, w).queued_maps(), 0u) << "3 maps pending, none queued at a worker under pull";
  FinishMapsTaking(*h_, w, {2.0, 4.0});
  ASSERT_EQ(h_->worker(w).maps.size(), 2u);
  // A failed attempt of 100 s is not a map finished.
  proto::TaskReport failed = TrackerHarness::MapReport(h_->worker(w).maps[0], proto::FAILED);
  failed.set_end_time(1100);
  h_->worker(w).maps.erase(h_->worker(w).maps.begin());
  h_->Beat(w, {failed});
  const double rate = 2.0 / (2.0 + 4.0);
  proto::WorkerRow row = WorkerRowOf(*h_, w);
  EXPECT_NEAR(row.map_task_rate(), rate, 1e-12);
  EXPECT_NEAR(WorkerJson(*h_, w).at("map_task_rate").get<double>(), rate, 1e-12);
  FinishMapsTaking(*h_, w, {0.5});
  EXPECT_NEAR(WorkerRowOf(*h_, w).map_task_rate(), 3.0 / 6.5, 1e-12);
  EXPECT_DOUBLE_EQ(row.speed(), h_->worker(w).registration.speed());
  EXPECT_DOUBLE_EQ(WorkerJson(*h_, w).at("speed").get<double>(), h_->worker(w).registration.speed());
  EXPECT_EQ(WorkerJson(*h_, w).at("queued_maps"), 0);
  const double beat = h_->clock().Now();
  h_->Beat(w);
  h_->clock().Advance(3);
  EXPECT_DOUBLE_EQ(WorkerJson(*h_, w).at("last_heartbeat").get<double>(), beat) << "3 s old, not moved";
  h_->Beat(w);
  EXPECT_DOUBLE_EQ(WorkerJson(*h_, w).at("last_heartbeat").get<double>(), beat + 3);
}

// The job's counters are the sum over its committed attempts (a failed attempt's are not
// in them), the same in the StatusReply and /api/jobs/ID; the combine ratio is
// combine.records_out / combine.records_in over them, null while no combiner ran.
TEST_P(StatusFieldsTest, CountersSumTheCommittedAttemptsAndTheCombineRatioIsTheirQuotient) {
  const uint32_t w = h_->AddWorker(1, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(3, 1));
  auto api = [&] { return nlohmann::json::parse(*h_->tracker().ApiGet("/api/jobs/" + JobIdString(job))); };
  EXPECT_TRUE(api().at("combine_ratio").is_null());
  h_->Beat(w);
  FinishMapsTaking(*h_, w, {1.0}, {10, 4});
  ASSERT_EQ(h_->worker(w).maps.size(), 1u);
  proto::TaskReport failed = TrackerHarness::MapReport(h_->worker(w).maps[0], proto::FAILED);
  proto::Counter* c = failed.add_counters();
  c->set_name("combine.records_in");
  c->set_value(1000);
  h_->worker(w).maps.clear();
  h_->Beat(w, {failed});
  ASSERT_EQ(h_->worker(w).maps.size(), 1u) << "the map runs again";
  FinishMapsTaking(*h_, w, {1.0}, {30, 6});
  h_->Beat(w);
  FinishMapsTaking(*h_, w, {1.0}, {0, 0});
  std::map<std::string, int64_t> counters;
  const proto::JobStatus st = h_->Status(job);
  for (const auto& k : st.counters()) counters[k.name()] = k.value();
  EXPECT_EQ(counters["combine.records_in"], 40);
  EXPECT_EQ(counters["combine.records_out"], 10);
  const nlohmann::json j = api();
  EXPECT_EQ(j.at("counters").at("combine.records_in"), 40);
  EXPECT_EQ(j.at("counters").at("combine.records_out"), 10);
  EXPECT_NEAR(j.at("combine_ratio").get<double>(), 10.0 / 40.0, 1e-12);
  EXPECT_NEAR(CombineRatio(st).value_or(-1), 0.25, 1e-12);
}

// The cluster's slot cards are sums over the workers (map_slots, reduce_slots), and their busy
// counts the attempts the workers run (each worker row's running_map); heartbeats counts the
// heartbeats handled, and each timings histogram holds one time per heartbeat (heartbeat_us)
// and per scheduling round (round_us; a heartbeat whose worker has a free slot and work
// runs one), whatever the policy.
TEST_P(StatusFieldsTest, ClusterSlotsBusyHeartbeatsAndTimingsMeanTheSameUnderEveryPolicy) {
  const uint32_t a = h_->AddWorker(2, 1);
  const uint32_t b = h_->AddWorker(1, 2);
  h_->Submit(h_->SyntheticSpec(5, 1));
  auto cluster = [&] { return nlohmann::json::parse(*h_->tracker().ApiGet("/api/cluster")); };
  auto count = [](const nlohmann::json& histogram) {
    int64_t n = 0;
    for (const auto& bucket : histogram) n += bucket.at(1).get<int64_t>();
    return n;
  };
  nlohmann::json c = cluster();
  EXPECT_EQ(c.at("map_slots"), 3);
  EXPECT_EQ(c.at("reduce_slots"), 3);
  EXPECT_EQ(c.at("map_busy"), 0);
  const int64_t beats = c.at("heartbeats").get<int64_t>();
  const int64_t timed = count(c.at("timings").at("heartbeat_us"));
  const int64_t rounds = count(c.at("timings").at("round_us"));
  h_->Beat(a);
  h_->Beat(b);
  c = cluster();
  EXPECT_EQ(c.at("heartbeats").get<int64_t>(), beats + 2);
  EXPECT_EQ(count(c.at("timings").at("heartbeat_us")), timed + 2) << "one time per heartbeat";
  EXPECT_EQ(count(c.at("timings").at("round_us")), rounds + 2) << "free map slots and pending maps: a round each";
  ASSERT_EQ(h_->worker(a).maps.size() + h_->worker(b).maps.size(), 3u) << "5 maps pending, 3 map slots";
  EXPECT_EQ(c.at("map_busy"), 3);
  EXPECT_EQ(WorkerJson(*h_, a).at("running_map"), h_->worker(a).maps.size());
  EXPECT_EQ(WorkerJson(*h_, b).at("running_map"), h_->worker(b).maps.size());
  FinishMapsTaking(*h_, a, {1.0});  // one ends; the same heartbeat may start another
  c = cluster();
  EXPECT_EQ(c.at("map_busy"), h_->worker(a).maps.size() + h_->worker(b).maps.size());
  EXPECT_EQ(WorkerRowOf(*h_, a).running_map(), h_->worker(a).maps.size());
  EXPECT_EQ(c.at("heartbeats").get<int64_t>(), beats + 3);
}

// A worker's shuffle_bandwidth is the cap it registered with (0 = none) and the cluster's
// shuffle_capacity their sum, whatever the policy.
TEST_P(StatusFieldsTest, ShuffleBandwidthIsTheRegisteredCapAndCapacityTheirSum) {
  const uint32_t uncapped = h_->AddWorker(1, 1);
  proto::RegisterWorker capped;
  capped.set_host("127.0.0.2");
  capped.set_shuffle_port(7001);
  capped.set_map_slots(1);
  capped.set_reduce_slots(1);
  capped.set_speed(1);
  capped.set_shuffle_bandwidth(5e6);
  Result<proto::RegisterReply> reg = h_->tracker().Register(capped);
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  EXPECT_DOUBLE_EQ(WorkerJson(*h_, uncapped).at("shuffle_bandwidth").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(WorkerJson(*h_, reg->worker_id()).at("shuffle_bandwidth").get<double>(), 5e6);
  const nlohmann::json c = nlohmann::json::parse(*h_->tracker().ApiGet("/api/cluster"));
  EXPECT_DOUBLE_EQ(c.at("shuffle_capacity").get<double>(), 5e6);
}

// A task's status line (a streaming program's reporter:status:) shows as "TASK: LINE" in
// task_status_lines, absent while none is set; last_failed_attempt names the latest failed
// attempt (task, attempt, worker, master time, error, stderr tail), null before any, the
// same in the StatusReply and /api/jobs/ID, whatever the policy.
TEST_P(StatusFieldsTest, TaskStatusLinesAndTheLastFailedAttemptMeanTheSameUnderEveryPolicy) {
  const uint32_t w = h_->AddWorker(2, 1);
  const uint64_t job = h_->Submit(h_->SyntheticSpec(3, 1));
  auto api = [&] { return nlohmann::json::parse(*h_->tracker().ApiGet("/api/jobs/" + JobIdString(job))); };
  EXPECT_FALSE(api().contains("task_status_lines"));
  EXPECT_TRUE(api().at("last_failed_attempt").is_null());
  EXPECT_FALSE(h_->Status(job).has_last_failed_attempt());
  h_->Beat(w);
  ASSERT_EQ(h_->worker(w).maps.size(), 2u);
  const proto::Assignment first = h_->worker(w).maps[0];
  proto::TaskReport running = TrackerHarness::MapReport(first, proto::RUNNING);
  running.set_task_status("reading 3/10");
  h_->Beat(w, {running});
  const std::string task = TaskIdString(sched::TaskKind::kMap, static_cast<int>(first.index()));
  proto::JobStatus st = h_->Status(job);
  ASSERT_EQ(st.task_status_lines_size(), 1);
  EXPECT_EQ(st.task_status_lines(0), task + ": reading 3/10");
  EXPECT_EQ(api().at("task_status_lines"), nlohmann::json::array({task + ": reading 3/10"}));
  proto::TaskReport failed = TrackerHarness::MapReport(first, proto::FAILED);
  failed.set_error("exit status 1");
  failed.set_stderr_tail("boom\n");
  h_->worker(w).maps.erase(h_->worker(w).maps.begin());
  h_->clock().Advance(2);
  const double failed_at = h_->clock().Now();
  h_->Beat(w, {failed});
  st = h_->Status(job);
  ASSERT_TRUE(st.has_last_failed_attempt());
  const proto::FailedAttempt& f = st.last_failed_attempt();
  EXPECT_EQ(f.task(), task);
  EXPECT_EQ(f.attempt(), first.attempt());
  EXPECT_EQ(f.worker(), w);
  EXPECT_DOUBLE_EQ(f.time(), failed_at);
  EXPECT_EQ(f.error(), "exit status 1");
  EXPECT_EQ(f.stderr_tail(), "boom\n");
  const nlohmann::json j = api().at("last_failed_attempt");
  EXPECT_EQ(j.at("task"), task);
  EXPECT_EQ(j.at("attempt"), first.attempt());
  EXPECT_EQ(j.at("worker"), w);
  EXPECT_DOUBLE_EQ(j.at("time").get<double>(), failed_at);
  EXPECT_EQ(j.at("error"), "exit status 1");
  EXPECT_EQ(j.at("stderr_tail"), "boom\n");
}

INSTANTIATE_TEST_SUITE_P(FifoAndSrpt, StatusFieldsTest, ::testing::Values("fifo", "maxsrpt"));

// The allocation lines of an allocating policy (flex, 1 s epochs): each running job's latest
// allocation per pool, computed at an epoch's round (time = that instant); its slots within
// its [min, max]; the pool's allocations within the pool's slots; the places a permutation of
// 1..jobs; the predicted completion no earlier than the computation. Under fifo and maxsrpt
// there are none (the other tests' policies allocate nothing).
TEST(FlexStatusFieldsTest, AllocationLinesAreTheLatestEpochsPlanWithinTheBounds) {
  TempDir dir("mr-status-fields-flex-test");
  for (const char* policy : {"fifo", "maxsrpt"}) {
    auto scheduler = sched::CreateScheduler(policy);
    ASSERT_TRUE(scheduler.ok());
    TrackerHarness h(dir.path() + "/" + policy, std::move(*scheduler));
    const uint32_t w = h.AddWorker(2, 1);
    const uint64_t job = h.Submit(h.SyntheticSpec(4, 1));
    h.Beat(w);
    h.clock().Advance(2);
    h.Beat(w);
    EXPECT_EQ(h.Status(job).allocations_size(), 0) << policy;
  }
  auto flex = sched::CreateScheduler("flex");
  ASSERT_TRUE(flex.ok());
  TrackerHarness h(dir.path() + "/flex", std::move(*flex));
  const uint32_t w = h.AddWorker(3, 2);
  const uint64_t a = h.Submit(h.SyntheticSpec(6, 1));
  const uint64_t b = h.Submit(h.SyntheticSpec(6, 1));
  h.Beat(w);
  h.clock().Advance(1.5);
  const double epoch = h.clock().Now();
  h.Beat(w);
  std::map<std::string, std::vector<proto::PolicyAllocation>> pools;
  for (uint64_t job : {a, b}) {
    const proto::JobStatus st = h.Status(job);
    ASSERT_GT(st.allocations_size(), 0) << JobIdString(job) << " has no allocation after an epoch";
    for (const proto::PolicyAllocation& x : st.allocations()) {
      EXPECT_LE(x.min_slots(), x.slots()) << x.DebugString();
      EXPECT_LE(x.slots(), x.max_slots()) << x.DebugString();
      EXPECT_LE(x.time(), epoch) << "computed at a round that happened";
      EXPECT_GE(x.time(), st.submit_time());
      EXPECT_GE(x.completion(), x.time()) << "a completion predicted before its computation";
      EXPECT_EQ(x.metric(), "response-time");
      pools[x.slot()].push_back(x);
    }
    auto api = h.tracker().ApiGet("/api/jobs/" + JobIdString(job));
    ASSERT_TRUE(api.ok());
    const nlohmann::json j = nlohmann::json::parse(*api).at("allocations");
    ASSERT_EQ(j.size(), static_cast<size_t>(st.allocations_size()));
    for (size_t i = 0; i < j.size(); ++i) {
      EXPECT_EQ(j[i].at("slots"), st.allocations(static_cast<int>(i)).slots());
      EXPECT_EQ(j[i].at("rank"), st.allocations(static_cast<int>(i)).rank());
      EXPECT_DOUBLE_EQ(j[i].at("completion").get<double>(), st.allocations(static_cast<int>(i)).completion());
    }
  }
  const std::map<std::string, uint32_t> capacity = {{"map", 3}, {"reduce", 2}};
  for (const auto& [slot, list] : pools) {
    ASSERT_TRUE(capacity.contains(slot)) << slot;
    uint32_t total = 0;
    std::vector<uint32_t> ranks;
    for (const auto& x : list) {
      total += x.slots();
      ranks.push_back(x.rank());
    }
    EXPECT_LE(total, capacity.at(slot)) << "the " << slot << " pool's allocations exceed its slots";
    std::sort(ranks.begin(), ranks.end());
    for (size_t i = 0; i < ranks.size(); ++i) EXPECT_EQ(ranks[i], i) << slot << ": places are 1..jobs";
  }
}

}  // namespace
}  // namespace mr::master

// `mr logs`' question to the master (TaskAttemptsRequest): where each attempt of a job ran,
// from its trace, with that worker's name and shuffle server.
namespace mr::master {
namespace {

TEST(TaskAttemptsTest, TheMasterSaysWhereEachAttemptRan) {
  TempDir dir("mr-task-attempts-test");
  auto policy = sched::CreateScheduler("fifo");
  ASSERT_TRUE(policy.ok());
  testing::TrackerHarness h(dir.path(), std::move(*policy));
  const uint32_t w = h.AddWorker(1, 1);
  const uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  for (int i = 0; i < 2; ++i) {
    h.Beat(w);
    h.FinishMaps(w);
  }
  h.RunReduces(w);
  ASSERT_EQ(h.Status(job).state(), "SUCCEEDED");
  auto conn = h.Connect("client");
  // The answer is deferred (the trace is parsed off the state thread); with no offload the
  // harness's tracker sends it at once.
  auto ask = [&](const proto::Envelope& in) {
    HandlerOutcome out = h.handler().Handle(*conn, in);
    EXPECT_TRUE(out.deferred);
    if (out.deferred) out.deferred([&](proto::Envelope reply) { out.reply = std::move(reply); });
    return out;
  };
  proto::Envelope in;
  in.mutable_task_attempts()->set_job_id(job);
  HandlerOutcome out = ask(in);
  ASSERT_TRUE(out.reply.has_task_attempts_reply()) << out.reply.error().message();
  const auto& attempts = out.reply.task_attempts_reply().attempts();
  ASSERT_EQ(attempts.size(), 3) << out.reply.DebugString();
  EXPECT_EQ(attempts[0].task(), "m-00000");
  EXPECT_EQ(attempts[1].task(), "m-00001");
  EXPECT_EQ(attempts[2].task(), "r-00000");
  for (const auto& a : attempts) {
    EXPECT_EQ(a.worker(), w);
    EXPECT_EQ(a.state(), "SUCCEEDED") << a.task();
    EXPECT_FALSE(a.worker_name().empty());
    EXPECT_GT(a.port(), 0u);
  }
  in.mutable_task_attempts()->set_task("r-00000");
  out = ask(in);
  ASSERT_EQ(out.reply.task_attempts_reply().attempts_size(), 1);
  in.mutable_task_attempts()->set_task("x-1");
  out = ask(in);
  EXPECT_FALSE(out.reply.has_task_attempts_reply());
  EXPECT_NE(out.reply.error().message().find("bad task 'x-1'"), std::string::npos) << out.reply.error().message();
}

}  // namespace
}  // namespace mr::master
