// What the fetcher's errors prove (shuffle/net/fetch_blame.h), checked against the real
// fetcher and shuffle server: a fetch into a full disk or a missing directory is the
// reducer's own failure (LOCAL), a missing output the source's (SOURCE_CORRUPT), a
// refused connection unproven (UNREACHABLE).
#include "shuffle/net/fetch_blame.h"

#include <sys/mount.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/shuffle_server.h"
#include "tests/shuffle/fetch_temp.h"

namespace mr::shuffle {
namespace {

constexpr double kTimeout = 5.0;
constexpr uint64_t kJob = 4;

class FetchBlameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One map output whose partition 0 is 256 KiB.
    shuffle::MapOutputIndex index;
    std::string data;
    for (int i = 0; i < 2048; ++i) shuffle::AppendRecord("key" + std::to_string(i), std::string(120, 'v'), &data);
    index.partitions.push_back({0, data.size(), 2048, crc32c::Value(data)});
    ASSERT_TRUE(MakeDirs(shuffle::MapOutputDir(work(), kJob)).ok());
    ASSERT_TRUE(WriteStringToFile(shuffle::MapOutputDataPath(work(), kJob, 0, 1), data).ok());
    ASSERT_TRUE(index.WriteTo(shuffle::MapOutputIndexPath(work(), kJob, 0, 1)).ok());
    shuffle::ShuffleServerOptions opts;
    opts.work_dir = work();
    auto server = shuffle::ShuffleServer::Start(opts);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
  }
  void TearDown() override {
    if (server_) server_->Stop();
    if (mounted_) ::umount2(mnt().c_str(), MNT_DETACH);
    if (injected_) ::unsetenv("MR_TEST_FULL_DISK");
  }

  std::string work() const { return JoinPath(tmp_.path(), "work"); }
  std::string mnt() const { return JoinPath(tmp_.path(), "small"); }
  Status Fetch(const std::string& dest, uint32_t attempt = 1, uint16_t port = 0) {
    shuffle::FetchTarget t;
    t.host = "127.0.0.1";
    t.port = port != 0 ? port : server_->port();
    t.job_id = kJob;
    t.map_index = 0;
    t.attempt = attempt;
    t.partition = 0;
    return shuffle::FetchPartition(t, dest, kTimeout).status();
  }

  // A fetch into dir, full: ENOSPC comes back as IoError naming the file -> LOCAL, and no
  // partial file is left.
  void ExpectFullDiskIsLocal(const std::string& dir) {
    Status s = Fetch(JoinPath(dir, "m0.run"));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), StatusCode::kIoError) << s.ToString();
    EXPECT_NE(s.message().find("No space left on device"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find(dir), std::string::npos) << s.ToString();
    EXPECT_EQ(FetchCauseOf(s), proto::FETCH_LOCAL);
    EXPECT_FALSE(testing::FetchTempLeft(JoinPath(dir, "m0.run"))) << "the partial file was left behind";
    EXPECT_FALSE(PathExists(JoinPath(dir, "m0.run")));
  }
  // The fetcher's test seam (shuffle/net/fetcher.cc): dir acts as a disk of `bytes` bytes.
  void InjectFullDisk(const std::string& dir, uint64_t bytes) {
    ::setenv("MR_TEST_FULL_DISK", (std::to_string(bytes) + ":" + dir).c_str(), 1);
    injected_ = true;
  }

  TempDir tmp_{"mr-fetch-blame-test"};
  std::unique_ptr<shuffle::ShuffleServer> server_;
  bool mounted_ = false;
  bool injected_ = false;
};

// The reducer's own disk is full (a 64 KiB tmpfs, or where none can be mounted the
// fetcher's injected ENOSPC): the 256 KiB partition does not fit.
TEST_F(FetchBlameTest, FullLocalDiskIsLocal) {
  ASSERT_TRUE(MakeDirs(mnt()).ok());
  if (::mount("tmpfs", mnt().c_str(), "tmpfs", 0, "size=64k") == 0) {
    mounted_ = true;
  } else {
    std::printf("cannot mount a tmpfs (%s): the full disk is injected\n", std::strerror(errno));
    InjectFullDisk(mnt(), 64u << 10);
  }
  ExpectFullDiskIsLocal(mnt());
}

// The injected full disk on its own, on every machine: what the cluster's full-disk tests
// fall back on must fail a fetch as a real one does, and only under its directory.
TEST_F(FetchBlameTest, InjectedFullDiskIsLocalAndOnlyThere) {
  const std::string small = JoinPath(tmp_.path(), "small-injected");
  ASSERT_TRUE(MakeDirs(small).ok());
  InjectFullDisk(small, 300u << 10);
  ASSERT_TRUE(WriteStringToFile(JoinPath(small, "earlier.run"), std::string(64u << 10, 'x')).ok());
  // 64 KiB used + 256 KiB > 300 KiB.
  ExpectFullDiskIsLocal(small);
  // The same fetch elsewhere, or into the same directory once it has room, succeeds.
  EXPECT_TRUE(Fetch(JoinPath(tmp_.path(), "elsewhere.run")).ok());
  ASSERT_TRUE(RemoveAll(JoinPath(small, "earlier.run")).ok());
  Status s = Fetch(JoinPath(small, "m0.run"));
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(FetchBlameTest, MissingLocalDirectoryIsLocal) {
  Status s = Fetch(JoinPath(tmp_.path(), "gone/m0.run"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError) << s.ToString();
  EXPECT_EQ(FetchCauseOf(s), proto::FETCH_LOCAL);
}

TEST_F(FetchBlameTest, OutputTheSourceDoesNotHaveIsSourceCorrupt) {
  Status s = Fetch(JoinPath(tmp_.path(), "m0.run"), /*attempt=*/2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.ToString();
  EXPECT_EQ(FetchCauseOf(s), proto::FETCH_SOURCE_CORRUPT);
  EXPECT_EQ(FetchCauseOf(Status::DataLoss("checksum mismatch")), proto::FETCH_SOURCE_CORRUPT);
}

TEST_F(FetchBlameTest, RefusedConnectionIsUnreachable) {
  const uint16_t port = server_->port();
  server_->Stop();
  server_.reset();
  Status s = Fetch(JoinPath(tmp_.path(), "m0.run"), 1, port);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNetworkError) << s.ToString();
  EXPECT_EQ(FetchCauseOf(s), proto::FETCH_UNREACHABLE);
}

TEST(FetchRetryDelayTest, DoublesUpToTheCap) {
  EXPECT_DOUBLE_EQ(FetchRetryDelay(1), 0.5);
  EXPECT_DOUBLE_EQ(FetchRetryDelay(2), 1.0);
  EXPECT_DOUBLE_EQ(FetchRetryDelay(4), 4.0);
  EXPECT_DOUBLE_EQ(FetchRetryDelay(5), kMaxFetchRetryDelay);
  EXPECT_DOUBLE_EQ(FetchRetryDelay(1000000), kMaxFetchRetryDelay);
}

}  // namespace
}  // namespace mr::shuffle
