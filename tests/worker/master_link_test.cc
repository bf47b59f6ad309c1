// The worker's master link (worker/master_link.h) against an in-process master: it
// registers and heartbeats through its handler, registers again after the master restarts
// (voiding the old registration once), stops on request, and gives up on a master that
// refuses it. Waits are polls with a real-time deadline.
#include "worker/master_link.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "common/file_util.h"
#include "master/master_server.h"

namespace mr::worker {
namespace {

template <typename F>
bool PollUntil(F done, int seconds = 20) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

// Counts the calls; the heartbeat thread writes, the test thread reads.
class RecordingHandler final : public MasterLink::Handler {
 public:
  std::vector<proto::HeldMapOutput> VoidRegistration() override {
    voided++;
    return {};
  }
  void Registered(const proto::RegisterReply& reply) override {
    worker_id.store(reply.worker_id());
    registered++;
  }
  void FillHeartbeat(proto::Heartbeat* hb) override {
    if (hb->worker_id() != worker_id.load()) wrong_id = true;
    hb->set_free_map_slots(1);
    filled++;
  }
  void Apply(const proto::HeartbeatReply&) override { applied++; }
  void Tick() override { ticks++; }

  std::atomic<int> voided{0}, registered{0}, filled{0}, applied{0}, ticks{0};
  std::atomic<uint32_t> worker_id{0};
  std::atomic<bool> wrong_id{false};
};

class MasterLinkTest : public ::testing::Test {
 protected:
  void StartMaster(HostPort listen, const auth::ClusterToken& token = {}) {
    master::MasterOptions o;
    o.listen = listen;
    o.state_dir = JoinPath(tmp_.path(), "state");
    o.token = token;
    auto server = master::MasterServer::Create(o);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    server_thread_ = std::thread([this] { server_->Run(); });
  }
  void StopMaster() {
    if (server_) server_->Stop();
    if (server_thread_.joinable()) server_thread_.join();
    server_.reset();
  }
  void StartLink(HostPort master, double master_timeout = 30) {
    MasterLink::Options o;
    o.master = master;
    o.master_timeout = master_timeout;
    o.registration.set_host("127.0.0.1");
    o.registration.set_shuffle_port(1);
    o.registration.set_map_slots(1);
    o.registration.set_speed(1);
    o.registration.set_work_dir(tmp_.path());
    link_ = std::make_unique<MasterLink>(std::move(o), &handler_);
    link_thread_ = std::thread([this] { result_ = link_->Run([] { return false; }); });
  }
  void TearDown() override {
    if (link_) link_->Stop();
    if (link_thread_.joinable()) link_thread_.join();
    StopMaster();
  }

  TempDir tmp_{"mr-link"};
  std::unique_ptr<master::MasterServer> server_;
  std::thread server_thread_;
  RecordingHandler handler_;
  std::unique_ptr<MasterLink> link_;
  std::thread link_thread_;
  Status result_ = Status::Internal("still running");
};

TEST_F(MasterLinkTest, RegistersHeartbeatsAndStops) {
  StartMaster(HostPort{"127.0.0.1", 0});
  StartLink(server_->address());
  ASSERT_TRUE(PollUntil([&] { return handler_.applied.load() >= 3; }));
  EXPECT_EQ(handler_.registered.load(), 1);
  EXPECT_EQ(handler_.voided.load(), 0);
  EXPECT_GT(handler_.worker_id.load(), 0u);
  EXPECT_FALSE(handler_.wrong_id.load()) << "a heartbeat without the registered worker id";
  EXPECT_GE(handler_.ticks.load(), handler_.applied.load());
  link_->Stop();
  link_thread_.join();
  EXPECT_TRUE(result_.ok()) << result_.ToString();
}

TEST_F(MasterLinkTest, MasterRestartVoidsTheRegistrationOnceAndRegistersAgain) {
  StartMaster(HostPort{"127.0.0.1", 0});
  const HostPort address = server_->address();
  StartLink(address);
  ASSERT_TRUE(PollUntil([&] { return handler_.applied.load() >= 1; }));
  StopMaster();
  StartMaster(address);  // same port, new process state: the old registration is void
  ASSERT_TRUE(PollUntil([&] { return handler_.registered.load() == 2; }));
  const int applied = handler_.applied.load();
  ASSERT_TRUE(PollUntil([&] { return handler_.applied.load() > applied; }));
  EXPECT_EQ(handler_.voided.load(), 1);
  EXPECT_FALSE(handler_.wrong_id.load());
}

TEST_F(MasterLinkTest, RefusedTokenEndsRunAtOnce) {
  auth::ClusterToken token = auth::ClusterToken::FromString("s3cret").value();
  StartMaster(HostPort{"127.0.0.1", 0}, token);
  StartLink(server_->address());  // without the token
  link_thread_.join();
  EXPECT_EQ(result_.code(), StatusCode::kPermissionDenied) << result_.ToString();
  EXPECT_EQ(handler_.registered.load(), 0);
}

}  // namespace
}  // namespace mr::worker
