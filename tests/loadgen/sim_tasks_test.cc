// SimTasks, the work of one simulated worker (loadgen/sim_tasks.h), on made-up replies and
// a virtual clock; and LogHistogram, the histogram the master's timings and mr loadgen
// share (common/log_histogram.h).
#include "loadgen/sim_tasks.h"

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "common/log_histogram.h"

namespace mr::loadgen {
namespace {

proto::Assignment Map(uint64_t job, uint32_t index, uint32_t reducers) {
  proto::Assignment a;
  a.set_job_id(job);
  a.set_kind(proto::MAP);
  a.set_index(index);
  a.set_attempt(1);
  a.mutable_spec()->set_job("synthetic");
  a.mutable_spec()->set_reducers(reducers);
  (*a.mutable_spec()->mutable_params())["map_seconds"] = "0.5";
  (*a.mutable_spec()->mutable_params())["map_bytes"] = "1000";
  return a;
}

TEST(SimTasksTest, AMapRunsItsJobsTimeAndAnnouncesItsPartitions) {
  SimTasks t(SimTaskOptions{.map_slots = 1, .reduce_slots = 1});
  proto::HeartbeatReply reply;
  *reply.add_assignments() = Map(7, 3, 4);
  EXPECT_FALSE(t.Apply(reply, 100.0));
  proto::Heartbeat busy;
  t.Fill(&busy, 100.1);
  EXPECT_EQ(busy.free_map_slots(), 0u);
  EXPECT_EQ(busy.free_reduce_slots(), 1u);
  EXPECT_FALSE(t.Finish(100.4));  // the job's map_seconds (0.5), not the default
  EXPECT_DOUBLE_EQ(t.NextEnd(), 100.5);
  EXPECT_TRUE(t.Finish(100.5));
  proto::Heartbeat hb;
  t.Fill(&hb, 100.5);
  EXPECT_EQ(hb.free_map_slots(), 1u);
  ASSERT_EQ(hb.reports_size(), 1);
  const proto::TaskReport& r = hb.reports(0);
  EXPECT_EQ(r.state(), proto::SUCCEEDED);
  EXPECT_EQ(r.job_id(), 7u);
  EXPECT_EQ(r.index(), 3u);
  EXPECT_EQ(r.attempt(), 1u);
  EXPECT_DOUBLE_EQ(r.start_time(), 100.0);
  EXPECT_DOUBLE_EQ(r.end_time(), 100.5);
  EXPECT_EQ(r.bytes_out(), 1000u);
  ASSERT_EQ(r.partition_bytes_size(), 4);
  for (uint64_t p : r.partition_bytes()) EXPECT_EQ(p, 250u);
  // The finished output is offered at the next registration.
  std::vector<proto::HeldMapOutput> held = t.Void();
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].job_id(), 7u);
  EXPECT_EQ(held[0].map(), 3u);
}

