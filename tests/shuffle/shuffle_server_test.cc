// The shuffle server and the fetcher on loopback: every partition byte for byte, kept-alive
// connections, many fetches at once, and every error a fetch can meet (a bad request, a
// corrupt or flipped source, a refused, silent or short-reading peer), each leaving no file.
#include "shuffle/net/shuffle_server.h"

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/write.hpp>
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "common/framing.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"
#include "tests/common/wait.h"
#include "tests/shuffle/fetch_temp.h"
#include "tests/shuffle/shuffle_server_fixture.h"

namespace mr::shuffle {
namespace {

using mr::shuffle::shuffle_test::kTimeout;
using mr::shuffle::shuffle_test::ShuffleServerTest;
using mr::shuffle::shuffle_test::WriteMapOutput;
using mr::testing::WaitUntil;

TEST_F(ShuffleServerTest, FetchesEveryPartitionByteForByte) {
  auto server = StartServer();
  for (uint32_t p = 0; p < 5; ++p) {
    std::string dest = Dest("p" + std::to_string(p));
    auto r = FetchPartition(Target(*server, p), dest, kTimeout);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->bytes, output_.partitions[p].size());
    EXPECT_EQ(r->records, output_.records[p]);
    EXPECT_LE(r->start_time, r->end_time);
    auto got = ReadFileToString(dest);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, output_.partitions[p]) << "partition " << p;
    EXPECT_FALSE(testing::FetchTempLeft(dest));
  }
  uint64_t total = 0;
  for (const auto& p : output_.partitions) total += p.size();
  EXPECT_EQ(server->bytes_sent(), total);
  EXPECT_EQ(server->bytes_sent_by_job()[7], total);
  // The server counts a request once its last byte is sent, which can be just after
  // the fetcher has read that byte and returned.
  EXPECT_TRUE(WaitUntil([&] { return server->requests_served() >= 5u; }, kTimeout));
  EXPECT_EQ(server->requests_served(), 5u);
}

TEST_F(ShuffleServerTest, FetcherReusesOneConnectionAcrossRequestsAndErrors) {
  auto server = StartServer();
  Fetcher fetcher(kTimeout);
  // One run file per partition: a committed run stays where it is (shuffle/net/run_commit.h).
  for (uint32_t p : {0u, 2u, 4u}) {
    auto r = fetcher.Fetch(Target(*server, p), Dest("k" + std::to_string(p)));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("k" + std::to_string(p))), output_.partitions[p]);
  }
  // An error reply leaves the connection usable.
  EXPECT_FALSE(fetcher.Fetch(Target(*server, 99), Dest("bad")).ok());
  ASSERT_TRUE(fetcher.Fetch(Target(*server, 3), Dest("k3")).ok());
  EXPECT_EQ(*ReadFileToString(Dest("k3")), output_.partitions[3]);
  EXPECT_EQ(server->connections_accepted(), 1u);
  EXPECT_EQ(fetcher.idle_connections(), 1u);
}

