// Whole jobs in-process (split, map with spills, reduce per partition) checked
// byte-for-byte against coreutils run through /bin/sh.
#include <gtest/gtest.h>

#include <random>

#include "common/file_util.h"
#include "task_test_util.h"

namespace mr::worker {
namespace {

using testing::Concat;
using testing::RunJob;
using testing::Shell;
using testing::SortedLines;

class EndToEndTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("mr-e2e");
    std::mt19937 rng(7);
    const char* vocab[] = {"the", "The", "map", "reduce", "Shuffle", "sort", "zeta", "alpha",
                           "x",   "MapReduce", "don't", "e-mail", "42", "x2y", "\xc3\xa9t\xc3\xa9"};
    const char* seps[] = {" ", " ", " ", ", ", ". ", "\t", " -- ", "  "};
    for (int f = 0; f < 3; ++f) {
      std::string text = f == 0 ? "...leading punctuation\n" : "";
      while (text.size() < 1000000) {
        int words = static_cast<int>(rng() % 14);
        for (int w = 0; w < words; ++w) {
          text += vocab[rng() % std::size(vocab)];
          text += seps[rng() % std::size(seps)];
        }
        if (rng() % 50 == 0) text += "duplicate line";
        text += "\n";
      }
      if (f == 2) text += "no trailing newline here";
      inputs_.push_back(JoinPath(dir_->path(), "in" + std::to_string(f) + ".txt"));
      ASSERT_TRUE(WriteStringToFile(inputs_.back(), text).ok());
    }
    for (const auto& p : inputs_) quoted_ += " '" + p + "'";
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
    inputs_.clear();  // else a repeated run (--gtest_repeat) reads the deleted files
    quoted_.clear();
  }
  static TempDir* dir_;
  static std::vector<std::string> inputs_;
  static std::string quoted_;
};
TempDir* EndToEndTest::dir_ = nullptr;
std::vector<std::string> EndToEndTest::inputs_;
std::string EndToEndTest::quoted_;

TEST_F(EndToEndTest, WordCountMatchesTrSortUniq) {
  TempDir work;
  auto run = RunJob("wordcount", {}, inputs_, 4, 300000, 1 << 20, work.path());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  for (const auto& part : run->parts) {  // keys sorted bytewise within each part
    auto lines = SortedLines(part);
    std::string resorted;
    for (const auto& l : lines) resorted += l + "\n";
    EXPECT_EQ(part, resorted);
  }
  // tr per file so words never join across files; the empty "word" that tr yields
  // for leading non-letters (and the echo) is dropped: wordcount has no empty word.
  std::string ref = Shell("for f in" + quoted_ +
                          "; do tr -cs 'A-Za-z' '\\n' < \"$f\"; echo; done | LC_ALL=C sort | "
                          "LC_ALL=C uniq -c | awk '$2 != \"\" {print $2 \"\\t\" $1}'");
  ASSERT_FALSE(ref.empty());
  EXPECT_EQ(SortedLines(Concat(run->parts)), SortedLines(ref));
}

TEST_F(EndToEndTest, SortIsByteIdenticalToLcAllCSort) {
  TempDir work;
  auto run = RunJob("sort", {}, inputs_, 5, 250000, 1 << 20, work.path());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  std::string ref = Shell("LC_ALL=C sort" + quoted_);
  ASSERT_FALSE(ref.empty());
  std::string got = Concat(run->parts);
  EXPECT_EQ(got.size(), ref.size());
  EXPECT_TRUE(got == ref) << "sort output differs from LC_ALL=C sort";
  for (const auto& part : run->parts) EXPECT_FALSE(part.empty()) << "unbalanced sort partitions";
}

TEST_F(EndToEndTest, GrepMatchesGrepEInInputOrder) {
  TempDir work;
  const std::string pattern = "Map(Reduce)?|zeta x|trailing";
  auto run = RunJob("grep", {{"pattern", pattern}}, inputs_, 3, 200000, 1 << 20, work.path());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  std::string ref = Shell("for f in" + quoted_ + "; do LC_ALL=C grep -E '" + pattern + "' \"$f\"; done");
  ASSERT_FALSE(ref.empty());
  std::string got = Concat(run->parts), cut;
  size_t start = 0;
  int checked = 0;
  while (start < got.size()) {
    size_t nl = got.find('\n', start);
    std::string line = got.substr(start, nl - start);
    size_t tab = line.find('\t'), colon = line.rfind(':', tab);
    ASSERT_NE(tab, std::string::npos);
    cut += line.substr(tab + 1) + "\n";
    if (checked++ < 50) {  // path:offset really points at the line
      std::string path = line.substr(0, colon);
      uint64_t off = std::stoull(line.substr(colon + 1, tab - colon - 1));
      auto content = ReadFileToString(path);
      ASSERT_TRUE(content.ok());
      EXPECT_EQ(content->substr(off, tab + 1 < line.size() ? line.size() - tab - 1 : 0),
                line.substr(tab + 1));
    }
    start = nl + 1;
  }
  EXPECT_TRUE(cut == ref) << "grep output differs from grep -E";
}

TEST_F(EndToEndTest, StreamingWithAwkAndCat) {
  TempDir work;
  jobs::Params params = {
      {"mapper", "awk '{for (i = 1; i <= NF; i++) print $i \"\\t1\"}'"},
      {"reducer", "awk -F'\\t' '{c[$1] += $2} END {for (k in c) print k \"\\t\" c[k]}'"}};
  auto run = RunJob("streaming", params, {inputs_[0]}, 2, 300000, 1 << 20, work.path());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  std::string ref = Shell("awk '{for (i = 1; i <= NF; i++) c[$i]++} END {for (k in c) print k "
                          "\"\\t\" c[k]}' '" + inputs_[0] + "'");
  EXPECT_EQ(SortedLines(Concat(run->parts)), SortedLines(ref));

  TempDir work2;  // default reducer is cat: lines come back grouped and sorted per part
  auto identity = RunJob("streaming", {{"mapper", "cat"}}, {inputs_[1]}, 2, 300000, 1 << 20,
                         work2.path());
  ASSERT_TRUE(identity.ok()) << identity.status().ToString();
  auto content = ReadFileToString(inputs_[1]);
  ASSERT_TRUE(content.ok());
  // Lines without a tab come back unchanged; lines with tabs as key<TAB>value.
  EXPECT_EQ(SortedLines(Concat(identity->parts)).size(), SortedLines(*content).size());
}

TEST_F(EndToEndTest, StreamingMapperFailureIsAnError) {
  TempDir work;
  auto run = RunJob("streaming", {{"mapper", "cat >/dev/null; exit 5"}}, {inputs_[0]}, 1,
                    1 << 30, 1 << 20, work.path());
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("code 5"), std::string::npos) << run.status().ToString();
}

TEST_F(EndToEndTest, SyntheticReduceCountsEveryRecord) {
  TempDir work;
  auto run = RunJob("synthetic", {{"map_bytes", "200KB"}, {"seed", "5"}}, {}, 3, 1, 1 << 20,
                    work.path(), /*synthetic_maps=*/2);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  uint64_t total = 0;
  for (const auto& l : SortedLines(Concat(run->parts))) {
    size_t tab = l.find('\t');
    ASSERT_EQ(tab, 8u);
    total += std::stoull(l.substr(tab + 1));
  }
  EXPECT_EQ(total, 2 * 2000u);
}

}  // namespace
}  // namespace mr::worker
