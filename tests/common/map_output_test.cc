#include "shuffle/map_output.h"

#include <gtest/gtest.h>

namespace mr::shuffle {
namespace {

TEST(MapOutputIndexTest, RoundTrip) {
  MapOutputIndex idx;
  idx.partitions = {{0, 10, 2}, {10, 0, 0}, {10, 5, 1}};
  auto back = MapOutputIndex::Decode(idx.Encode());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->partitions.size(), 3u);
  EXPECT_EQ(back->partitions[2].offset, 10u);
  EXPECT_EQ(back->partitions[2].length, 5u);
}

TEST(MapOutputIndexTest, RejectsCorruption) {
  MapOutputIndex idx;
  idx.partitions = {{0, 10, 2}, {10, 7, 1}};
  std::string bytes = idx.Encode();
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x41;
    EXPECT_FALSE(MapOutputIndex::Decode(bad).ok()) << "byte " << i;
  }
  EXPECT_FALSE(MapOutputIndex::Decode(bytes.substr(0, bytes.size() - 1)).ok());
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
