// Issue 11: an assignment carries its job's spec, and a spec can be large (a long
// streaming command here; sort cut points sampled from huge lines before they were
// bounded). A heartbeat reply over the frame limit made every worker that received it
// drop the connection and re-register, uncounted, forever. Now no reply exceeds the
// limit, and an assignment that cannot fit fails its attempt with the reason.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/clock.h"
#include "common/file_util.h"
#include "master/job_tracker.h"
#include "master/message_checks.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {
namespace {

TEST(AssignmentSizeTest, OversizedAssignmentFailsItsAttemptsNotTheConnection) {
  TempDir dir("mr-assignment-size-test");
  ASSERT_TRUE(MakeDirs(JoinPath(dir.path(), "state/traces")).ok());
  const std::string input = JoinPath(dir.path(), "in.txt");
  ASSERT_TRUE(WriteStringToFile(input, "a\nb\n").ok());
  auto scheduler = sched::CreateScheduler("fifo");
  ASSERT_TRUE(scheduler.ok());
  ManualClock clock(1000);
  TrackerOptions o;
  o.max_attempts = 3;
  o.worker_timeout = 1e9;
  JobTracker tracker(&clock, std::move(scheduler).value(), "fifo", JoinPath(dir.path(), "state"), nullptr, o);

  proto::RegisterWorker r;
  r.set_host("127.0.0.1");
  r.set_shuffle_port(1000);
  r.set_map_slots(1);
  r.set_reduce_slots(1);
  r.set_speed(1);
  auto reg = tracker.Register(r);
  ASSERT_TRUE(reg.ok());

  proto::JobSpec spec;
  spec.set_job("streaming");
  (*spec.mutable_params())["mapper"] = "cat # " + std::string(kMaxControlFrameBytes, 'x');
  spec.add_inputs(input);
  spec.set_reducers(1);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(1.0);
  spec.set_output(JoinPath(dir.path(), "out"));
  auto id = tracker.Submit(spec);
  ASSERT_TRUE(id.ok()) << id.status().ToString();

  std::string state = "RUNNING";
  for (int round = 0; round < 10 && state == "RUNNING"; ++round) {
    proto::Heartbeat hb;
    hb.set_worker_id(reg->worker_id());
    clock.Advance(1);
    auto reply = tracker.Heartbeat(hb);
    ASSERT_TRUE(reply.ok());
    proto::Envelope env;
    *env.mutable_heartbeat_reply() = *reply;
    EXPECT_LE(env.ByteSizeLong(), kMaxControlFrameBytes) << "a reply the worker cannot take";
    state = tracker.GetStatus(*id)->jobs(0).state();
  }
  auto st = tracker.GetStatus(*id);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->jobs(0).state(), "FAILED");
  EXPECT_NE(st->jobs(0).error().find("failed 3 times"), std::string::npos) << st->jobs(0).error();
  EXPECT_NE(st->jobs(0).error().find("message limit"), std::string::npos) << st->jobs(0).error();
}

}  // namespace
}  // namespace mr::master
