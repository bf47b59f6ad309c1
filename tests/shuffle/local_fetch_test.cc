// A reducer's fetch of a map output held by its own worker (shuffle/net/local_fetch.h): the
// run is the map output's data file, linked (no byte copied), and the partition's extent;
// a corrupt extent or index is the source's DataLoss, a missing output NotFound, and the run
// outlives the map output's removal. The same link for a map output another worker on this
// host holds (FetchTarget::link): only once that worker's shuffle server has answered the fetch
// with its data file, so a source that does not answer is not linked.
#include "shuffle/net/local_fetch.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "common/mapped_file.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetch_blame.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/shuffle_server.h"
#include "tests/common/wait.h"
#include "tests/shuffle/scripted_server.h"

namespace mr::shuffle {
namespace {

constexpr uint64_t kJob = 7;

class LocalFetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One map output of three partitions: 0 and 2 hold records, 1 is empty.
    for (uint32_t p = 0; p < 3; ++p) {
      std::string part;
      if (p != 1) {
        for (int i = 0; i < 500; ++i) AppendRecord("k" + std::to_string(p) + "-" + std::to_string(1000 + i), "v", &part);
      }
      index_.partitions.push_back({data_.size(), part.size(), p == 1 ? 0u : 500u, crc32c::Value(part)});
      parts_.push_back(part);
      data_ += part;
    }
    ASSERT_TRUE(MakeDirs(MapOutputDir(work(), kJob)).ok());
    ASSERT_TRUE(WriteStringToFile(MapOutputDataPath(work(), kJob, 3, 1), data_).ok());
    ASSERT_TRUE(index_.WriteTo(MapOutputIndexPath(work(), kJob, 3, 1)).ok());
  }
  std::string work() const { return JoinPath(tmp_.path(), "work"); }
  std::string dest() const { return JoinPath(tmp_.path(), "run-3"); }
  FetchTarget Target(uint32_t partition, uint32_t attempt = 1) const {
    FetchTarget t;
    t.host = "127.0.0.1";
    t.job_id = kJob;
    t.map_index = 3;
    t.attempt = attempt;
    t.partition = partition;
    return t;
  }
  std::unique_ptr<ShuffleServer> Serve(double bandwidth = 0) const {
    ShuffleServerOptions o;
    o.work_dir = work();
    o.bandwidth = bandwidth;
    auto s = ShuffleServer::Start(o);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }
  FetchTarget Linked(uint32_t partition, uint16_t port) const {
    FetchTarget t = Target(partition);
    t.port = port;
    t.link = true;
    return t;
  }
  // Files in the run's directory other than the run and the map outputs' directory.
  size_t FilesBesideTheRun() const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp_.path())) {
      n += e.path() != dest() && e.path().filename() != "work";
    }
    return n;
  }
  ino_t Inode(const std::string& path) const {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
  }
  std::string Run(const FetchResult& r) const {
    auto m = MappedFile::Open(dest(), r.offset, r.bytes);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? std::string(m->data()) : std::string();
  }

  TempDir tmp_{"mr-local-fetch-test"};
  MapOutputIndex index_;
  std::string data_;
  std::vector<std::string> parts_;
};

