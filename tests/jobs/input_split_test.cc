// Splitting and sampling inputs through an InputSource (jobs/input_split.h,
// jobs/line_sampler.h): every expectation runs on the local file system and on
// FakeInputSource, which must cut the same line-aligned splits and sample the same lines.
#include "jobs/input_split.h"

#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "common/file_util.h"
#include "input_source_fixture.h"
#include "jobs/line_sampler.h"

namespace mr::jobs {
namespace {

using testing::TestInputs;

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

// Files of every shape: many lines, no final '\n', empty, one byte, only newlines, one
// line longer than a read window.
std::vector<std::string> Contents() {
  return {RandomText(300, 1, true), RandomText(200, 2, false), "", "x", "\n\n\n", std::string(5000, 'q'),
          RandomText(20, 3, true) + std::string(200000, 'w') + "\n" + RandomText(20, 4, false)};
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

class InputSplitTest : public ::testing::TestWithParam<std::string> {
 protected:
  // Writes Contents() as f0, f1, ... and returns their paths.
  std::vector<std::string> WriteAll(const std::vector<std::string>& contents) {
    std::vector<std::string> paths;
    for (size_t i = 0; i < contents.size(); ++i) {
      in_->Write("f" + std::to_string(i), contents[i]);
      paths.push_back(in_->P("f" + std::to_string(i)));
    }
    return paths;
  }
  const InputSource& source() const { return in_->source(); }
  std::unique_ptr<TestInputs> in_ = TestInputs::Make(GetParam());
};

TEST_P(InputSplitTest, SplitsTileFilesOnLineBoundariesForManySizes) {
  const std::vector<std::string> contents = Contents();
  const std::vector<std::string> paths = WriteAll(contents);
  for (uint64_t size : {1, 2, 3, 7, 64, 1000, 4999, 5000, 65536, 1 << 20}) {
    SCOPED_TRACE("split size " + std::to_string(size));
    auto splits = ComputeSplits(source(), paths, size);
    ASSERT_TRUE(splits.ok()) << splits.status().ToString();
    CheckSplits(paths, contents, *splits);
    for (const auto& s : *splits) EXPECT_NE(s.file_index, 2u) << "empty file produced a split";
  }
}

TEST_P(InputSplitTest, OneByteSplitsAreOneLineEach) {
  in_->Write("in", "ab\n\ncd\ne");
  auto splits = ComputeSplits(source(), {in_->P("in")}, 1);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 4u);
  EXPECT_EQ((*splits)[0].length, 3u);
  EXPECT_EQ((*splits)[1].length, 1u);
  EXPECT_EQ((*splits)[2].length, 3u);
  EXPECT_EQ((*splits)[3].length, 1u);  // last line without '\n'
}

TEST_P(InputSplitTest, LargeSplitSizeGivesOneSplitPerFile) {
  in_->Write("in", RandomText(100, 3, true));
  auto splits = ComputeSplits(source(), {in_->P("in")}, 1 << 30);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 1u);
  EXPECT_EQ((*splits)[0].offset, 0u);
}

TEST_P(InputSplitTest, DirectoryListsSortedSkippingHiddenAndUnderscore) {
  for (const char* name : {"b", "a", "_SUCCESS", ".crc", "c"}) in_->Write(std::string("d/") + name, "line\n");
  in_->Write("d/sub/x", "deeper\n");
  auto files = source().List({in_->P("d")});
  ASSERT_TRUE(files.ok());
  std::vector<std::string> paths;
  for (const InputFile& f : *files) {
    paths.push_back(f.path);
    EXPECT_EQ(f.size, 5u) << f.path;
    EXPECT_EQ(f.host, "");
  }
  EXPECT_EQ(paths, (std::vector<std::string>{in_->P("d/a"), in_->P("d/b"), in_->P("d/c")}));
  auto splits = ComputeSplits(source(), {in_->P("d")}, 100);
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 3u);
  EXPECT_EQ((*splits)[2].file_index, 2u);
}

