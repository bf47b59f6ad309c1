// Hostile peers against a real master and worker while a good job runs (the suite in
// bad_peer_fixture.h): garbage, truncated and oversized frames, wrong or missing tokens, an
// old protocol version, a stranger at the shuffle server, silent peers. Each gets a
// refusal or a closed connection; the good job still finishes with byte-identical output.
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
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"

namespace mr::badpeer {
namespace {

TEST_F(BadPeerTest, TheGoodJobIsRunningWhileTheProbesStart) {
  EXPECT_GT(job_maps_, 100u);
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  auto r = (*c)->Call(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status_reply().jobs(0).state(), "RUNNING")
      << "the probes would not overlap the good job";
  EXPECT_FALSE(PathExists(gate_)) << "the good job's maps were let through before the probes ran";
}

TEST_F(BadPeerTest, GarbageBytesAreRefused) {
  RawPeer http(port_);
  http.Send("GET / HTTP/1.1\r\nHost: master\r\n\r\n");  // header reads as a ~1.2 GB frame
  ExpectRefused(http, StatusCode::kProtocolError, "exceeds the maximum");
  RawPeer junk(port_);
  junk.Send(std::string("\0\0\0\x08\xff\xff\xff\xff\xff\xff\xff\xff", 12));
  ExpectRefused(junk, StatusCode::kProtocolError, "malformed message");
}

TEST_F(BadPeerTest, TruncatedFrameThenCloseIsDropped) {
  RawPeer p(port_);
  std::string frame = EncodeFrame(Hello(kProtocolVersion, "client", "").SerializeAsString());
  p.Send(frame.substr(0, frame.size() / 2));
  p.ShutdownWrite();
  ExpectRefused(p, std::nullopt, "truncated frame");
}

TEST_F(BadPeerTest, OversizedFramesAreRefusedFromTheHeader) {
  RawPeer huge(port_);
  huge.Send(std::string("\xff\xff\xff\xff", 4));
  ExpectRefused(huge, StatusCode::kProtocolError, "exceeds the maximum");
  RawPeer before_auth(port_);  // 100 KiB is fine for a worker, not for a handshake
  before_auth.Send(std::string("\x00\x01\x90\x00", 4));
  ExpectRefused(before_auth, StatusCode::kProtocolError, "exceeds the maximum of 65536");
  auto after_auth = Ready("client");  // over the 4 MiB cap of the control channel
  after_auth->Send(std::string("\x00\x50\x00\x00", 4));
  ExpectRefused(*after_auth, StatusCode::kProtocolError, "exceeds the maximum of 4194304");
}

TEST_F(BadPeerTest, WrongOrMissingTokenIsRefusedWithoutInformation) {
  for (const auto& token : {*auth::ClusterToken::FromString("a-guess"), auth::ClusterToken()}) {
    RawPeer p(port_);
    auto reply = Authenticate(p, "client", token);
    ASSERT_TRUE(reply && reply->has_error()) << (reply ? reply->DebugString() : "closed");
    EXPECT_EQ(reply->error().code(), static_cast<uint32_t>(StatusCode::kPermissionDenied));
    EXPECT_EQ(reply->error().message(), auth::kAuthFailedMessage);
    EXPECT_TRUE(p.ClosedWithin());
  }
  // Skipping the answer: a request right after Hello gets no status, only a refusal.
  RawPeer skip(port_);
  skip.SendEnvelope(Hello(kProtocolVersion, "client", *auth::RandomBytes(auth::kNonceBytes)));
  ASSERT_TRUE(skip.Read().has_value());
  proto::Envelope status;
  status.mutable_status();
  skip.SendEnvelope(status);
  ExpectRefused(skip, StatusCode::kPermissionDenied, auth::kAuthFailedMessage);
  // Through the real client: the one-line message.
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client",
                                         *auth::ClusterToken::FromString("x"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), auth::kAuthFailedMessage);
}

TEST_F(BadPeerTest, OldProtocolVersionIsRefused) {
  RawPeer p(port_);
  p.SendEnvelope(Hello(kProtocolVersion - 1, "worker", ""));
  auto reply = p.Read();
  ASSERT_TRUE(reply && reply->has_hello_reply()) << (reply ? reply->DebugString() : "closed");
  EXPECT_FALSE(reply->hello_reply().accepted());
  EXPECT_NE(reply->hello_reply().error().find("protocol version mismatch"), std::string::npos);
  EXPECT_TRUE(p.ClosedWithin());
  RawPeer first(port_);  // not starting with Hello at all
  first.SendEnvelope(proto::Envelope());
  ExpectRefused(first, StatusCode::kProtocolError, "expected Hello first");
}

TEST_F(BadPeerTest, ShuffleServerRefusesStrangersAndBadPartitions) {
  auto fd = shuffle::netio::ConnectTcp("127.0.0.1", shuffle_port_, kWait);
  ASSERT_TRUE(fd.ok());
  proto::FetchRequest req;  // a real map output, but no authentication
  req.set_job_id(job_id_);
  req.set_attempt(1);
  ASSERT_TRUE(shuffle::netio::WriteFrameFd(fd->get(), req.SerializeAsString(), kWait).ok());
  auto frame = shuffle::netio::ReadFrameFd(fd->get(), 1 << 16, kWait, kWait);
  ASSERT_TRUE(frame.ok()) << frame.status().ToString();
  proto::FetchReply reply;
  ASSERT_TRUE(reply.ParseFromString(*frame));
  EXPECT_FALSE(reply.ok());
  EXPECT_NE(reply.error().find(auth::kAuthFailedMessage), std::string::npos) << reply.error();

  TempDir dest("mr-bad-peer-fetch");
  shuffle::FetchTarget t{"127.0.0.1", shuffle_port_, job_id_, 0, 1, 1000000000};
  auto r =
      shuffle::FetchPartition(t, JoinPath(dest.path(), "x"), kWait, SystemClock::Get(), Token());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().code() == StatusCode::kNotFound ||
              r.status().code() == StatusCode::kProtocolError)
      << r.status().ToString();
  EXPECT_FALSE(PathExists(JoinPath(dest.path(), "x")));
}

TEST_F(BadPeerTest, SilentPeersAreDroppedAndDoNotStarveOthers) {
  std::vector<std::unique_ptr<RawPeer>> silent;
  for (int i = 0; i < 32; ++i) silent.push_back(std::make_unique<RawPeer>(port_));
  silent.back()->Send(std::string("\0\0", 2));  // half a header, then nothing
  double start = MonotonicSeconds();
  // Meanwhile the cluster serves its own client.
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  EXPECT_TRUE((*c)->Call(req).ok());
  for (auto& p : silent) EXPECT_TRUE(p->ClosedWithin(kWait)) << "silent peer kept its connection";
  double took = MonotonicSeconds() - start;
  // Lower bound, safe under any load: the last peer connected just before `start`, and a
  // deadline never fires early, so it cannot close before ~1 s; 0.5 allows for the clocks.
  // Upper bound: the deadline fired at all (a master that ignored it would keep them for
  // good); 5 s is five deadlines, far more than a loaded master needs to act on one.
  EXPECT_GE(took, 0.5) << "closed before the 1 s handshake timeout";
  EXPECT_LT(took, kWait);
}

}  // namespace
}  // namespace mr::badpeer
