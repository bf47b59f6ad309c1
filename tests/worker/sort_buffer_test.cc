// SortBuffer (worker/task/sort_buffer.h): records, small and larger than an arena chunk,
// come out sorted by (partition, key), equal keys in insertion order, each partition's
// extent and CRC matching its bytes; the buffer is reusable after WriteSorted.
#include "worker/task/sort_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/crc32c.h"
#include "common/file_util.h"

namespace mr::worker {
namespace {

struct Rec {
  uint32_t partition;
  std::string key;
  std::string value;
};

TEST(SortBufferTest, SortsSmallAndOversizedRecordsStablyAcrossChunks) {
  TempDir dir("mr-sort-buffer-test");
  std::mt19937 rng(7);
  std::vector<Rec> recs;
  for (int i = 0; i < 20000; ++i) {
    std::string key(1 + rng() % 12, 'a');
    for (char& c : key) c = static_cast<char>('a' + rng() % 3);  // many equal keys and prefixes
    recs.push_back({static_cast<uint32_t>(rng() % 3), key, std::to_string(i) + std::string(rng() % 200, 'v')});
    if (i % 5000 == 17) {  // larger than a chunk: its own allocation
      recs.push_back({static_cast<uint32_t>(rng() % 3), key, std::string(SortBuffer::kChunkBytes + 5, 'w')});
    }
  }
  for (int round = 0; round < 2; ++round) {  // the second round reuses pooled chunks
    SortBuffer buffer(uint64_t{1} << 30);
    for (const Rec& r : recs) buffer.Add(r.partition, r.key, r.value);
    const std::string path = JoinPath(dir.path(), "run" + std::to_string(round));
    FileWriter out;
    ASSERT_TRUE(out.Open(path, /*checksum=*/true).ok());
    std::vector<shuffle::PartitionExtent> extents;
    TaskCounters counters;
    ASSERT_TRUE(buffer.WriteSorted(3, nullptr, &out, &extents, &counters).ok());
    ASSERT_TRUE(out.Close().ok());
    EXPECT_TRUE(buffer.empty());

    std::vector<Rec> want = recs;
    std::stable_sort(want.begin(), want.end(), [](const Rec& a, const Rec& b) {
      return std::tie(a.partition, a.key) < std::tie(b.partition, b.key);
    });
    auto data = ReadFileToString(path);
    ASSERT_TRUE(data.ok());
    size_t w = 0;
    ASSERT_EQ(extents.size(), 3u);
    for (uint32_t p = 0; p < 3; ++p) {
      const std::string_view seg = std::string_view(*data).substr(extents[p].offset, extents[p].length);
      EXPECT_EQ(crc32c::Value(seg), extents[p].crc32c);
      size_t pos = 0;
      std::string_view k, v;
      uint64_t n = 0;
      while (shuffle::ParseRecord(seg, &pos, &k, &v)) {
        ASSERT_LT(w, want.size());
        EXPECT_EQ(want[w].partition, p);
        EXPECT_EQ(k, want[w].key);
        EXPECT_EQ(v, want[w].value);
        ++w;
        ++n;
      }
      EXPECT_EQ(n, extents[p].records);
    }
    EXPECT_EQ(w, want.size());
  }
}

}  // namespace
}  // namespace mr::worker
