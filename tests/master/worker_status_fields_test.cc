// A worker's and the cluster's status fields under every policy (fifo and maxsrpt), on a
// JobTracker driven through its RequestHandler on a manual clock (status_fields_fixture.h):
// worker rows' name (the worker's name label, else its host), speed, map rate, queued maps and
// heartbeat age; the cluster's slot cards, heartbeats and timings; the registered shuffle
// bandwidth and the cluster's capacity; and where each attempt of a job ran (`mr logs`).
// A job's fields: status_fields_test.cc.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/job_id.h"
#include "master/job.h"
#include "master/status_json.h"
#include "scheduler/scheduler.h"
#include "tests/master/status_fields_fixture.h"

namespace mr::master {
namespace {

using testing::FinishMapsTaking;
using testing::TrackerHarness;
using testing::WorkerJson;
using testing::WorkerRowOf;

class WorkerStatusFieldsTest : public testing::StatusFieldsFixture {};

TEST_P(WorkerStatusFieldsTest, AWorkerIsNamedByItsNameLabelElseItsHost) {
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

// A worker's SPEED is the speed it registered with; MAP RATE (map_task_rate) the maps it
// finished per second of map-slot time, i.e. their count over the sum of their durations
// (the last 16; a failed attempt does not count), 0 before any; QUEUED (queued_maps) 0 under
// pull placement, whatever waits; its heartbeat age is now minus last_heartbeat, the master's
// clock at its last heartbeat. The StatusReply row and /api/workers say the same.
TEST_P(WorkerStatusFieldsTest, WorkerSpeedMapRateQueuedAndHeartbeatMeanTheSameUnderEveryPolicy) {
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

// The cluster's slot cards are sums over the workers (map_slots, reduce_slots), and their busy
// counts the attempts the workers run (each worker row's running_map); heartbeats counts the
// heartbeats handled, and each timings histogram holds one time per heartbeat (heartbeat_us)
// and per scheduling round (round_us; a heartbeat whose worker has a free slot and work
// runs one), whatever the policy.
TEST_P(WorkerStatusFieldsTest, ClusterSlotsBusyHeartbeatsAndTimingsMeanTheSameUnderEveryPolicy) {
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
TEST_P(WorkerStatusFieldsTest, ShuffleBandwidthIsTheRegisteredCapAndCapacityTheirSum) {
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

INSTANTIATE_TEST_SUITE_P(FifoAndSrpt, WorkerStatusFieldsTest, ::testing::Values("fifo", "maxsrpt"));

// `mr logs`' question to the master (TaskAttemptsRequest): where each attempt of a job ran,
// from its trace, with that worker's name and shuffle server.
TEST(TaskAttemptsTest, TheMasterSaysWhereEachAttemptRan) {
  TempDir dir("mr-task-attempts-test");
  TrackerHarness h(dir.path(), testing::Fifo());
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
