// Hostile peers past the handshake (the suite in bad_peer_fixture.h): a registration out of
// range or from a client, heartbeats for another worker, reports and a submit whose fields
// are out of range. Each is refused with the field named and the connection closed.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client/master_client.h"
#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "mr.pb.h"
#include "tests/faults/bad_peer_fixture.h"

namespace mr::badpeer {
namespace {

TEST_F(BadPeerTest, OutOfRangeRegistrationIsRefused) {
  auto p = Ready("worker");
  p->SendEnvelope(Registration(1000000));
  ExpectRefused(*p, StatusCode::kInvalidArgument, "slot counts");
  auto client = Ready("client");  // a client may not pose as a worker
  client->SendEnvelope(Registration(1));
  ExpectRefused(*client, StatusCode::kPermissionDenied, "only a worker may register");
}

TEST_F(BadPeerTest, HeartbeatsMaySpeakOnlyForTheRegisteredWorker) {
  auto unregistered = Ready("worker");
  proto::Envelope hb;
  hb.mutable_heartbeat()->set_worker_id(good_worker_id_);
  unregistered->SendEnvelope(hb);
  ExpectRefused(*unregistered, StatusCode::kProtocolError, "heartbeat before registration");
  uint32_t mine = 0;
  auto impostor = RegisteredWorker(&mine);
  ASSERT_NE(mine, good_worker_id_);
  impostor->SendEnvelope(hb);  // the good worker's id, from another connection
  ExpectRefused(*impostor, StatusCode::kPermissionDenied, "may not speak for worker");
}

TEST_F(BadPeerTest, OutOfRangeReportsAreRefused) {
  struct Case {
    std::function<void(proto::Heartbeat*)> fill;
    std::string mention;
  };
  const std::vector<Case> cases = {
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_index(1000000000); }, "task index"},
      // In range for any job, out of range for this one: checked against the job's shape.
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_index(job_maps_); }, "task index"},
      {[](proto::Heartbeat* hb) { hb->add_fetches()->set_reduce_index(1000000000); },
       "fetch reduce index"},
      {[](proto::Heartbeat* hb) {
         hb->add_reports()->set_state(static_cast<proto::TaskState>(99));
       },
       "task state"},
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_end_time(-1); }, "end_time"},
      {[](proto::Heartbeat* hb) { hb->set_free_map_slots(1000000); }, "free slots"},
      {[](proto::Heartbeat* hb) {
         hb->add_served()->set_bytes(10);
         hb->set_served_since(100);
         hb->set_served_until(50);  // ends before it starts
       },
       "served_until"},
      {[](proto::Heartbeat* hb) {
         hb->add_served()->set_bytes(uint64_t{1} << 60);
         hb->set_served_since(100);
         hb->set_served_until(101);
       },
       "served bytes"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mention);
    uint32_t mine = 0;
    auto p = RegisteredWorker(&mine);
    proto::Envelope env;
    proto::Heartbeat* hb = env.mutable_heartbeat();
    hb->set_worker_id(mine);
    c.fill(hb);
    for (auto& r : *hb->mutable_reports()) {  // otherwise-valid report about the good job
      r.set_job_id(job_id_);
      r.set_kind(proto::MAP);
      r.set_attempt(1);
      if (r.state() == proto::TASK_STATE_UNSPECIFIED) r.set_state(proto::SUCCEEDED);
    }
    for (auto& f : *hb->mutable_fetches()) f.set_job_id(job_id_);
    p->SendEnvelope(env);
    ExpectRefused(*p, StatusCode::kInvalidArgument, c.mention);
  }
}

TEST_F(BadPeerTest, OutOfRangeSubmitIsRefused) {
  auto p = Ready("client");
  proto::Envelope env;
  auto* spec = env.mutable_submit()->mutable_spec();
  spec->set_job("wordcount");
  spec->add_inputs(input_);
  spec->set_output(JoinPath(tmp_->path(), "evil/../out2"));
  spec->set_reducers(1);
  spec->set_split_bytes(1 << 20);
  p->SendEnvelope(env);
  ExpectRefused(*p, StatusCode::kInvalidArgument, "normalised");
  EXPECT_FALSE(PathExists(JoinPath(tmp_->path(), "out2")));
  auto q = Ready("client");
  spec->set_output(JoinPath(tmp_->path(), "out3"));
  spec->set_split_bytes(1);  // would be millions of map tasks
  q->SendEnvelope(env);
  ExpectRefused(*q, StatusCode::kInvalidArgument, "split size");
  EXPECT_FALSE(PathExists(JoinPath(tmp_->path(), "out3")));
}

}  // namespace
}  // namespace mr::badpeer
