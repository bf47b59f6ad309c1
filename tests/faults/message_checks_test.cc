// The master's field checks on their own (master/message_checks.h): UTF-8, job specs,
// task reports against the job's shape, stderr tails, the gate between roles. The hostile
// peer tests (bad_peer_test.cc) go through the same checks on a live master.
#include "master/message_checks.h"

#include <cmath>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "common/status.h"
#include "jobs/subprocess.h"
#include "mr.pb.h"

namespace mr {
namespace {

TEST(MessageChecksTest, Utf8) {
  EXPECT_TRUE(master::IsValidUtf8("plain ascii"));
  EXPECT_TRUE(master::IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(master::IsValidUtf8("\xff"));
  EXPECT_FALSE(master::IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(master::IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(master::IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(master::IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

proto::JobSpec GoodSpec() {
  proto::JobSpec spec;
  spec.set_job("wordcount");
  spec.add_inputs("/data/in.txt");
  spec.set_output("/data/out");
  spec.set_reducers(2);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(0.05);
  spec.set_weight(1);
  return spec;
}

TEST(MessageChecksTest, JobSpec) {
  EXPECT_TRUE(master::CheckJobSpec(GoodSpec()).ok());
  for (const char* out : {"/", "relative", "/a/../b", "/a/./b", "/a//b", "/a/", "/a/.."}) {
    auto spec = GoodSpec();
    spec.set_output(out);
    EXPECT_EQ(master::CheckJobSpec(spec).code(), StatusCode::kInvalidArgument) << out;
  }
  auto nul = GoodSpec();
  nul.set_inputs(0, std::string("/etc/passwd\0.txt", 16));
  EXPECT_NE(master::CheckJobSpec(nul).message().find("NUL"), std::string::npos);
  auto nan = GoodSpec();
  nan.set_slow_start(std::nan(""));
  EXPECT_FALSE(master::CheckJobSpec(nan).ok());
  auto buffer = GoodSpec();
  buffer.set_sort_buffer_bytes(uint64_t{1} << 40);
  EXPECT_FALSE(master::CheckJobSpec(buffer).ok());
}

TEST(MessageChecksTest, ReportsAgainstTheJobShape) {
  proto::TaskReport r;
  r.set_kind(proto::REDUCE);
  r.set_state(proto::FETCHING);
  r.set_index(3);
  EXPECT_TRUE(master::CheckTaskReport(r, std::nullopt).ok());  // unknown job: generic bounds
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 3}).ok());
  EXPECT_TRUE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
  r.set_maps_fetched(11);
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
  r.set_maps_fetched(1);
  r.add_counters()->set_name(std::string(300, 'c'));
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
}

// A failed attempt's stderr tail is bounded (the worker keeps at most kStderrTailBytes) and
// must be clean text: a peer cannot make the master keep and persist more through it.
TEST(MessageChecksTest, StderrTailIsBoundedText) {
  proto::TaskReport r;
  r.set_kind(proto::MAP);
  r.set_state(proto::FAILED);
  r.set_stderr_tail(std::string(jobs::kStderrTailBytes, 'e'));
  EXPECT_TRUE(master::CheckTaskReport(r, std::nullopt).ok());
  r.set_stderr_tail(std::string(jobs::kStderrTailBytes + 1, 'e'));
  EXPECT_FALSE(master::CheckTaskReport(r, std::nullopt).ok());
  r.set_stderr_tail(std::string("a\0b", 3));
  EXPECT_FALSE(master::CheckTaskReport(r, std::nullopt).ok());
}

TEST(MessageChecksTest, GateKeepsRolesApart) {
  proto::Envelope reg;
  auto* w = reg.mutable_register_worker();
  w->set_host("10.0.0.7");
  w->set_shuffle_port(7000);
  w->set_map_slots(2);
  w->set_speed(1);
  master::PeerGate client("client");
  EXPECT_EQ(client.Check(reg, nullptr).code(), StatusCode::kPermissionDenied);
  master::PeerGate worker("worker");
  ASSERT_TRUE(worker.Check(reg, nullptr).ok());
  worker.Registered(9, *w);
  EXPECT_EQ(worker.Check(reg, nullptr).code(), StatusCode::kProtocolError);  // twice
  proto::Envelope hb;
  hb.mutable_heartbeat()->set_worker_id(9);
  hb.mutable_heartbeat()->set_free_map_slots(2);
  EXPECT_TRUE(worker.Check(hb, nullptr).ok());
  hb.mutable_heartbeat()->set_worker_id(8);
  EXPECT_EQ(worker.Check(hb, nullptr).code(), StatusCode::kPermissionDenied);
  w->set_host("evil host;rm");
  EXPECT_FALSE(master::CheckRegisterWorker(*w).ok());
}

// A kill names one job; the gate lets any authenticated peer send it (the tracker then
// answers NotFound or FailedPrecondition), but not without a job id.
TEST(MessageChecksTest, KillJobNeedsAJobId) {
  master::PeerGate client("client");
  proto::Envelope kill;
  kill.mutable_kill_job();
  EXPECT_EQ(client.Check(kill, nullptr).code(), StatusCode::kInvalidArgument);
  kill.mutable_kill_job()->set_job_id(4);
  EXPECT_TRUE(client.Check(kill, nullptr).ok());
  proto::Envelope reply;
  reply.mutable_kill_job_reply();
  EXPECT_EQ(client.Check(reply, nullptr).code(), StatusCode::kProtocolError) << "a reply is not a request";
}

}  // namespace
}  // namespace mr
