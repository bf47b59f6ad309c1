#include "common/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace mr::crc32c {
namespace {

// The check values of CRC-32C (Castagnoli), RFC 3720 B.4 and the CRC catalogue.
TEST(Crc32cTest, StandardVectors) {
  EXPECT_EQ(Value(std::string_view("123456789")), 0xE3069283u);
  EXPECT_EQ(Value(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Value(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending(32, '\0');
  for (int i = 0; i < 32; ++i) ascending[i] = static_cast<char>(i);
  EXPECT_EQ(Value(ascending), 0x46DD794Eu);
  EXPECT_EQ(Value(std::string_view()), 0u);
}

TEST(Crc32cTest, ExtendEqualsOneShotAtEverySplit) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>(i * 7 + 3));
  const uint32_t whole = Value(data);
  for (size_t cut = 0; cut <= data.size(); cut += 37) {
    uint32_t crc = Value(data.data(), cut);
    crc = Extend(crc, data.data() + cut, data.size() - cut);
    EXPECT_EQ(crc, whole) << "cut at " << cut;
  }
}

TEST(Crc32cTest, OneFlippedBitChangesTheValue) {
  std::string data(4096, 'k');
  const uint32_t good = Value(data);
  for (size_t i = 0; i < data.size(); i += 511) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = data;
      bad[i] ^= static_cast<char>(1 << bit);
      EXPECT_NE(Value(bad), good) << "byte " << i << " bit " << bit;
    }
  }
}

}  // namespace
}  // namespace mr::crc32c
