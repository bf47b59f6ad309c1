// Admission on the shuffle server (issue 11, "No lock-out"): silent connections never hold
// a serving thread; beyond the pending pool the oldest silent one is closed, and a fetch
// still gets through a flood of them.
#include "shuffle/net/shuffle_server.h"

#include <poll.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"
#include "tests/common/wait.h"
#include "tests/shuffle/shuffle_server_fixture.h"

namespace mr::shuffle {
namespace {

using mr::shuffle::shuffle_test::kTimeout;
using mr::shuffle::shuffle_test::ShuffleServerTest;
using mr::shuffle::shuffle_test::WriteMapOutput;
using mr::testing::WaitUntil;

// Holds `count` silent TCP connections to port, reconnecting any the server closes, until
// destroyed. Sends nothing, ever.
class SilentFlood {
 public:
  SilentFlood(uint16_t port, int count) : port_(port), fds_(count) {
    for (auto& fd : fds_) Reconnect(&fd);
    thread_ = std::thread([this] { Run(); });
  }
  ~SilentFlood() {
    stop_ = true;
    thread_.join();
  }
  int reconnects() const { return reconnects_.load(); }

 private:
  void Reconnect(netio::UniqueFd* fd) {
    auto c = netio::ConnectTcp("127.0.0.1", port_, 1.0);
    fd->Reset(c.ok() ? c->Release() : -1);
  }
  void Run() {
    while (!stop_.load()) {
      std::vector<pollfd> p;
      for (auto& fd : fds_) p.push_back({fd.get(), POLLIN, 0});
      ::poll(p.data(), p.size(), 50);
      for (size_t i = 0; i < fds_.size() && !stop_.load(); ++i) {
        if (fds_[i].valid() && p[i].revents == 0) continue;
        Reconnect(&fds_[i]);  // closed by the server (EOF or reset), or never connected
        reconnects_.fetch_add(1);
      }
    }
  }

  const uint16_t port_;
  std::vector<netio::UniqueFd> fds_;
  std::atomic<bool> stop_{false};
  std::atomic<int> reconnects_{0};
  std::thread thread_;
};

auth::ClusterToken TestToken() {
  auto t = auth::ClusterToken::FromString("shuffle-admission-secret");
  EXPECT_TRUE(t.ok());
  return t.ok() ? *t : auth::ClusterToken();
}

TEST_F(ShuffleServerTest, SilentConnectionsBeyondThreadsAndPoolDoNotStarveAFetch) {
  ShuffleServerOptions opts;
  opts.work_dir = work();
  opts.threads = 2;
  opts.max_pending_connections = 256;  // the default
  opts.handshake_timeout_seconds = 2;
  opts.token = TestToken();
  auto server = ShuffleServer::Start(opts);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  // More silent peers than serving threads + pending pool, all connected before the fetch.
  SilentFlood flood((*server)->port(), opts.threads + opts.max_pending_connections + 2);
  // The pool is full and churning: the server has closed silent peers and they came back.
  ASSERT_TRUE(WaitUntil([&] { return flood.reconnects() > 0; }, kTimeout));
  auto r = FetchPartition(Target(**server, 0), Dest("p0"), 3.0, SystemClock::Get(), opts.token);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*ReadFileToString(Dest("p0")), output_.partitions[0]);
  // A keep-alive fetcher keeps working too.
  Fetcher fetcher(3.0, SystemClock::Get(), 4, opts.token);
  for (uint32_t p : {2u, 3u, 4u}) {  // one run file per partition (shuffle/net/run_commit.h)
    auto k = fetcher.Fetch(Target(**server, p), Dest("k" + std::to_string(p)));
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("k" + std::to_string(p))), output_.partitions[p]);
  }
}

TEST_F(ShuffleServerTest, FullPendingPoolClosesItsOldestSilentConnection) {
  ShuffleServerOptions opts;
  opts.work_dir = work();
  opts.threads = 2;
  opts.max_pending_connections = 4;  // default handshake deadline (10 s): nothing expires
  auto server = ShuffleServer::Start(opts);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::vector<netio::UniqueFd> fds;
  for (int i = 0; i <= opts.max_pending_connections; ++i) {
    auto c = netio::ConnectTcp("127.0.0.1", (*server)->port(), kTimeout);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    fds.push_back(std::move(c).value());
    // One at a time, so the server's accept order is our connect order.
    ASSERT_TRUE(WaitUntil([&] { return (*server)->connections_accepted() >= fds.size(); }, kTimeout, 0.002));
  }
  char c;
  auto oldest = netio::ReadSome(fds[0].get(), &c, 1, kTimeout);  // EOF or reset, not a timeout
  EXPECT_TRUE(oldest.ok() ? *oldest == 0 : oldest.status().message().find("timed out") == std::string::npos)
      << (oldest.ok() ? "read a byte" : oldest.status().ToString());
  for (size_t i = 1; i < fds.size(); ++i) {
    pollfd p{fds[i].get(), POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 0), 0) << "connection " << i << " closed, only the oldest should be";
  }
}

}  // namespace
}  // namespace mr::shuffle