TEST(SimTasksTest, AReducerFetchesEachLocationOnceThenRunsAndWritesItsPart) {
  TempDir dir("mr-sim-tasks");
  SimTasks t(SimTaskOptions{.map_slots = 1, .reduce_slots = 1, .reduce_seconds = 0.2});
  proto::HeartbeatReply place;
  proto::Assignment* p = place.add_assignments();
  p->set_job_id(7);
  p->set_kind(proto::REDUCE);
  p->set_index(1);
  p->set_place_only(true);
  p->set_num_maps(2);
  p->mutable_spec()->set_reducers(4);
  t.Apply(place, 10);
  proto::HeartbeatReply locs;
  for (uint32_t m = 0; m < 2; ++m) {
    proto::MapOutputLocation* l = locs.add_map_outputs();
    l->set_job_id(7);
    l->set_map_index(m);
    l->set_attempt(1);
    l->set_worker_id(5);
    l->set_partition_bytes(1000);
  }
  *locs.add_map_outputs() = locs.map_outputs(0);  // a repeated location fetches nothing more
  EXPECT_TRUE(t.Apply(locs, 11));                  // READY: heartbeat at once
  proto::Heartbeat hb;
  t.Fill(&hb, 11);
  ASSERT_EQ(hb.fetches_size(), 2);
  EXPECT_EQ(hb.fetches(0).bytes(), 250u);
  EXPECT_TRUE(hb.fetches(0).ok());
  ASSERT_EQ(hb.reports_size(), 1);
  EXPECT_EQ(hb.reports(0).state(), proto::READY);
  EXPECT_EQ(hb.reports(0).maps_fetched(), 2u);
  EXPECT_EQ(hb.reports(0).shuffle_bytes(), 500u);

  proto::HeartbeatReply run;
  proto::Assignment* a = run.add_assignments();
  a->set_job_id(7);
  a->set_kind(proto::REDUCE);
  a->set_index(1);
  a->set_attempt(2);
  a->set_temp_output(dir.path() + "/out/_temporary/attempt-r-00001-2/part-r-00001");
  t.Apply(run, 12);
  EXPECT_TRUE(t.Finish(12.2));
  proto::Heartbeat done;
  t.Fill(&done, 12.2);
  ASSERT_EQ(done.reports_size(), 1);
  EXPECT_EQ(done.reports(0).state(), proto::SUCCEEDED);
  EXPECT_EQ(done.reports(0).bytes_in(), 500u);
  EXPECT_TRUE(PathExists(a->temp_output()));
  EXPECT_EQ(t.counts().reduces_succeeded, 1u);
}

TEST(SimTasksTest, KillsEndAttemptsKilledAndFinishedJobsLeaveNothing) {
  SimTasks t(SimTaskOptions{.map_slots = 2});
  proto::HeartbeatReply reply;
  *reply.add_assignments() = Map(7, 0, 1);
  *reply.add_assignments() = Map(8, 0, 1);
  t.Apply(reply, 0);
  proto::HeartbeatReply kill;
  proto::KillTask* k = kill.add_kills();
  k->set_job_id(7);
  k->set_kind(proto::MAP);
  k->set_index(0);
  k->set_attempt(1);
  kill.add_finished_jobs(8);
  t.Apply(kill, 0.1);
  EXPECT_EQ(t.running(), 0u);
  proto::Heartbeat hb;
  t.Fill(&hb, 0.1);
  ASSERT_EQ(hb.reports_size(), 1);
  EXPECT_EQ(hb.reports(0).state(), proto::KILLED);
  EXPECT_EQ(hb.reports(0).job_id(), 7u);
  // A late assignment of the finished job is ignored.
  proto::HeartbeatReply late;
  *late.add_assignments() = Map(8, 1, 1);
  t.Apply(late, 0.2);
  EXPECT_EQ(t.running(), 0u);
}

TEST(LogHistogramTest, AQuantileIsTheUpperBoundOfItsBucketNeverBelowTheValue) {
  for (double v : {0.5, 1.0, 1.1, 3.0, 100.0, 999.0, 1e6}) {
    const int b = LogHistogram::BucketOf(v);
    EXPECT_GT(LogHistogram::UpperBound(b), v) << v;
    EXPECT_LE(LogHistogram::UpperBound(b), std::max(1.0, v) * (1 + 1.0 / LogHistogram::kSubBuckets) + 1e-9) << v;
  }
  LogHistogram h;
  for (int i = 1; i <= 100; ++i) h.Add(i);  // 1..100 µs
  EXPECT_EQ(h.count(), 100u);
  EXPECT_GE(h.Quantile(0.5), 50);
  EXPECT_LE(h.Quantile(0.5), 50 * 1.125);
  EXPECT_GE(h.Quantile(0.99), 99);
  EXPECT_LE(h.Quantile(0.99), 99 * 1.125);
  // A window: the later reading less the earlier one.
  LogHistogram earlier = h;
  for (int i = 0; i < 10; ++i) h.Add(5000);
  h.Subtract(earlier);
  EXPECT_EQ(h.count(), 10u);
  EXPECT_GE(h.Quantile(0.5), 5000);
  EXPECT_EQ(LogHistogram().Quantile(0.99), 0);
}

}  // namespace
}  // namespace mr::loadgen
