// InputSource's List and Read (jobs/input_source.h) on the local file system and on
// FakeInputSource: the same ranges, sizes, order and errors from both.
#include "jobs/input_source.h"

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "input_source_fixture.h"
#include "jobs/fake_input_source.h"

namespace mr::jobs {
namespace {

using testing::TestInputs;

class InputSourceTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string ReadText(const std::string& path, uint64_t offset, uint64_t length) {
    auto bytes = in_->source().Read(path, offset, length);
    EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    return bytes.ok() ? std::string((*bytes)->data()) : std::string("<error>");
  }
  std::unique_ptr<TestInputs> in_ = TestInputs::Make(GetParam());
};

TEST_P(InputSourceTest, ReadsARangeAndFewerBytesAtTheEnd) {
  in_->Write("in", "hello world\n");
  const std::string path = in_->P("in");
  EXPECT_EQ(ReadText(path, 0, 5), "hello");
  EXPECT_EQ(ReadText(path, 6, 5), "world");
  EXPECT_EQ(ReadText(path, 6, 100), "world\n");
  EXPECT_EQ(ReadText(path, 12, 10), "");
  EXPECT_EQ(ReadText(path, 0, 0), "");
  auto past = in_->source().Read(path, 13, 1);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), StatusCode::kIoError);
  EXPECT_EQ(past.status().message(), "input " + path + " is shorter than offset 13");
}

TEST_P(InputSourceTest, AMissingFileIsNotFoundNamingIt) {
  auto r = in_->source().Read(in_->P("gone"), 0, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), "no such input: " + in_->P("gone"));
}

TEST_P(InputSourceTest, ListKeepsTheInputOrderWithSizes) {
  in_->Write("b", "bb\n");
  in_->Write("d/y", "yyyy\n");
  in_->Write("d/x", "x\n");
  in_->Write("d/.x", "hidden\n");
  in_->Write("a", "");
  auto files = in_->source().List({in_->P("b"), in_->P("d"), in_->P("a")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  std::vector<std::pair<std::string, uint64_t>> got;
  for (const InputFile& f : *files) got.emplace_back(f.path, f.size);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, uint64_t>>{
                     {in_->P("b"), 3}, {in_->P("d/x"), 2}, {in_->P("d/y"), 5}, {in_->P("a"), 0}}));
}

INSTANTIATE_TEST_SUITE_P(Sources, InputSourceTest, ::testing::Values("local", "fake"), testing::SourceName);

TEST(FakeInputSourceTest, BytesReadStayValidWhenTheFileIsReplaced) {
  FakeInputSource fake;
  fake.AddFile("/mrlab-fake/in", "first version\n", "h1");
  auto bytes = fake.Read("/mrlab-fake/in", 0, 5);
  ASSERT_TRUE(bytes.ok());
  fake.AddFile("/mrlab-fake/in", "second\n", "h2");
  EXPECT_EQ((*bytes)->data(), "first");
  auto files = fake.List({"/mrlab-fake/in"});
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].size, 7u);
  EXPECT_EQ((*files)[0].host, "h2");
  EXPECT_EQ(fake.reads(), 1);
  EXPECT_FALSE(PathExists("/mrlab-fake")) << "the fake must not touch the disk";
}

TEST(FakeInputSourceTest, ADirectoryIsNotReadable) {
  FakeInputSource fake;
  fake.AddFile("/mrlab-fake/d/f", "x\n");
  EXPECT_EQ(fake.Read("/mrlab-fake/d", 0, 1).status().code(), StatusCode::kIoError);
  auto r = fake.Resolve({"/mrlab-fake/d/"}, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, std::vector<std::string>{"/mrlab-fake/d/"});  // as given, like the local source
  auto files = fake.List(*r);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].path, "/mrlab-fake/d/f");
}

}  // namespace
}  // namespace mr::jobs
