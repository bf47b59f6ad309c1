// The block fast paths (Mapper::MapBlock) must emit exactly what Map() emits line
// by line; WordCounter must count exactly what a std::map does.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "jobs/job.h"
#include "jobs/word_counter.h"

namespace mr::jobs {
namespace {

using Records = std::vector<std::pair<std::string, std::string>>;

class CollectingEmitter final : public Emitter {
 public:
  void Emit(std::string_view key, std::string_view value) override { records.emplace_back(key, value); }
  Records records;
};

constexpr uint64_t kBase = 1000;  // file offset of the block

Records LineByLine(const Job& job, std::string_view text) {
  auto mapper = job.NewMapper();
  EXPECT_TRUE(mapper.ok());
  CollectingEmitter out;
  InputRecord rec;
  rec.path = "in.txt";
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    rec.line = text.substr(pos, end - pos);
    rec.offset = kBase + pos;
    (*mapper)->Map(rec, out);
    pos = end + 1;
  }
  EXPECT_TRUE((*mapper)->Finish(out).ok());
  return out.records;
}

// Feeds the text as blocks cut after each of `cuts` lines' newlines.
Records ByBlocks(const Job& job, std::string_view text, size_t lines_per_block) {
  auto mapper = job.NewMapper();
  EXPECT_TRUE(mapper.ok());
  CollectingEmitter out;
  InputBlock block;
  block.path = "in.txt";
  for (size_t pos = 0; pos < text.size();) {
    size_t end = pos;
    for (size_t i = 0; i < lines_per_block && end < text.size(); ++i) {
      size_t nl = text.find('\n', end);
      end = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    block.data = text.substr(pos, end - pos);
    block.offset = kBase + pos;
    EXPECT_TRUE((*mapper)->MapBlock(block, out));
    pos = end;
  }
  EXPECT_TRUE((*mapper)->Finish(out).ok());
  return out.records;
}

std::string TrickyText(bool trailing_newline) {
  std::string t = "abc\n\n^abc$\nxabcx\n  \nfoo-bar.\n12th of may\nab\nc\naaab\nzzz";
  return trailing_newline ? t + "\n" : t;
}

TEST(GrepBlockTest, SameLinesAsLineByLine) {
  const std::vector<std::string> patterns = {
      "abc", "^abc", "c$", "$", "^", "^$", "x*", "[^a]+b", "a|^$", "b\\nc", "[0-9]+th|[a-z]+-[a-z]+[.;]",
      "zzz", "z$", "(^| )ab( |$)", "a{3}b", ".", "c.*a"};
  for (const auto& p : patterns) {
    auto job = CreateJob("grep", {{"pattern", p}});
    ASSERT_TRUE(job.ok()) << p;
    for (bool nl : {true, false}) {
      std::string text = TrickyText(nl);
      Records want = LineByLine(**job, text);
      for (size_t lines : {size_t{1}, size_t{3}, size_t{1000}}) {
        EXPECT_EQ(ByBlocks(**job, text, lines), want) << "pattern '" << p << "' trailing newline " << nl
                                                      << " lines per block " << lines;
      }
    }
  }
}

TEST(GrepBlockTest, LiteralFindsEveryOccurrenceOnce) {
  auto job = CreateJob("grep", {{"pattern", "ab"}});
  ASSERT_TRUE(job.ok());
  Records got = ByBlocks(**job, "abab ab\nxx\nab\n", 100);
  ASSERT_EQ(got.size(), 2u);  // one record per matching line, not per occurrence
  EXPECT_EQ(got[0].second, "in.txt:1000\tabab ab");
  EXPECT_EQ(got[1].second, "in.txt:1011\tab");
}

std::map<std::string, uint64_t> Sums(const Records& records) {
  std::map<std::string, uint64_t> m;
  for (const auto& [k, v] : records) m[k] += std::stoull(v);
  return m;
}

TEST(WordCountBlockTest, SameCountsAsLineByLine) {
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    int len = static_cast<int>(rng() % 40);  // long words too: tails past 16 bytes
    for (int j = 0; j < len; ++j) text += "aAbZz -.,\t"[rng() % 10];
    text += '\n';
  }
  auto job = CreateJob("wordcount", {});
  ASSERT_TRUE(job.ok());
  auto want = Sums(LineByLine(**job, text));
  EXPECT_GT(want.size(), 100u);
  EXPECT_EQ(Sums(ByBlocks(**job, text, 7)), want);
  text.pop_back();  // a last line without '\n'
  EXPECT_EQ(Sums(ByBlocks(**job, text, 1000)), Sums(LineByLine(**job, text)));
}

TEST(WordCounterTest, CountsLikeAMapAcrossGrowthAndFlushes) {
  std::mt19937 rng(11);
  std::map<std::string, uint64_t> want, got;
  WordCounter counter(500);  // small: forces flushes and table growth
  auto drain = [&] { counter.Drain([&](std::string_view w, uint64_t n) { got[std::string(w)] += n; }); };
  for (int i = 0; i < 20000; ++i) {
    std::string w;
    int len = 1 + static_cast<int>(rng() % 24);
    for (int j = 0; j < len; ++j) w += static_cast<char>('a' + rng() % 3);
    ++want[w];
    counter.CountText(w.data(), w.size(), w.data() + w.size());  // reads stop at safe_end
    if (counter.Full()) drain();
  }
  drain();
  EXPECT_EQ(got, want);
  EXPECT_EQ(counter.size(), 0u);
}

// The bitmask tokeniser against a byte-by-byte one, on random bytes (all 256 values, the
// neighbours of the letter ranges often), at every length around the 64-byte blocks.
TEST(WordCounterTest, TokenisesRandomBytesLikeAByteByByteScan) {
  std::mt19937 rng(5);
  const std::string edge = "@[`{AZaz \n-'\x80\xc1\xe1\xff";
  for (int round = 0; round < 400; ++round) {
    const size_t size = round < 200 ? static_cast<size_t>(round) : 200 + rng() % 3000;
    std::string text(size, ' ');
    for (char& c : text) {
      const uint32_t r = rng() % 10;
      c = r < 6 ? static_cast<char>('a' + rng() % 4) : r < 8 ? edge[rng() % edge.size()] : static_cast<char>(rng());
    }
    if (round % 7 == 0 && size > 40) std::fill(text.begin() + 3, text.begin() + 40, 'q');  // a long word
    std::map<std::string, uint64_t> want, got;
    std::string w;
    for (char c : text) {
      if (IsWordLetter(c)) {
        w += c;
      } else if (!w.empty()) {
        ++want[w];
        w.clear();
      }
    }
    if (!w.empty()) ++want[w];
    WordCounter counter;
    const std::string copy = text;  // exact size: reads must stop at safe_end
    counter.CountText(copy.data(), copy.size(), copy.data() + copy.size());
    counter.Drain([&](std::string_view word, uint64_t n) { got[std::string(word)] += n; });
    ASSERT_EQ(got, want) << "round " << round << " size " << size;
  }
}

TEST(WordCounterTest, TokenisesOnNonLetters) {
  WordCounter counter;
  std::string text = "Hello, hello\tHELLO hello-world 42x\xe9y";
  counter.CountText(text.data(), text.size(), text.data() + text.size());
  std::map<std::string, uint64_t> got;
  counter.Drain([&](std::string_view w, uint64_t n) { got[std::string(w)] += n; });
  std::map<std::string, uint64_t> want = {{"Hello", 1}, {"hello", 2}, {"HELLO", 1}, {"world", 1},
                                          {"x", 1},     {"y", 1}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace mr::jobs
