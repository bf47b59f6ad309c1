#include "shuffle/net/receive_to_file.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <random>
#include <string>
#include <thread>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/net/net_io.h"

namespace mr::shuffle::netio {
namespace {

constexpr double kTimeout = 5.0;

// A connected loopback TCP pair: `reader` as the fetcher has it (non-blocking), `writer`
// the server's end.
struct TcpPair {
  UniqueFd reader, writer;
};

TcpPair Connect() {
  UniqueFd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  EXPECT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), len), 0);
  EXPECT_EQ(::listen(listener.get(), 1), 0);
  EXPECT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  auto reader = ConnectTcp("127.0.0.1", ntohs(addr.sin_port), kTimeout);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  TcpPair pair;
  pair.writer.Reset(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (reader.ok()) pair.reader = std::move(reader).value();
  return pair;
}

std::string RandomBytes(size_t n) {
  std::mt19937 rng(42);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

class ReceiveToFileTest : public ::testing::Test {
 protected:
  // Sends `data` (then closes if `close_after`) while receiving `length` bytes into a file
  // opened with `open_flags`.
  Result<ReceiveStats> Receive(const std::string& data, uint64_t length, ReceiveMethod method,
                               int open_flags = 0, bool close_after = true,
                               double timeout = kTimeout, uint32_t* crc = nullptr) {
    TcpPair pair = Connect();
    std::thread writer([&] {
      EXPECT_TRUE(WriteFull(pair.writer.get(), data.data(), data.size(), kTimeout).ok());
      if (close_after) {
        ::shutdown(pair.writer.get(), SHUT_WR);
      }
    });
    UniqueFd file(
        ::open(path().c_str(), (crc ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC | O_CLOEXEC | open_flags, 0644));
    EXPECT_TRUE(file.valid());
    auto r = ReceiveToFile(pair.reader.get(), file.get(), length, timeout, method, crc);
    writer.join();
    return r;
  }
  std::string path() const { return JoinPath(tmp_.path(), "dest"); }

  TempDir tmp_{"receive"};
};

TEST_F(ReceiveToFileTest, SplicesEveryByteIntoTheFile) {
  std::string data = RandomBytes(5 * 1048576 + 123);  // several pipe-fulls and a ragged end
  auto r = Receive(data, data.size(), ReceiveMethod::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spliced, data.size());  // the zero-copy path, not the fallback
  EXPECT_EQ(r->copied, 0u);
  EXPECT_EQ(*ReadFileToString(path()), data);
}

TEST_F(ReceiveToFileTest, FallsBackToCopyingWhenTheFileRefusesSplice) {
  // splice(2) into a file opened O_APPEND fails with EINVAL after bytes already left the
  // socket for the pipe: those and the rest must arrive by read + write, in order.
  std::string data = RandomBytes(3 * 1048576 + 7);
  auto r = Receive(data, data.size(), ReceiveMethod::kAuto, O_APPEND);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spliced, 0u);
  EXPECT_EQ(r->copied, data.size());
  EXPECT_EQ(*ReadFileToString(path()), data);
}

// The CRC32C of the received bytes, on every path: spliced (read back from the file),
// splice refused midway by the file (copied from the pipe), and copied.
TEST_F(ReceiveToFileTest, ChecksumCoversEveryByteOnEveryPath) {
  std::string data = RandomBytes(3 * 1048576 + 11);
  const uint32_t want = crc32c::Value(data);
  struct Case {
    ReceiveMethod method;
    int flags;
  };
  for (const Case& c : {Case{ReceiveMethod::kAuto, 0}, Case{ReceiveMethod::kAuto, O_APPEND},
                        Case{ReceiveMethod::kCopy, 0}}) {
    uint32_t crc = 0;
    auto r = Receive(data, data.size(), c.method, c.flags, true, kTimeout, &crc);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(crc, want) << "spliced " << r->spliced << ", copied " << r->copied;
    EXPECT_EQ(*ReadFileToString(path()), data);
  }
}

TEST_F(ReceiveToFileTest, CopyMethodCopies) {
  std::string data = RandomBytes(2 * 1048576 + 1);
  auto r = Receive(data, data.size(), ReceiveMethod::kCopy);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->copied, data.size());
  EXPECT_EQ(*ReadFileToString(path()), data);
}

TEST_F(ReceiveToFileTest, LeavesTheRestOfTheStreamUnread) {
  // The fetcher reuses the connection: bytes after `length` belong to the next reply.
  std::string data = RandomBytes(1048576 + 500);
  auto r = Receive(data, 1048576, ReceiveMethod::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*ReadFileToString(path()), data.substr(0, 1048576));
}

TEST_F(ReceiveToFileTest, PeerClosingEarlyIsAShortRead) {
  for (auto method : {ReceiveMethod::kAuto, ReceiveMethod::kCopy}) {
    auto r = Receive(std::string(10, 'z'), 1000, method);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
    EXPECT_NE(r.status().message().find("short read: connection closed after 10 of 1000 bytes"),
              std::string::npos)
        << r.status().ToString();
  }
}

TEST_F(ReceiveToFileTest, SilentPeerTimesOut) {
  for (auto method : {ReceiveMethod::kAuto, ReceiveMethod::kCopy}) {
    auto r = Receive(std::string(10, 'z'), 1000, method, 0, /*close_after=*/false, /*timeout=*/0.2);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
    EXPECT_NE(r.status().message().find("timed out"), std::string::npos) << r.status().ToString();
  }
}

TEST_F(ReceiveToFileTest, NothingToReceive) {
  auto r = Receive("", 0, ReceiveMethod::kAuto);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spliced + r->copied, 0u);
}

}  // namespace
}  // namespace mr::shuffle::netio
