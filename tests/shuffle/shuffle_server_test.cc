#include "shuffle/net/shuffle_server.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/write.hpp>
#include <gtest/gtest.h>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/share_limiter.h"
#include "tests/common/wait.h"

namespace mr::shuffle {
namespace {

using mr::testing::WaitUntil;

constexpr double kTimeout = 5.0;

struct FakeMapOutput {
  std::vector<std::string> partitions;  // expected bytes per partition
  std::vector<uint64_t> records;
};

// Writes a map output the way a map task does: records per partition, index last.
FakeMapOutput WriteMapOutput(const std::string& dir, uint64_t job, uint32_t map, uint32_t attempt,
                             uint32_t r, int records_per_partition, size_t value_bytes) {
  std::mt19937 rng(static_cast<uint32_t>(job * 1000 + map * 10 + attempt));
  FakeMapOutput out;
  MapOutputIndex index;
  std::string data;
  for (uint32_t p = 0; p < r; ++p) {
    std::string part;
    int n = (p == 1) ? 0 : records_per_partition;  // partition 1 is always empty
    for (int i = 0; i < n; ++i) {
      std::string key = "k" + std::to_string(p) + "-" + std::to_string(100000 + i);
      std::string value(value_bytes, 'a');
      for (auto& c : value) c = static_cast<char>('a' + rng() % 26);
      AppendRecord(key, value, &part);
    }
    index.partitions.push_back({data.size(), part.size(), static_cast<uint64_t>(n), crc32c::Value(part)});
    data += part;
    out.partitions.push_back(part);
    out.records.push_back(static_cast<uint64_t>(n));
  }
  EXPECT_TRUE(MakeDirs(MapOutputDir(dir, job)).ok());
  EXPECT_TRUE(WriteStringToFile(MapOutputDataPath(dir, job, map, attempt), data).ok());
  EXPECT_TRUE(index.WriteTo(MapOutputIndexPath(dir, job, map, attempt)).ok());
  return out;
}

class ShuffleServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MakeDirs(JoinPath(tmp_.path(), "out")).ok() || (ADD_FAILURE(), true);
    output_ = WriteMapOutput(work(), 7, 3, 1, 5, 200, 100);
  }

  std::unique_ptr<ShuffleServer> StartServer(double bandwidth = 0) {
    ShuffleServerOptions opts;
    opts.work_dir = work();
    opts.bandwidth = bandwidth;
    auto server = ShuffleServer::Start(opts);
    EXPECT_TRUE(server.ok()) << server.status().ToString();
    return std::move(server).value();
  }

  FetchTarget Target(const ShuffleServer& s, uint32_t partition, uint64_t job = 7, uint32_t map = 3,
                     uint32_t attempt = 1) {
    return FetchTarget{"127.0.0.1", s.port(), job, map, attempt, partition};
  }
  std::string work() const { return JoinPath(tmp_.path(), "work"); }
  std::string Dest(const std::string& name) const { return JoinPath(JoinPath(tmp_.path(), "out"), name); }

  TempDir tmp_{"shufflenet"};
  FakeMapOutput output_;
};

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
    EXPECT_FALSE(PathExists(dest + ".tmp"));
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
  for (uint32_t p : {0u, 2u, 4u}) {
    auto r = fetcher.Fetch(Target(*server, p), Dest("k"));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("k")), output_.partitions[p]);
  }
  // An error reply leaves the connection usable.
  EXPECT_FALSE(fetcher.Fetch(Target(*server, 99), Dest("bad")).ok());
  ASSERT_TRUE(fetcher.Fetch(Target(*server, 3), Dest("k")).ok());
  EXPECT_EQ(*ReadFileToString(Dest("k")), output_.partitions[3]);
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
  EXPECT_FALSE(PathExists(Dest("x") + ".tmp"));

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
  EXPECT_FALSE(PathExists(Dest("x") + ".tmp"));
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
  EXPECT_FALSE(PathExists(Dest("x") + ".tmp"));
}

TEST_F(ShuffleServerTest, ThrottledFetchTakesSizeOverBandwidth) {
  // One partition of ~10 MB; at 20 MB/s it takes ~0.5 s (minus the limiter's small burst).
  WriteMapOutput(work(), 11, 0, 0, 2, 10000, 990);
  auto server = StartServer(20e6);
  double start = MonotonicSeconds();
  auto r = FetchPartition(Target(*server, 0, 11, 0, 0), Dest("slow"), kTimeout);
  double took = MonotonicSeconds() - start;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(r->bytes, 9'900'000u);
  // The cap is enforced: a lower bound, which load cannot break (a busy machine only sends
  // slower). The last grant comes once everything before it is paid for, less the burst;
  // the last chunk (a ragged tail merged into it: under two chunks) needs no wait after:
  // (bytes - burst - 2 chunks) / rate = 0.45 s. That the limiter keeps the link busy is
  // checked on virtual time (share_limiter_test); here only that nothing hangs, with a
  // bound ten times the paced time.
  const double chunk = static_cast<double>(ShuffleServerOptions{}.throttled_chunk_bytes);
  const double paced =
      (static_cast<double>(r->bytes) - ShareLimiter::kDefaultBurstBytes - 2 * chunk) / 20e6;
  EXPECT_GE(took, paced);
  EXPECT_LT(took, paced * 10);
}

