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

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/job_id.h"
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

INSTANTIATE_TEST_SUITE_P(FifoAndSrpt, StatusFieldsTest, ::testing::Values("fifo", "maxsrpt"));

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
