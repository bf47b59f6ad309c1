#include "jobs/input_split.h"

#include <gtest/gtest.h>

#include <random>

#include "common/file_util.h"

namespace mr::jobs {
namespace {

std::string RandomText(size_t lines, uint32_t seed, bool trailing_newline) {
  std::mt19937 rng(seed);
  std::string s;
  for (size_t i = 0; i < lines; ++i) {
    size_t len = rng() % 5 == 0 ? 0 : rng() % 40;  // some empty lines
    for (size_t j = 0; j < len; ++j) s.push_back(static_cast<char>('a' + rng() % 26));
    if (i + 1 < lines || trailing_newline) s.push_back('\n');
  }
  return s;
}

// Checks every split starts at a line start, ends after '\n' or at EOF, and that
// the splits tile each file exactly.
void CheckSplits(const std::vector<std::string>& paths, const std::vector<std::string>& contents,
                 const std::vector<Split>& splits) {
  std::vector<std::string> rebuilt(contents.size());
  for (const auto& s : splits) {
    ASSERT_LT(s.file_index, contents.size());
    ASSERT_EQ(s.path, paths[s.file_index]);
    const std::string& c = contents[s.file_index];
    ASSERT_EQ(s.offset, rebuilt[s.file_index].size()) << "gap or overlap in " << s.path;
    ASSERT_GT(s.length, 0u);
    if (s.offset > 0) {
      ASSERT_EQ(c[s.offset - 1], '\n');
    }
    uint64_t end = s.offset + s.length;
    ASSERT_LE(end, c.size());
    if (end < c.size()) {
      ASSERT_EQ(c[end - 1], '\n');
    }
    rebuilt[s.file_index] += c.substr(s.offset, s.length);
  }
  for (size_t i = 0; i < contents.size(); ++i) EXPECT_EQ(rebuilt[i], contents[i]);
}

TEST(InputSplitTest, SplitsTileFilesOnLineBoundariesForManySizes) {
  TempDir dir;
  std::vector<std::string> contents = {RandomText(300, 1, true), RandomText(200, 2, false), "",
                                       "x", "\n\n\n", std::string(5000, 'q')};
  std::vector<std::string> paths;
  for (size_t i = 0; i < contents.size(); ++i) {
    paths.push_back(JoinPath(dir.path(), "f" + std::to_string(i)));
    ASSERT_TRUE(WriteStringToFile(paths.back(), contents[i]).ok());
  }
  for (uint64_t size : {1, 2, 3, 7, 64, 1000, 4999, 5000, 1 << 20}) {
    SCOPED_TRACE("split size " + std::to_string(size));
    auto splits = ComputeSplits(paths, size);
    ASSERT_TRUE(splits.ok()) << splits.status().ToString();
    CheckSplits(paths, contents, *splits);
    for (const auto& s : *splits) EXPECT_NE(s.file_index, 2u) << "empty file produced a split";
  }
}

TEST(InputSplitTest, OneByteSplitsAreOneLineEach) {
  TempDir dir;
  std::string path = JoinPath(dir.path(), "in");
  ASSERT_TRUE(WriteStringToFile(path, "ab\n\ncd\ne").ok());
  auto splits = ComputeSplits({path}, 1);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 4u);
  EXPECT_EQ((*splits)[0].length, 3u);
  EXPECT_EQ((*splits)[1].length, 1u);
  EXPECT_EQ((*splits)[2].length, 3u);
  EXPECT_EQ((*splits)[3].length, 1u);  // last line without '\n'
}

TEST(InputSplitTest, LargeSplitSizeGivesOneSplitPerFile) {
  TempDir dir;
  std::string path = JoinPath(dir.path(), "in");
  ASSERT_TRUE(WriteStringToFile(path, RandomText(100, 3, true)).ok());
  auto splits = ComputeSplits({path}, 1 << 30);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 1u);
  EXPECT_EQ((*splits)[0].offset, 0u);
}

TEST(InputSplitTest, DirectoryExpandsSortedSkippingHiddenAndUnderscore) {
  TempDir dir;
  for (const char* name : {"b", "a", "_SUCCESS", ".crc", "c"}) {
    ASSERT_TRUE(WriteStringToFile(JoinPath(dir.path(), name), "line\n").ok());
  }
  ASSERT_TRUE(MakeDirs(JoinPath(dir.path(), "sub")).ok());
  auto files = ExpandInputs({dir.path()});
  ASSERT_TRUE(files.ok());
  std::vector<std::string> want = {JoinPath(dir.path(), "a"), JoinPath(dir.path(), "b"),
                                   JoinPath(dir.path(), "c")};
  EXPECT_EQ(*files, want);
  auto splits = ComputeSplits({dir.path()}, 100);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 3u);
  EXPECT_EQ((*splits)[2].file_index, 2u);
}

TEST(InputSplitTest, MissingInputIsNotFoundNamingIt) {
  auto splits = ComputeSplits({"/nonexistent/mrlab-input"}, 100);
  ASSERT_FALSE(splits.ok());
  EXPECT_EQ(splits.status().code(), StatusCode::kNotFound);
  EXPECT_NE(splits.status().message().find("/nonexistent/mrlab-input"), std::string::npos);
}

TEST(InputSplitTest, ZeroSplitSizeIsInvalid) {
  EXPECT_EQ(ComputeSplits({}, 0).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::jobs
