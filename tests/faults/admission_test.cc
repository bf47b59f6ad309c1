// Admission (issue 11, "no lock-out"): every peer of a local cluster shares 127.0.0.1, so the
// master cannot tell an idle squatter from a client by address. Connections that have not
// finished the handshake share one bounded pool; when it is full the oldest is dropped for
// the newcomer, so a client or worker that connects and speaks always gets in, however many
// silent connections some local process holds.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

constexpr int kPool = 256;          // the master's default --max-pending-handshakes
constexpr int kHeld = kPool + 44;   // more than the pool holds

// A TCP connection to 127.0.0.1:port that never says anything.
class SilentConnection {
 public:
  explicit SilentConnection(uint16_t port) {
    fd_ = ConnectLoopback(port, &connected_);
  }
  ~SilentConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return connected_; }
  // True once the master has closed it (EOF or reset).
  bool Closed() const {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char c;
    return ::recv(fd_, &c, 1, MSG_DONTWAIT) <= 0;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// Raises the soft fd limit to what the test needs, within the hard limit.
bool EnsureFdLimit(rlim_t need) {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) return false;
  if (r.rlim_cur >= need) return true;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < need) return false;
  r.rlim_cur = need;
  return ::setrlimit(RLIMIT_NOFILE, &r) == 0;
}

TEST(AdmissionTest, SilentConnectionsDoNotLockOutClientsOrWorkers) {
  ASSERT_TRUE(EnsureFdLimit(kHeld + 128)) << "the fd limit (ulimit -n) is below " << kHeld + 128;
  TempDir tmp("mr-admission-test");
  DirectCluster c(tmp.path());
  // A handshake deadline (120 s) far beyond the test: nothing is dropped for time, so
  // connections closed below were closed to make room, however slow the machine.
  ASSERT_TRUE(c.StartMaster({"--handshake-timeout", "120"}));
  uint16_t port = static_cast<uint16_t>(std::stoi(c.addr().substr(c.addr().rfind(':') + 1)));
  std::vector<std::unique_ptr<SilentConnection>> held;
  for (int i = 0; i < kHeld; ++i) {
    held.push_back(std::make_unique<SilentConnection>(port));
    ASSERT_TRUE(held.back()->connected()) << "connection " << i;
  }
  double start = MonotonicSeconds();
  auto status = c.Mr("status --json");
  EXPECT_EQ(status.exit_code, 0) << status.err;

  c.StartWorker();
  int workers = -1;
  WaitUntil([&] {
    auto r = c.Mr("status --json");
    if (r.exit_code == 0) workers = nlohmann::json::parse(r.out, nullptr, false).value("workers", -1);
    return workers >= 1;
  }, 60, 0.1);
  EXPECT_EQ(workers, 1) << "the worker never registered: " << ReadFile(tmp.path() + "/worker-0.log");
  // Well before the handshake deadline (half of it, a margin no load eats): the oldest
  // silent connections made room, the newest are still held.
  EXPECT_LT(MonotonicSeconds() - start, 60.0);
  EXPECT_TRUE(held.front()->Closed()) << "the oldest silent connection was not the one dropped";
  EXPECT_FALSE(held.back()->Closed()) << "the newest silent connection was dropped first";
}

}  // namespace
}  // namespace mr::testing
