// The shuffle server's limits on loopback: a bandwidth cap paces a fetch and keeps it byte
// exact across chunks, no cap means no pacing, Stop() cuts transfers in flight (without a
// SIGPIPE from a stalled reader), and a port in use is refused.
#include "shuffle/net/shuffle_server.h"

#include <sys/ioctl.h>

#include <cstdio>
#include <string>
#include <thread>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/write.hpp>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/share_limiter.h"
#include "tests/common/wait.h"
#include "tests/shuffle/fetch_temp.h"
#include "tests/shuffle/shuffle_server_fixture.h"

namespace mr::shuffle {
namespace {

using mr::shuffle::shuffle_test::kTimeout;
using mr::shuffle::shuffle_test::ShuffleServerTest;
using mr::shuffle::shuffle_test::WriteMapOutput;
using mr::testing::WaitUntil;

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
    // One run file per partition: a committed run stays where it is (shuffle/net/run_commit.h).
    auto r = FetchPartition(Target(**server, p), Dest("t" + std::to_string(p)), kTimeout);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("t" + std::to_string(p))), output_.partitions[p]) << "partition " << p;
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
  EXPECT_FALSE(testing::FetchTempLeft(Dest("cut")));
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

}  // namespace
}  // namespace mr::shuffle