TEST_F(ShuffleServerTest, ThrottledFetchesAreByteExactAcrossChunks) {
  // Small chunks: every partition goes in several limiter grants, each requested before
  // the previous one is sent, with a ragged last chunk merged into the one before it.
  ShuffleServerOptions opts;
  opts.work_dir = work();
  opts.bandwidth = 200e6;
  opts.throttled_chunk_bytes = 3000;
  auto server = ShuffleServer::Start(opts);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  uint64_t total = 0;
  for (uint32_t p = 0; p < 5; ++p) {
    auto r = FetchPartition(Target(**server, p), Dest("t"), kTimeout);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("t")), output_.partitions[p]) << "partition " << p;
    total += output_.partitions[p].size();
  }
  EXPECT_EQ((*server)->bytes_sent(), total);
}

TEST_F(ShuffleServerTest, StopInterruptsInFlightTransfers) {
  WriteMapOutput(work(), 12, 0, 0, 2, 10000, 990);
  auto server = StartServer(1e4);  // 10 MB would take ~1000 s: only an interrupt ends it
  Result<FetchResult> r = Status::Internal("not run");
  // The fetcher's timeout (no byte for 5 s) never fires: the first chunk (the limiter's
  // burst) arrives at once and later ones every 256 KiB / 10 KB/s = 26 s, so a timeout
  // would be first only if Stop took longer than 5 s.
  std::thread fetch([&] { r = FetchPartition(Target(*server, 0, 12, 0, 0), Dest("cut"), 60.0); });
  ASSERT_TRUE(WaitUntil([&] { return server->bytes_sent() > 0; }, kTimeout)) << "the transfer never started";
  double start = MonotonicSeconds();
  server->Stop();
  // A Stop that waited for the transfer would take ~1000 s; 30 s is far more than joining
  // the serving threads takes on any loaded machine.
  EXPECT_LT(MonotonicSeconds() - start, 30.0);
  fetch.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError) << r.status().ToString();
  EXPECT_FALSE(PathExists(Dest("cut")));
  EXPECT_FALSE(PathExists(Dest("cut") + ".tmp"));
}

// Stop() shuts down a socket the server is blocked sending on (a reducer that stopped
// reading). The next sendfile gets EPIPE, which on its own would raise SIGPIPE and kill the
// whole worker process (CI once did, in StopInterruptsInFlightTransfers). It must not.
TEST_F(ShuffleServerTest, StopWhileBlockedOnAStalledReaderDoesNotRaiseSigpipe) {
  WriteMapOutput(work(), 14, 0, 0, 1, 32 * 1024, 1000);  // ~32 MB: more than the socket buffers
  auto server = StartServer();
  asio::io_context ctx;
  asio::ip::tcp::socket sock(ctx);
  sock.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), server->port()));
  proto::FetchRequest req;
  req.set_job_id(14);
  req.set_partition(0);
  asio::write(sock, asio::buffer(EncodeFrame(req.SerializeAsString())));
  char buf[4096];
  size_t got = 0;
  while (got < 64 * 1024) got += sock.read_some(asio::buffer(buf));
  // Stop reading: the server fills the socket buffers and waits for POLLOUT. Wait until it
  // has stopped making progress (what is queued for us no longer grows), so Stop finds it
  // blocked rather than mid-send (mid-send would exercise the same guard, less surely).
  int queued = -1;
  ASSERT_TRUE(WaitUntil([&] {
    int now = 0;
    ::ioctl(sock.native_handle(), FIONREAD, &now);
    bool still = now > 0 && now == queued;
    queued = now;
    return still;
  }, kTimeout, 0.05)) << "the server never filled the socket";
  server->Stop();  // without the guard: killed by SIGPIPE here (exit 141)
  // The connection was cut: draining what is buffered ends in EOF or a reset, well short of
  // the whole partition.
  asio::error_code ec;
  while (!ec) got += sock.read_some(asio::buffer(buf), ec);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_LT(got, 32u * 1024 * 1000);
}

TEST_F(ShuffleServerTest, BindingAPortInUseFails) {
  auto server = StartServer();
  ShuffleServerOptions opts;
  opts.work_dir = work();
  opts.port = server->port();
  auto second = ShuffleServer::Start(opts);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kNetworkError);
  opts.work_dir.clear();
  EXPECT_EQ(ShuffleServer::Start(opts).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ShuffleServerTest, UnthrottledLargePartitionIsFast) {
  // ~64 MiB partition. The floor is far below the target (>= 1 GB/s on an idle machine)
  // because this box is shared; the measured rate is printed for the record. 10 MB/s
  // allows 6.7 s for what takes ~0.1 s of CPU (loopback sendfile, a page-cache write):
  // it still holds at a 1/50 share of one core, and no pacing at all is what it checks
  // (a default cap, or a chunked path that waits, falls far below it).
  WriteMapOutput(work(), 13, 0, 0, 1, 64 * 1024, 1000);
  auto server = StartServer();
  double start = MonotonicSeconds();
  auto r = FetchPartition(Target(*server, 0, 13, 0, 0), Dest("big"), kTimeout);
  double took = MonotonicSeconds() - start;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  double rate = static_cast<double>(r->bytes) / took;
  std::printf("unthrottled fetch: %.1f MiB in %.3f s = %.0f MB/s\n", r->bytes / 1048576.0, took, rate / 1e6);
  EXPECT_GT(rate, 10e6);
  EXPECT_EQ(*FileSize(Dest("big")), r->bytes);
}


// ---- admission: silent connections never hold a serving thread (issue 11, "No lock-out") ----

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
  for (uint32_t p : {2u, 3u, 4u}) {
    auto k = fetcher.Fetch(Target(**server, p), Dest("k"));
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("k")), output_.partitions[p]);
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