TEST_P(InputSplitTest, MissingInputIsNotFoundNamingIt) {
  const std::string missing = in_->P("missing");
  auto splits = ComputeSplits(source(), {missing}, 100);
  ASSERT_FALSE(splits.ok());
  EXPECT_EQ(splits.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(splits.status().message(), "no such input: " + missing);
  EXPECT_EQ(source().List({missing}).status().message(), "no such input: " + missing);
}

TEST_P(InputSplitTest, ZeroSplitSizeIsInvalid) {
  EXPECT_EQ(ComputeSplits(source(), {}, 0).status().code(), StatusCode::kInvalidArgument);
}

// Every file is opened at submit, even one too small to need a cut or empty: an unreadable
// input fails the job's submission, not its map attempts.
TEST_P(InputSplitTest, AnUnreadableFileFailsTheSplitting) {
  in_->Write("d/a", "line\n");
  in_->Write("d/b", "");
  for (const char* name : {"d/a", "d/b"}) {
    if (!in_->MakeUnreadable(name)) GTEST_SKIP() << "this process reads every file (root)";
  }
  auto splits = ComputeSplits(source(), {in_->P("d")}, 1 << 20);
  ASSERT_FALSE(splits.ok());
  EXPECT_EQ(splits.status().code(), StatusCode::kIoError);
  EXPECT_EQ(splits.status().message(), "cannot open " + in_->P("d/a") + ": Permission denied");
}

TEST_P(InputSplitTest, SamplesAreWholeLinesInProportionToFileSize) {
  // Lines of 7 bytes: 7,000 and 63,000 bytes, so 10% and 90% of the samples.
  std::string small, big;
  char line[16];
  for (int i = 0; i < 9000; ++i) {
    std::snprintf(line, sizeof line, "s%05d\n", i);
    if (i < 1000) small += line;
    line[0] = 'b';
    big += line;
  }
  in_->Write("small", small);
  in_->Write("big", big);
  in_->Write("empty", "");
  auto files = source().List({in_->P("small"), in_->P("empty"), in_->P("big")});
  ASSERT_TRUE(files.ok());
  auto samples = SampleLines(source(), *files, 1000);
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  size_t from_small = 0, from_big = 0;
  for (const std::string& s : *samples) {
    const std::string& text = s[0] == 's' ? small : big;
    EXPECT_NE(("\n" + text).find("\n" + s + "\n"), std::string::npos) << "not a whole line: " << s;
    (s[0] == 's' ? from_small : from_big)++;
  }
  EXPECT_EQ(from_small, 100u);
  EXPECT_EQ(from_big, 900u);
}

// Each offset samples the first line starting at or after it: past a long line that is the
// same line for many offsets, which then counts once per offset (read once, not again each
// time: a file of a few huge lines used to be read once per sample).
TEST_P(InputSplitTest, EachOffsetSamplesTheFirstLineStartingAtOrAfterIt) {
  in_->Write("in", "x\nyy\n" + std::string(60, 'w') + "\nz\n");  // 68 bytes: offsets 0, 8, 17, ...
  auto files = source().List({in_->P("in")});
  ASSERT_TRUE(files.ok());
  auto samples = SampleLines(source(), *files, 8);
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  EXPECT_EQ(*samples, (std::vector<std::string>{"x", "z", "z", "z", "z", "z", "z", "z"}));
}

TEST_P(InputSplitTest, AFileShorterThanListedFailsTheSampling) {
  in_->Write("in", "one\ntwo\n");
  auto samples = SampleLines(source(), {InputFile{in_->P("in"), 100, ""}}, 10);
  ASSERT_FALSE(samples.ok());
  EXPECT_EQ(samples.status().code(), StatusCode::kIoError);
  EXPECT_NE(samples.status().message().find(in_->P("in")), std::string::npos) << samples.status().message();
}

INSTANTIATE_TEST_SUITE_P(Sources, InputSplitTest, ::testing::Values("local", "fake"), testing::SourceName);

// The fake cuts exactly the splits, and samples exactly the lines, the local file system
// does from the same bytes: tests that run on the fake say what the master would do.
TEST(InputSplitParityTest, FakeAndLocalGiveTheSameSplitsAndSamples) {
  auto local = TestInputs::Make("local");
  auto fake = TestInputs::Make("fake");
  const std::vector<std::string> contents = Contents();
  for (size_t i = 0; i < contents.size(); ++i) {
    local->Write("d/f" + std::to_string(i), contents[i]);
    fake->Write("d/f" + std::to_string(i), contents[i]);
  }
  auto cut = [](const TestInputs& in, uint64_t size) {
    std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> out;
    auto splits = ComputeSplits(in.source(), {in.P("d")}, size);
    EXPECT_TRUE(splits.ok()) << splits.status().ToString();
    if (splits.ok()) {
      for (const Split& s : *splits) out.emplace_back(s.file_index, s.offset, s.length);
    }
    return out;
  };
  for (uint64_t size : {1, 64, 4096, 1 << 20}) EXPECT_EQ(cut(*local, size), cut(*fake, size)) << size;
  auto sample = [](const TestInputs& in) {
    auto files = in.source().List({in.P("d")});
    EXPECT_TRUE(files.ok());
    if (!files.ok()) return std::vector<std::string>{};
    auto samples = SampleLines(in.source(), *files, 500);
    EXPECT_TRUE(samples.ok()) << samples.status().ToString();
    return samples.ok() ? *samples : std::vector<std::string>{};
  };
  const std::vector<std::string> local_samples = sample(*local);
  EXPECT_GT(local_samples.size(), 20u);
  EXPECT_EQ(local_samples, sample(*fake));
}

// A split names the host that holds its file's bytes (InputFile.host).
TEST(InputSplitHostTest, SplitsNameTheHostOfTheirFile) {
  FakeInputSource fake;
  fake.AddFile("/mrlab-fake/data/a", "1\n2\n3\n4\n", "hostA");
  fake.AddFile("/mrlab-fake/data/b", "5\n6\n", "hostB");
  fake.AddFile("/mrlab-fake/data/c", "7\n", "");
  auto splits = ComputeSplits(fake, {"/mrlab-fake/data"}, 4);
  ASSERT_TRUE(splits.ok()) << splits.status().ToString();
  std::vector<std::pair<std::string, std::string>> got;
  for (const Split& s : *splits) got.emplace_back(s.path, s.host);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::string>>{
                     {"/mrlab-fake/data/a", "hostA"},
                     {"/mrlab-fake/data/a", "hostA"},
                     {"/mrlab-fake/data/b", "hostB"},
                     {"/mrlab-fake/data/c", ""}}));
  EXPECT_FALSE(PathExists("/mrlab-fake")) << "the fake must not touch the disk";
}

}  // namespace
}  // namespace mr::jobs
