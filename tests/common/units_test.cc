#include "common/units.h"

#include <gtest/gtest.h>

namespace mr {
namespace {

TEST(UnitsTest, ParsesByteSizes) {
  EXPECT_EQ(*ParseBytes("4096"), 4096u);
  EXPECT_EQ(*ParseBytes("32MiB"), 32u << 20);
  EXPECT_EQ(*ParseBytes("1.5GB"), 1500000000u);
  EXPECT_EQ(*ParseBytes("2k"), 2000u);
  EXPECT_FALSE(ParseBytes("").ok());
  EXPECT_FALSE(ParseBytes("MB").ok());
  EXPECT_FALSE(ParseBytes("12 parsecs").ok());
}

TEST(UnitsTest, ParsesRates) {
  EXPECT_DOUBLE_EQ(*ParseRate("50MB/s"), 50e6);
  EXPECT_DOUBLE_EQ(*ParseRate("0"), 0);
  EXPECT_DOUBLE_EQ(*ParseRate("unlimited"), 0);
  EXPECT_FALSE(ParseRate("fast").ok());
}

TEST(UnitsTest, ParsesDurations) {
  EXPECT_DOUBLE_EQ(*ParseDuration("0"), 0);
  EXPECT_DOUBLE_EQ(*ParseDuration("90"), 90);
  EXPECT_DOUBLE_EQ(*ParseDuration("90s"), 90);
  EXPECT_DOUBLE_EQ(*ParseDuration("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(*ParseDuration("30m"), 1800);
  EXPECT_DOUBLE_EQ(*ParseDuration("1.5h"), 5400);
  EXPECT_DOUBLE_EQ(*ParseDuration("7D"), 7 * 86400);
  EXPECT_FALSE(ParseDuration("").ok());
  EXPECT_FALSE(ParseDuration("-1s").ok());
  EXPECT_FALSE(ParseDuration("3 weeks").ok());
  EXPECT_EQ(ParseDuration("3w").status().message(), "unknown unit 'w' in duration '3w' (s, ms, m, h, d)");
  EXPECT_FALSE(ParseDuration("1e400").ok());
}

TEST(UnitsTest, FormatsBytesAndPercentages) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1.5 * 1048576), "1.5 MiB");
  // A pair in the total's unit, whatever the done part's own would be.
  EXPECT_EQ(FormatBytesOf(0.625 * 35 * 1048576, 35 * 1048576), "21.9/35.0 MiB");
  EXPECT_EQ(FormatBytesOf(512, 900), "512/900 B");
  EXPECT_EQ(FormatBytesOf(1000, 4096), "1.0/4.0 KiB");
  EXPECT_EQ(PercentFloor(0.29), 29);
  EXPECT_EQ(PercentFloor(0.999), 99);
  EXPECT_EQ(FormatPercent(1), "100%");
}

TEST(UnitsTest, ParsesHostPort) {
  auto hp = ParseHostPort("10.0.0.1:7070");
  ASSERT_TRUE(hp.ok());
  EXPECT_EQ(hp->host, "10.0.0.1");
  EXPECT_EQ(hp->port, 7070);
  EXPECT_EQ(ParseHostPort(":0")->host, "127.0.0.1");
  EXPECT_FALSE(ParseHostPort("nohost").ok());
  EXPECT_FALSE(ParseHostPort("h:70000").ok());
  EXPECT_FALSE(ParseHostPort("h:12x").ok());
}

}  // namespace
}  // namespace mr
