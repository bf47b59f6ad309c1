#include "shuffle/map_output.h"

#include <gtest/gtest.h>

namespace mr::shuffle {
namespace {

TEST(MapOutputIndexTest, RoundTripKeepsEveryFieldAndCrc) {
  MapOutputIndex idx;
  idx.partitions = {{0, 10, 2, 0xE3069283u}, {10, 0, 0, 0}, {10, 5, 1, 0xFFFFFFFFu}};
  const std::string bytes = idx.Encode();
  EXPECT_EQ(bytes.size(), 12u + 3 * 28 + 4);
  auto back = MapOutputIndex::Decode(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->partitions.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back->partitions[i].offset, idx.partitions[i].offset);
    EXPECT_EQ(back->partitions[i].length, idx.partitions[i].length);
    EXPECT_EQ(back->partitions[i].records, idx.partitions[i].records);
    EXPECT_EQ(back->partitions[i].crc32c, idx.partitions[i].crc32c) << "partition " << i;
  }
}

// A version-1 index (no data checksums) as the previous code wrote it: refused with a
// reason, so its map runs again rather than being served unchecked.
TEST(MapOutputIndexTest, RejectsVersionOneClearly) {
  std::string v1("MRIX", 4);
  auto put = [&v1](uint64_t v, int n) { v1.append(reinterpret_cast<const char*>(&v), n); };
  put(1, 4);
  put(1, 4);
  put(0, 8);
  put(10, 8);
  put(2, 8);
  put(12, 8);  // the old sum-of-fields checksum
  auto r = MapOutputIndex::Decode(v1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("version 1"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("runs again"), std::string::npos) << r.status().ToString();
}

TEST(MapOutputIndexTest, RejectsCorruption) {
  MapOutputIndex idx;
  idx.partitions = {{0, 10, 2, 0x12345678u}, {10, 7, 1, 0x9abcdef0u}};
  std::string bytes = idx.Encode();
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x41;
    EXPECT_FALSE(MapOutputIndex::Decode(bad).ok()) << "byte " << i;
  }
  EXPECT_FALSE(MapOutputIndex::Decode(bytes.substr(0, bytes.size() - 1)).ok());
}

// The names a worker lists when it registers again parse back to what built them; single-
// digit map indices included (a length check once skipped maps 0-9).
TEST(MapOutputNamesTest, IndexAndDirectoryNamesParseBack) {
  for (uint32_t map : {0u, 7u, 10u, 123456u}) {
    for (uint32_t attempt : {1u, 9u, 42u}) {
      std::string path = MapOutputIndexPath("/w", 5, map, attempt);
      uint32_t m = 99, a = 99;
      ASSERT_TRUE(ParseMapOutputIndexName(path.substr(path.rfind('/') + 1), &m, &a)) << path;
      EXPECT_EQ(m, map);
      EXPECT_EQ(a, attempt);
    }
  }
  std::string dir = MapOutputDir("/w", 1234);
  uint64_t job = 0;
  ASSERT_TRUE(ParseMapOutputDirName(dir.substr(dir.rfind('/') + 1), &job));
  EXPECT_EQ(job, 1234u);
  uint32_t m = 0, a = 0;
  for (const char* bad : {"m0-a0.index", "m0-a1.data", "m-a1.index", "m0a1.index", "mx-a1.index", "m0-a1.index.tmp",
                          "r0", "m0-a99999999999.index", ".index", "m0-a1"}) {
    EXPECT_FALSE(ParseMapOutputIndexName(bad, &m, &a)) << bad;
  }
  for (const char* bad : {"j", "jx", "r1", "j-1", "j12345678901234567890"}) EXPECT_FALSE(ParseMapOutputDirName(bad, &job)) << bad;
}

TEST(RecordTest, RoundTripAndTruncation) {
  std::string buf;
  AppendRecord("key", "value", &buf);
  AppendRecord(std::string(300, 'k'), "", &buf);
  size_t pos = 0;
  std::string_view k, v;
  ASSERT_TRUE(ParseRecord(buf, &pos, &k, &v));
  EXPECT_EQ(k, "key");
  EXPECT_EQ(v, "value");
  ASSERT_TRUE(ParseRecord(buf, &pos, &k, &v));
  EXPECT_EQ(k.size(), 300u);
  EXPECT_EQ(pos, buf.size());
  size_t p2 = 0;
  EXPECT_FALSE(ParseRecord(std::string_view(buf).substr(0, 6), &p2, &k, &v));
}

}  // namespace
}  // namespace mr::shuffle