TEST_F(ShuffleServerTest, ConcurrentFetchesOfManyPartitions) {
  for (uint32_t m = 0; m < 4; ++m) WriteMapOutput(work(), 9, m, 0, 8, 50, 300);
  auto server = StartServer();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 32; ++t) {
    threads.emplace_back([&, t] {
      Fetcher fetcher(kTimeout);
      for (uint32_t m = 0; m < 4; ++m) {
        uint32_t p = static_cast<uint32_t>(t) % 8;
        std::string dest = Dest("c" + std::to_string(t) + "-" + std::to_string(m));
        auto r = (t % 2) ? fetcher.Fetch(Target(*server, p, 9, m, 0), dest)
                         : FetchPartition(Target(*server, p, 9, m, 0), dest, kTimeout);
        if (!r.ok()) {
          ADD_FAILURE() << r.status().ToString();
          ++failures;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  // Spot-check contents against a fresh reading of the map outputs.
  for (int t = 0; t < 32; t += 5) {
    for (uint32_t m = 0; m < 4; ++m) {
      auto expected = WriteMapOutput(JoinPath(tmp_.path(), "again"), 9, m, 0, 8, 50, 300);
      EXPECT_EQ(*ReadFileToString(Dest("c" + std::to_string(t) + "-" + std::to_string(m))),
                expected.partitions[static_cast<uint32_t>(t) % 8]);
    }
  }
}


// Sends raw bytes on a fresh connection; true if the server then closes it (rather than
// leaving it open until our timeout).
bool ServerClosesAfter(uint16_t port, const std::string& bytes) {
  auto fd = netio::ConnectTcp("127.0.0.1", port, kTimeout);
  EXPECT_TRUE(fd.ok());
  if (!fd.ok()) return false;
  EXPECT_TRUE(netio::WriteFull(fd->get(), bytes.data(), bytes.size(), kTimeout).ok());
  char buf[256];
  for (;;) {
    auto n = netio::ReadSome(fd->get(), buf, sizeof(buf), 3.0);
    if (!n.ok()) return n.status().message().find("timed out") == std::string::npos;  // reset
    if (*n == 0) return true;
  }
}

TEST_F(ShuffleServerTest, BadRequestsGetErrorsAndServerKeepsServing) {
  auto server = StartServer();
  auto out_of_range = FetchPartition(Target(*server, 5), Dest("x"), kTimeout);
  EXPECT_EQ(out_of_range.status().code(), StatusCode::kProtocolError);
  EXPECT_NE(out_of_range.status().message().find("out of range"), std::string::npos)
      << out_of_range.status().ToString();
  auto unknown_map = FetchPartition(Target(*server, 0, 7, 4, 1), Dest("x"), kTimeout);
  EXPECT_EQ(unknown_map.status().code(), StatusCode::kNotFound) << unknown_map.status().ToString();
  auto unknown_job = FetchPartition(Target(*server, 0, 8, 3, 1), Dest("x"), kTimeout);
  EXPECT_EQ(unknown_job.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(PathExists(Dest("x")));
  EXPECT_FALSE(testing::FetchTempLeft(Dest("x")));

  // A corrupt index is reported, not served: the source's copy is unusable.
  ASSERT_TRUE(WriteStringToFile(MapOutputIndexPath(work(), 7, 5, 0), "MRIXgarbage").ok());
  ASSERT_TRUE(WriteStringToFile(MapOutputDataPath(work(), 7, 5, 0), "data").ok());
  auto corrupt = FetchPartition(Target(*server, 0, 7, 5, 0), Dest("x"), kTimeout);
  EXPECT_EQ(corrupt.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(corrupt.status().message().find("index"), std::string::npos) << corrupt.status().ToString();

  EXPECT_TRUE(ServerClosesAfter(server->port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_TRUE(ServerClosesAfter(server->port(), EncodeFrame(std::string(1 << 20, 'a')).substr(0, 64)));
  EXPECT_TRUE(ServerClosesAfter(server->port(), EncodeFrame(std::string(200, '\xff'))));

  auto good = FetchPartition(Target(*server, 2), Dest("good"), kTimeout);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(*ReadFileToString(Dest("good")), output_.partitions[2]);
}

// Issue 11: a flipped bit in the source's data file used to be fetched as if it were fine.
TEST_F(ShuffleServerTest, FlippedByteInServedFileIsDataLossAndLeavesNoFile) {
  auto server = StartServer();
  const std::string data_path = MapOutputDataPath(work(), 7, 3, 1);
  std::string data = *ReadFileToString(data_path);
  const size_t at = output_.partitions[0].size() + output_.partitions[1].size() + 40;  // inside partition 2
  data[at] ^= 0x04;
  ASSERT_TRUE(WriteStringToFile(data_path, data).ok());
  auto r = FetchPartition(Target(*server, 2), Dest("x"), kTimeout);
  ASSERT_FALSE(r.ok()) << "a corrupted partition was fetched as good";
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << r.status().ToString();
  for (const std::string& part : {"127.0.0.1:" + std::to_string(server->port()), std::string("job 7"),
                                  std::string("map 3"), std::string("attempt 1"), std::string("partition 2"),
                                  std::string("expected crc32c"), std::string("got")}) {
    EXPECT_NE(r.status().message().find(part), std::string::npos) << part << " in " << r.status().ToString();
  }
  EXPECT_FALSE(PathExists(Dest("x")));
  EXPECT_FALSE(testing::FetchTempLeft(Dest("x")));
  // The same through a kept-alive connection; the other partitions are still fine.
  Fetcher fetcher(kTimeout);
  EXPECT_EQ(fetcher.Fetch(Target(*server, 2), Dest("y")).status().code(), StatusCode::kDataLoss);
  EXPECT_FALSE(PathExists(Dest("y")));
  auto good = fetcher.Fetch(Target(*server, 4), Dest("y"));
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(*ReadFileToString(Dest("y")), output_.partitions[4]);
}

TEST_F(ShuffleServerTest, ConnectionRefusedNamesPeerAndMap) {
  uint16_t port = 0;
  {
    auto server = StartServer();
    port = server->port();
  }  // stopped: nothing listens on port any more
  FetchTarget t{"127.0.0.1", port, 7, 3, 1, 0};
  auto r = FetchPartition(t, Dest("x"), kTimeout);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
  EXPECT_NE(r.status().message().find("127.0.0.1:" + std::to_string(port)), std::string::npos);
  EXPECT_NE(r.status().message().find("map 3"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(PathExists(Dest("x")));
}

// A peer that accepts one connection, reads the request, then does `behave` on it.
class FakeServer {
 public:
  explicit FakeServer(std::function<void(asio::ip::tcp::socket&)> behave)
      : acceptor_(ctx_, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this, behave] {
      asio::error_code ec;
      asio::ip::tcp::socket sock(ctx_);
      acceptor_.accept(sock, ec);
      if (ec) return;
      if (!ReadFrame(sock, kMaxFetchRequestBytes).ok()) return;
      behave(sock);
    });
  }
  ~FakeServer() { thread_.join(); }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  asio::io_context ctx_;
  asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

TEST_F(ShuffleServerTest, SilentServerTimesOut) {
  std::atomic<bool> done{false};
  FakeServer fake([&](asio::ip::tcp::socket&) {
    WaitUntil([&] { return done.load(); }, 60, 0.005);  // silent until the fetch gave up
  });
  double start = MonotonicSeconds();
  auto r = FetchPartition(FetchTarget{"127.0.0.1", fake.port(), 7, 3, 1, 0}, Dest("x"), 0.3);
  double took = MonotonicSeconds() - start;
  done = true;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
  EXPECT_NE(r.status().message().find("timed out"), std::string::npos) << r.status().ToString();
  // Lower bound: a deadline never fires early, however loaded the machine (0.25 allows
  // for the two clocks' rounding). Upper bound: the timeout fired at all rather than the
  // fetch hanging; 4.7 s of scheduling delay past a 0.3 s poll is far beyond any load.
  EXPECT_GE(took, 0.25);
  EXPECT_LT(took, 5.0);
}

TEST_F(ShuffleServerTest, ShortReadLeavesNoFile) {
  FakeServer fake([](asio::ip::tcp::socket& sock) {
    proto::FetchReply reply;
    reply.set_ok(true);
    reply.set_length(1000);
    reply.set_records(3);
    reply.set_crc32c(0);
    std::string bytes = EncodeFrame(reply.SerializeAsString()) + std::string(10, 'z');
    asio::error_code ec;
    asio::write(sock, asio::buffer(bytes), ec);
  });
  auto r = FetchPartition(FetchTarget{"127.0.0.1", fake.port(), 7, 3, 1, 0}, Dest("x"), kTimeout);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
  EXPECT_NE(r.status().message().find("short read"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(PathExists(Dest("x")));
  EXPECT_FALSE(testing::FetchTempLeft(Dest("x")));
}

}  // namespace
}  // namespace mr::shuffle
