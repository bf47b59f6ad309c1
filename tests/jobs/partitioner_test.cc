#include <gtest/gtest.h>

#include <algorithm>

#include "common/file_util.h"
#include "jobs/builtin_jobs.h"
#include "jobs/hash_partitioner.h"
#include "jobs/input_source.h"
#include "jobs/line_sampler.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {
namespace {

TEST(HashPartitionerTest, Fnv1aMatchesReferenceValues) {
  // Published FNV-1a 64 test vectors: the partitioner must not change between builds.
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(HashPartitionerTest, InRangeDeterministicAndSpread) {
  HashPartitioner a, b;
  std::vector<int> hits(7);
  for (int i = 0; i < 7000; ++i) {
    std::string key = "key" + std::to_string(i);
    uint32_t p = a.Partition(key, 7);
    ASSERT_LT(p, 7u);
    EXPECT_EQ(p, b.Partition(key, 7));
    ++hits[p];
  }
  for (int h : hits) EXPECT_GT(h, 700);  // roughly uniform (expect 1000 each)
  EXPECT_EQ(a.Partition("anything", 1), 0u);
}

TEST(RangePartitionerTest, KeysGoBetweenCutPoints) {
  RangePartitioner p({"b", "d"});
  EXPECT_EQ(p.Partition("", 3), 0u);
  EXPECT_EQ(p.Partition("a", 3), 0u);
  EXPECT_EQ(p.Partition("azzz", 3), 0u);
  EXPECT_EQ(p.Partition("b", 3), 1u);
  EXPECT_EQ(p.Partition("c", 3), 1u);
  EXPECT_EQ(p.Partition("d", 3), 2u);
  EXPECT_EQ(p.Partition("zz", 3), 2u);
  EXPECT_EQ(p.Partition("zz", 2), 1u);  // only the first R-1 cuts count
  EXPECT_EQ(p.Partition("zz", 1), 0u);
}

TEST(RangePartitionerTest, CutPointsRoundTripAnyBytes) {
  std::vector<std::string> cuts = {"", std::string("\0,a", 3), "\xff\n", "\xff\xff"};
  auto decoded = DecodeCutPoints(EncodeCutPoints(cuts));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, cuts);
  EXPECT_TRUE(DecodeCutPoints("")->empty());
  EXPECT_FALSE(DecodeCutPoints("zz").ok());
  EXPECT_FALSE(DecodeCutPoints("abc").ok());
  EXPECT_FALSE(DecodeCutPoints("62,61").ok());  // "b" then "a": unsorted
}

TEST(LineSamplerTest, CutPointsAreQuantilesOfTheInput) {
  TempDir dir;
  std::string path = JoinPath(dir.path(), "in");
  std::string text;
  for (int i = 0; i < 10000; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%05d\n", (i * 7919) % 10000);
    text += buf;
  }
  ASSERT_TRUE(WriteStringToFile(path, text).ok());
  auto samples = SampleLines(LocalInputs(), {InputFile{path, text.size(), ""}}, 1000);
  ASSERT_TRUE(samples.ok());
  EXPECT_GE(samples->size(), 900u);
  for (const auto& s : *samples) EXPECT_EQ(s.size(), 5u) << "sample not aligned to a line: " << s;
  auto cuts = PickCutPoints(*samples, 4);
  ASSERT_EQ(cuts.size(), 3u);
  // Uniform keys 0..9999: quartiles near 2500, 5000, 7500.
  EXPECT_NEAR(std::stoi(cuts[0]), 2500, 400);
  EXPECT_NEAR(std::stoi(cuts[1]), 5000, 400);
  EXPECT_NEAR(std::stoi(cuts[2]), 7500, 400);
  EXPECT_TRUE(PickCutPoints({}, 4).empty());
  EXPECT_TRUE(PickCutPoints(*samples, 1).empty());
}


// Issue 11: the sort job's cut points ride in every assignment. Sampled from an input of
// multi-megabyte lines they used to be whole lines (hex: twice their size), so one
// assignment outgrew the 16 MiB frame limit and the job hung. Now they are bounded.
TEST(LineSamplerTest, SortCutPointsStayBoundedWhateverTheLineLength) {
  TempDir dir;
  std::string path = JoinPath(dir.path(), "in");
  std::string text;
  for (char c : std::string("dbca")) text += std::string(3u << 20, c) + "\n";
  ASSERT_TRUE(WriteStringToFile(path, text).ok());
  auto job = CreateJob("sort", {});
  ASSERT_TRUE(job.ok());
  auto plan = (*job)->Plan(LocalInputs(), {path}, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const std::string& encoded = plan->extra_params[kCutPointsParam];
  EXPECT_LE(encoded.size(), 2 * kCutPointsBudgetBytes + 3) << "cut points grow with the data";
  auto cuts = DecodeCutPoints(encoded);
  ASSERT_TRUE(cuts.ok());
  ASSERT_EQ(cuts->size(), 3u);
  EXPECT_LT((*cuts)[0], (*cuts)[2]);  // still spread over the input
}

// Truncated cut points still partition monotonically: a key never goes to an earlier
// partition than a smaller key, so the concatenated parts are globally sorted, even for
// keys that share a prefix longer than the cut points.
TEST(LineSamplerTest, TruncatedCutPointsKeepTheOrder) {
  std::vector<std::string> samples, keys;
  const std::string common(3000, 'k');
  for (int i = 0; i < 400; ++i) {
    std::string tail = std::to_string((i * 7919) % 400);
    samples.push_back(common + tail);
    keys.push_back(common + tail);
    keys.push_back(common.substr(0, static_cast<size_t>(i) * 7) + tail);
  }
  auto cuts = PickCutPoints(samples, 5);
  ASSERT_EQ(cuts.size(), 4u);
  for (const auto& c : cuts) EXPECT_LE(c.size(), kMaxCutPointBytes);
  RangePartitioner p(cuts);
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) {
    EXPECT_LE(p.Partition(keys[i - 1], 5), p.Partition(keys[i], 5)) << "at key " << i;
  }
  // Many reducers: each cut shrinks so that together they stay within the budget.
  auto many = PickCutPoints(samples, 1000);
  size_t total = 0;
  for (const auto& c : many) total += c.size();
  EXPECT_LE(total, kCutPointsBudgetBytes);
}

}  // namespace
}  // namespace mr::jobs