TEST_F(LocalFetchTest, LinksTheDataFileAndGivesThePartitionsExtent) {
  for (uint32_t p : {2u, 1u, 0u}) {
    // A committed run stays until its file is removed (shuffle/net/run_commit.h): each
    // partition is a new run, as after FetchScheduler::Refetch's removal.
    ASSERT_TRUE(RemoveAll(dest()).ok());
    std::atomic<uint64_t> received{0};
    FetchTarget t = Target(p);
    t.received = &received;
    auto r = FetchLocalPartition(work(), t, dest());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->offset, index_.partitions[p].offset);
    EXPECT_EQ(r->bytes, parts_[p].size());
    EXPECT_EQ(r->records, index_.partitions[p].records);
    EXPECT_EQ(r->crc32c, crc32c::Value(parts_[p]));
    EXPECT_EQ(received.load(), parts_[p].size());
    EXPECT_EQ(Run(*r), parts_[p]);
    EXPECT_EQ(FilesBesideTheRun(), 0u) << "a temporary link was left";
  }
  // The run file is the map output's own inode: nothing was copied.
  struct stat a, b;
  ASSERT_EQ(::stat(dest().c_str(), &a), 0);
  ASSERT_EQ(::stat(MapOutputDataPath(work(), kJob, 3, 1).c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_EQ(a.st_nlink, 2u);
}

TEST_F(LocalFetchTest, TheRunOutlivesTheMapOutputsRemoval) {
  auto r = FetchLocalPartition(work(), Target(0), dest());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(RemoveMapOutput(work(), kJob, 3, 1).ok());
  EXPECT_EQ(Run(*r), parts_[0]);
}

TEST_F(LocalFetchTest, CorruptExtentIsTheSourcesDataLossAndLeavesNothing) {
  std::string bad = data_;
  bad[index_.partitions[2].offset + 10] ^= 0x20;
  ASSERT_TRUE(WriteStringToFile(MapOutputDataPath(work(), kJob, 3, 1), bad).ok());
  auto r = FetchLocalPartition(work(), Target(2), dest());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << r.status().ToString();
  EXPECT_EQ(FetchCauseOf(r.status()), proto::FETCH_SOURCE_CORRUPT);
  EXPECT_FALSE(PathExists(dest()));
  EXPECT_EQ(FilesBesideTheRun(), 0u) << "a temporary link was left";
  // Partition 0's bytes are intact: its fetch still works.
  EXPECT_TRUE(FetchLocalPartition(work(), Target(0), dest()).ok());
}

TEST_F(LocalFetchTest, CorruptIndexIsDataLossAndMissingOutputNotFound) {
  ASSERT_TRUE(WriteStringToFile(MapOutputIndexPath(work(), kJob, 3, 1), "MRIX garbage").ok());
  EXPECT_EQ(FetchLocalPartition(work(), Target(0), dest()).status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(FetchLocalPartition(work(), Target(0, /*attempt=*/2), dest()).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(FetchLocalPartition(work(), Target(5), dest()).status().code(), StatusCode::kDataLoss);
  EXPECT_FALSE(PathExists(dest()));
}

// Issue 30: another worker on this host answers the fetch with its data file, the reducer
// links it; the answer counts as a request served and its bytes as served (the cluster's
// shuffle figures stay those of the loopback copy), though none goes over the socket.
TEST_F(LocalFetchTest, ASourceOnThisHostAnswersALinkRequestWithItsDataFile) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  for (uint32_t p : {2u, 1u, 0u}) {
    ASSERT_TRUE(RemoveAll(dest()).ok());  // a new run each time, as above
    std::atomic<uint64_t> received{0};
    FetchTarget t = Linked(p, server->port());
    t.received = &received;
    auto r = FetchPartition(t, dest(), 10);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->offset, index_.partitions[p].offset);
    EXPECT_EQ(r->bytes, parts_[p].size());
    EXPECT_EQ(r->records, index_.partitions[p].records);
    EXPECT_EQ(received.load(), parts_[p].size());
    EXPECT_EQ(Run(*r), parts_[p]);
    EXPECT_EQ(Inode(dest()), Inode(MapOutputDataPath(work(), kJob, 3, 1))) << "partition " << p << " is a copy";
  }
  EXPECT_TRUE(mr::testing::WaitUntil([&] { return server->requests_served() >= 3u; }, 10));
  EXPECT_EQ(server->requests_served(), 3u);
  EXPECT_EQ(server->links_served(), 3u);
  EXPECT_EQ(server->bytes_sent(), data_.size());
  EXPECT_EQ(server->bytes_sent_by_job()[kJob], data_.size());
}

// Without the request, or from a server under a software cap (every byte crosses the capped
// link), the bytes are sent and the run is a copy.
TEST_F(LocalFetchTest, WithoutTheRequestOrUnderASoftwareCapTheRunIsACopy) {
  for (double bandwidth : {0.0, 1e9}) {
    auto server = Serve(bandwidth);
    ASSERT_NE(server, nullptr);
    FetchTarget t = Linked(0, server->port());
    t.link = bandwidth > 0;
    ASSERT_TRUE(RemoveAll(dest()).ok());  // a new run each time
    auto r = FetchPartition(t, dest(), 10);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->offset, 0u);
    EXPECT_EQ(Run(*r), parts_[0]);
    EXPECT_NE(Inode(dest()), Inode(MapOutputDataPath(work(), kJob, 3, 1))) << "bandwidth " << bandwidth;
    EXPECT_EQ(server->links_served(), 0u);
    EXPECT_EQ(server->bytes_sent(), parts_[0].size());
  }
}

