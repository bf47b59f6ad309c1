// A job's status fields, given a meaning under every policy by issue 32, checked under fifo
// (orders by arrival, reads no size estimate) and maxsrpt (an SRPT policy that does), on a
// JobTracker driven through its RequestHandler on a manual clock (status_fields_fixture.h):
//   - estimate_ignored: the policy reads no estimate (the views say "n/a under fifo");
//   - shuffle_bytes_waiting: map output the placed reducers may fetch now and have not (what
//     the share applies to; the views show "-" for the share when it is 0);
//   - times, sojourn and share; the measured shuffle_rate in /api/jobs/ID, /api/cluster and
//     the StatusReply; "fetched" with the fetches in flight; the counters; the task status
//     lines and the last failed attempt; an allocating policy's allocation lines.
// A worker's and the cluster's fields: worker_status_fields_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

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

class StatusFieldsTest : public testing::StatusFieldsFixture {};

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
