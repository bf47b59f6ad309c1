#include "shuffle/format/merger.h"

#include <cstdio>

#include <gtest/gtest.h>

#include "common/crc32c.h"
#include "shuffle/map_output.h"

namespace mr::shuffle {
namespace {

std::string MakeRun(const std::vector<std::pair<std::string, std::string>>& records) {
  std::string run;
  for (const auto& [k, v] : records) AppendRecord(k, v, &run);
  return run;
}

TEST(RunMergerTest, GroupsKeysAcrossRunsInRunOrder) {
  std::string r0 = MakeRun({{"a", "0a"}, {"c", "0c1"}, {"c", "0c2"}});
  std::string r1 = MakeRun({{"b", "1b"}, {"c", "1c"}});
  std::string r2;  // empty run
  std::string r3 = MakeRun({{"a", "3a"}, {"d", "3d"}});
  RunMerger m({r0, r1, r2, r3});
  std::vector<std::string> got;
  while (m.NextKey()) {
    std::string line(m.key());
    std::string_view v;
    while (m.NextValue(&v)) line += " " + std::string(v);
    got.push_back(line);
  }
  ASSERT_TRUE(m.status().ok());
  EXPECT_EQ(got, (std::vector<std::string>{"a 0a 3a", "b 1b", "c 0c1 0c2 1c", "d 3d"}));
  EXPECT_EQ(m.records_read(), 7u);
}

// done_bytes(i): the prefix of run i the merge no longer needs (the reduce task drops its
// pages): never past the current record's start, nor past what was hashed when checksums are
// on; the whole run once it is exhausted. Prefixes of 8 bytes tie here ("keyprefix..."), so
// the merge also compares the bytes after them.
TEST(RunMergerTest, DoneBytesStopAtTheCurrentRecordAndTheHashedBytes) {
  std::vector<std::pair<std::string, std::string>> a, b;
  for (int i = 0; i < 2000; ++i) {
    char k[32];
    std::snprintf(k, sizeof k, "keyprefix%06d", 2 * i + (i % 3 == 0 ? 0 : 1));
    (i % 2 == 0 ? a : b).push_back({k, std::string(40, 'v')});
  }
  const std::string r0 = MakeRun(a), r1 = MakeRun(b);
  for (bool checked : {false, true}) {
    std::vector<uint32_t> crcs;
    if (checked) crcs = {crc32c::Value(r0), crc32c::Value(r1)};
    RunMerger m({r0, r1}, crcs);
    EXPECT_EQ(m.num_runs(), 2u);
    size_t prev0 = 0, prev1 = 0;
    std::string last;
    while (m.NextKey()) {
      EXPECT_LE(last, std::string(m.key()));
      last = std::string(m.key());
      // The current group's key still reads right wherever it lies.
      std::string_view v;
      while (m.NextValue(&v)) {
      }
      const size_t d0 = m.done_bytes(0), d1 = m.done_bytes(1);
      EXPECT_GE(d0, prev0);
      EXPECT_GE(d1, prev1);
      EXPECT_LE(d0, r0.size());
      EXPECT_LE(d1, r1.size());
      prev0 = d0;
      prev1 = d1;
    }
    ASSERT_TRUE(m.status().ok()) << m.status().ToString();
    EXPECT_EQ(m.done_bytes(0), r0.size());
    EXPECT_EQ(m.done_bytes(1), r1.size());
    EXPECT_EQ(m.records_read(), 2000u);
  }
}

TEST(RunMergerTest, UnreadValuesAreSkipped) {
  std::string r0 = MakeRun({{"a", "1"}, {"a", "2"}, {"b", "3"}});
  RunMerger m({r0});
  ASSERT_TRUE(m.NextKey());
  ASSERT_TRUE(m.NextKey());
  EXPECT_EQ(m.key(), "b");
  std::string_view v;
  ASSERT_TRUE(m.NextValue(&v));
  EXPECT_EQ(v, "3");
  EXPECT_FALSE(m.NextKey());
}

TEST(RunMergerTest, MalformedRunIsAnError) {
  std::string good = MakeRun({{"a", "1"}});
  std::string bad = MakeRun({{"b", "2"}});
  bad.pop_back();  // truncated
  RunMerger m({good, bad});
  while (m.NextKey()) {
  }
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
}

TEST(RunMergerTest, UnsortedRunIsAnError) {
  std::string run = MakeRun({{"b", "1"}, {"a", "2"}});
  RunMerger m({run});
  while (m.NextKey()) {
  }
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
}

// Reads the whole merge; returns the number of records read.
uint64_t Drain(RunMerger& m) {
  std::string_view v;
  while (m.NextKey()) {
    while (m.NextValue(&v)) {
    }
  }
  return m.records_read();
}

// Runs of a few hundred KiB: the merge checks them in 64 KiB steps and in full at their end.
std::vector<std::string> BigRuns() {
  std::vector<std::string> runs(2);
  for (int i = 0; i < 4000; ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "k%05d", i);
    AppendRecord(key, std::string(100, static_cast<char>('a' + i % 26)), &runs[i % 2]);
  }
  return runs;
}

TEST(RunMergerTest, IntactRunsPassTheirChecksums) {
  auto runs = BigRuns();
  RunMerger m({runs[0], runs[1]}, {crc32c::Value(runs[0]), crc32c::Value(runs[1])});
  EXPECT_EQ(Drain(m), 4000u);
  EXPECT_TRUE(m.status().ok()) << m.status().ToString();
  EXPECT_TRUE(m.corrupt_runs().empty());
}

// A flipped bit in a value near the end of run 1 leaves it well-formed and sorted; only
// the checksum can tell, and the merge must end in DataLoss naming run 1.
TEST(RunMergerTest, FlippedValueBitIsDataLoss) {
  auto runs = BigRuns();
  const uint32_t crc0 = crc32c::Value(runs[0]), crc1 = crc32c::Value(runs[1]);
  runs[1][runs[1].size() - 10] ^= 0x01;
  RunMerger m({runs[0], runs[1]}, {crc0, crc1});
  Drain(m);
  EXPECT_EQ(m.status().code(), StatusCode::kDataLoss) << m.status().ToString();
  EXPECT_EQ(m.corrupt_runs(), std::vector<uint32_t>{1});
}

// A flipped bit in a length makes the run malformed: still reported as the corruption it is.
TEST(RunMergerTest, CorruptLengthIsDataLossNotMalformed) {
  auto runs = BigRuns();
  const uint32_t crc0 = crc32c::Value(runs[0]), crc1 = crc32c::Value(runs[1]);
  runs[0][0] ^= 0x40;  // the first record's key length
  RunMerger m({runs[0], runs[1]}, {crc0, crc1});
  Drain(m);
  EXPECT_EQ(m.status().code(), StatusCode::kDataLoss) << m.status().ToString();
  EXPECT_EQ(m.corrupt_runs(), std::vector<uint32_t>{0});
}

// Without checksums a malformed run is still InvalidArgument (spill merges, old callers).
TEST(RunMergerTest, MalformedRunWithoutChecksumsIsInvalidArgument) {
  std::string bad = "\xff\xff\xff";
  RunMerger m({bad});
  Drain(m);
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument) << m.status().ToString();
}

}  // namespace
}  // namespace mr::shuffle