// Issue 30: a stopped source (here a listener that never answers) holds its map output on
// this host, but the fetch fails as a network fetch would: nothing is linked, so the master's
// blame and re-execution see what they see for a remote worker.
TEST_F(LocalFetchTest, ASourceThatDoesNotAnswerIsNotLinked) {
  netio::UniqueFd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(listener.valid());
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener.get(), 8), 0);  // connections queue, nothing reads them
  ASSERT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  auto r = FetchPartition(Linked(0, ntohs(addr.sin_port)), dest(), 0.3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError) << r.status().ToString();
  EXPECT_FALSE(PathExists(dest()));
  struct stat st {};
  ASSERT_EQ(::stat(MapOutputDataPath(work(), kJob, 3, 1).c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 1u) << "the silent source's map output was linked";
}

// A linked extent that fails the CRC the server gave is the source's DataLoss, as bytes that
// fail it on arrival are; nothing is left at the destination.
TEST_F(LocalFetchTest, ALinkedExtentThatFailsItsChecksumIsTheSourcesDataLoss) {
  std::string bad = data_;
  bad[index_.partitions[2].offset + 10] ^= 0x20;
  ASSERT_TRUE(WriteStringToFile(MapOutputDataPath(work(), kJob, 3, 1), bad).ok());
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  auto r = FetchPartition(Linked(2, server->port()), dest(), 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << r.status().ToString();
  EXPECT_EQ(FetchCauseOf(r.status()), proto::FETCH_SOURCE_CORRUPT);
  EXPECT_FALSE(PathExists(dest()));
}

// Issue 30: the source's server grants the link, but its data file cannot be linked from here
// (on another file system: EXDEV; gone since the answer: ENOENT). The fetcher asks again for
// the bytes on the same connection, and the run is a byte-exact copy, counted as received
// bytes at offset 0, not a link. Without the fall back the fetch fails (FailedPrecondition or
// NotFound, which would blame a healthy source). Nothing is written outside the scratch
// directory: /proc's files are on another file system and are only named.
TEST_F(LocalFetchTest, ALinkThatCannotBeMadeFallsBackToTheBytes) {
  const std::string missing = JoinPath(tmp_.path(), "gone-since-the-answer.data");
  for (const std::string& data_path : {std::string("/proc/self/status"), missing}) {
    SCOPED_TRACE(data_path);
    ASSERT_TRUE(RemoveAll(dest()).ok());
    const std::string& part = parts_[0];
    std::vector<bool> asked_link;
    {
      testing::ScriptedServer server([&](const proto::FetchRequest& req, int fd) {
        asked_link.push_back(req.link());
        if (!req.link()) return testing::ScriptedServer::WriteHeader(fd, part, 500) &&
                              testing::ScriptedServer::WriteBytes(fd, part);
        proto::FetchReply reply;  // the grant: the extent and the data file, no bytes
        reply.set_ok(true);
        reply.set_length(part.size());
        reply.set_records(500);
        reply.set_crc32c(crc32c::Value(part));
        reply.set_offset(index_.partitions[0].offset);
        reply.set_data_path(data_path);
        return netio::WriteFrameFd(fd, reply.SerializeAsString(), 10).ok();
      });
      std::atomic<uint64_t> received{0};
      FetchTarget t = Linked(0, server.port());
      t.received = &received;
      auto r = FetchPartition(t, dest(), 10);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(r->offset, 0u);
      EXPECT_EQ(r->bytes, part.size());
      EXPECT_EQ(r->crc32c, crc32c::Value(part));
      EXPECT_EQ(received.load(), part.size());
      EXPECT_EQ(Run(*r), part);
      struct stat st {};
      ASSERT_EQ(::stat(dest().c_str(), &st), 0);
      EXPECT_EQ(st.st_nlink, 1u) << "the run is not a copy of its own";
      EXPECT_EQ(FilesBesideTheRun(), 0u) << "a temporary file was left";
    }  // the server's thread is joined: asked_link is complete
    EXPECT_EQ(asked_link, (std::vector<bool>{true, false})) << "the bytes were not asked for on the same connection";
  }
}

// Issue 30: the source's side of that fall back. A granted link the fetcher could not make,
// then the bytes of the same partition asked for on the same connection (what the fetcher
// does, above), is one fetch: one request served, its bytes counted once (at the grant), and
// no link. Before, the server counted it twice (the grant, then the bytes: 2 requests, 2 ×
// the bytes, 1 link), so a worker's served bytes and the cluster's shuffle_bytes_sent grew
// by two partitions for one. The bytes of another partition next are a fetch of their own.
TEST_F(LocalFetchTest, ALinkFallenBackFromIsOneFetchAtTheServer) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  auto conn = netio::ConnectTcp("127.0.0.1", server->port(), 10);
  ASSERT_TRUE(conn.ok()) << conn.status().ToString();
  // One request on the connection: the data file's path if a link was granted, else the bytes.
  auto ask = [&](uint32_t partition, bool link) -> std::string {
    proto::FetchRequest req;
    req.set_job_id(kJob);
    req.set_map_index(3);
    req.set_attempt(1);
    req.set_partition(partition);
    req.set_link(link);
    EXPECT_TRUE(netio::WriteFrameFd(conn->get(), req.SerializeAsString(), 10).ok());
    auto frame = netio::ReadFrameFd(conn->get(), kMaxFetchRequestBytes, 10, 10);
    proto::FetchReply reply;
    if (!frame.ok() || !reply.ParseFromString(*frame) || !reply.ok()) return "no reply";
    if (!reply.data_path().empty()) return "link " + reply.data_path();
    std::string bytes(reply.length(), '\0');
    EXPECT_TRUE(netio::ReadFull(conn->get(), bytes.data(), bytes.size(), 10).ok());
    return bytes;
  };
  ASSERT_EQ(ask(0, true).rfind("link /", 0), 0u) << "the link was not granted";
  ASSERT_EQ(ask(0, false), parts_[0]);  // the fall back
  ASSERT_EQ(ask(2, false), parts_[2]);  // another fetch
  // Counted after the reply is sent: wait for the last fetch's count.
  EXPECT_TRUE(mr::testing::WaitUntil([&] { return server->bytes_sent() >= parts_[0].size() + parts_[2].size() &&
                                                  server->requests_served() >= 2u; }, 10));
  EXPECT_EQ(server->requests_served(), 2u);
  EXPECT_EQ(server->links_served(), 0u);
  EXPECT_EQ(server->link_fallbacks(), 1u);
  EXPECT_EQ(server->bytes_sent(), parts_[0].size() + parts_[2].size());
  EXPECT_EQ(server->bytes_sent_by_job()[kJob], parts_[0].size() + parts_[2].size());
}

