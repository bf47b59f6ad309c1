// AckCounter (shuffle/net/ack_counter.h) on a real loopback TCP connection: a sender blocked
// on a full socket reports what the receiver acknowledged while it waits, not in one lump
// at its next send (the lumps made one round's delivery rate read up to 1.21 x the link).
#include "shuffle/net/ack_counter.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/clock.h"

namespace mr::shuffle {
namespace {

TEST(AckCounterTest, AcknowledgementsAreReportedWhileWaitingForRoom) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  const int small = 64 * 1024;
  ASSERT_EQ(::setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &small, sizeof small), 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int sender = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(::setsockopt(sender, SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
  ASSERT_EQ(::connect(sender, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const int receiver = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(receiver, 0);

  ManualClock clock;
  ShareLimiter limiter(0, &clock);
  limiter.EstimateLink();
  AckCounter acks(&limiter, sender, 7);
  ASSERT_TRUE(acks.active());
  // Fill the connection: the receiver's buffer, then the sender's, until a send would block.
  const std::string chunk(16 * 1024, 'x');
  uint64_t handed = 0;
  for (;;) {
    const ssize_t n = ::send(sender, chunk.data(), chunk.size(), MSG_DONTWAIT);
    if (n <= 0) break;
    handed += static_cast<uint64_t>(n);
    acks.Handed(static_cast<uint64_t>(n));
  }
  ASSERT_GT(handed, 0u);
  const uint64_t before = acks.reported();
  ASSERT_LT(before, handed);  // part of it is queued, unacknowledged
  std::thread reader([&] {    // reads everything: the receiver's window opens, acks flow
    std::string buf(64 * 1024, '\0');
    for (uint64_t got = 0; got < handed;) {
      const ssize_t n = ::recv(receiver, buf.data(), buf.size(), 0);
      if (n <= 0) break;
      got += static_cast<uint64_t>(n);
    }
  });
  ASSERT_TRUE(acks.WaitWritable(10).ok());
  // Room appeared because bytes were acknowledged; they are reported already, with no send
  // after the wait (a plain poll would leave reported() where it was).
  EXPECT_GT(acks.reported(), before);
  reader.join();
  ::close(receiver);
  ::close(sender);
  ::close(listener);
}

}  // namespace
}  // namespace mr::shuffle
