// A reducer's fetch of a map output held by its own worker (shuffle/net/local_fetch.h): the
// run is the map output's data file, linked (no byte copied), and the partition's extent;
// a corrupt extent or index is the source's DataLoss, a missing output NotFound, and the run
// outlives the map output's removal.
#include "shuffle/net/local_fetch.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <string>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "common/mapped_file.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetch_blame.h"

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
  for (uint32_t p : {2u, 1u, 0u}) {  // each replaces the run file the previous one left
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
    EXPECT_FALSE(PathExists(dest() + ".tmp"));
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
  EXPECT_FALSE(PathExists(dest() + ".tmp"));
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

}  // namespace
}  // namespace mr::shuffle