// The same through the fetcher: a reducer whose run directory is on another file system than
// the source's data file (here /dev/shm, a tmpfs) is granted the link, cannot make it (EXDEV)
// and receives the bytes on the same connection; the server counts one fetch.
TEST_F(LocalFetchTest, AFetcherThatCannotLinkIsOneFetchAtTheServer) {
  std::string tmpl = "/dev/shm/mr-local-fetch-test-XXXXXX";
  struct stat shm {}, here {};
  if (::stat("/dev/shm", &shm) != 0 || ::stat(tmp_.path().c_str(), &here) != 0 || shm.st_dev == here.st_dev ||
      ::mkdtemp(tmpl.data()) == nullptr) {
    GTEST_SKIP() << "no /dev/shm on another file system than " << tmp_.path();
  }
  struct Removed {
    std::string dir;
    ~Removed() { (void)RemoveAll(dir); }
  } shm_dir{tmpl};
  const std::string run = JoinPath(tmpl, "run-3");
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  auto r = FetchPartition(Linked(0, server->port()), run, 10);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->offset, 0u) << "not a copy: the link was made";
  EXPECT_TRUE(mr::testing::WaitUntil([&] { return server->link_fallbacks() >= 1u; }, 10));
  EXPECT_EQ(server->requests_served(), 1u);
  EXPECT_EQ(server->links_served(), 0u);
  EXPECT_EQ(server->bytes_sent(), parts_[0].size());
}

}  // namespace
}  // namespace mr::shuffle
