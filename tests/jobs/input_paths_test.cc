// Input paths as Hadoop's FileInputFormat reads them (jobs/input_paths.h), through
// InputSource::Resolve: quoted globs expanded by mr, hidden names skipped, subdirectories
// only when recursive. Every case runs on the local file system and on FakeInputSource.
#include "jobs/input_paths.h"

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "input_source_fixture.h"

namespace mr::jobs {
namespace {

using testing::TestInputs;

// root/ a.txt b.txt c.log _SUCCESS .hidden.txt sub/ d.txt _tmp/ e.txt .git/ f.txt
class InputPathsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const char* d : {"sub", "_tmp", ".git"}) in_->MakeDir(d);
    for (const char* f : {"a.txt", "b.txt", "c.log", "_SUCCESS", ".hidden.txt", "sub/d.txt", "_tmp/e.txt",
                          ".git/f.txt"}) {
      in_->Write(f, "x\n");
    }
  }
  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) {
    return in_->source().Resolve(args, recursive);
  }
  std::string root() const { return in_->root(); }
  std::string P(const char* rel) const { return in_->P(rel); }
  std::unique_ptr<TestInputs> in_ = TestInputs::Make(GetParam());
};

TEST_P(InputPathsTest, AGlobExpandsToItsVisibleMatchesInOrder) {
  auto r = Resolve({P("*.txt")}, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, (std::vector<std::string>{P("a.txt"), P("b.txt")}));  // not .hidden.txt
  auto all = Resolve({P("[a-c].*")}, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<std::string>{P("a.txt"), P("b.txt"), P("c.log")}));
  // A pattern that asks for hidden names gets them.
  auto hidden = Resolve({P("_*")}, false);
  ASSERT_TRUE(hidden.ok());
  EXPECT_EQ(*hidden, (std::vector<std::string>{P("_SUCCESS"), P("_tmp")}));
  auto dotted = Resolve({P(".h*")}, false);
  ASSERT_TRUE(dotted.ok());
  EXPECT_EQ(*dotted, (std::vector<std::string>{P(".hidden.txt")}));
  // A wildcard matches within one component only.
  auto nested = Resolve({P("*/d.txt")}, false);
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(*nested, (std::vector<std::string>{P("sub/d.txt")}));
}

TEST_P(InputPathsTest, APatternThatMatchesNothingIsNotFound) {
  auto r = Resolve({P("*.csv")}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), "input pattern '" + P("*.csv") + "' matches no file");
  auto missing = Resolve({P("missing.txt")}, false);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "input " + P("missing.txt") + " does not exist");
}

TEST_P(InputPathsTest, AnExistingPathIsTakenLiterally) {
  in_->Write("odd[1].txt", "x\n");
  auto r = Resolve({P("odd[1].txt")}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<std::string>{P("odd[1].txt")}));
}

TEST_P(InputPathsTest, ADirectoryStaysItselfUnlessRecursive) {
  auto flat = Resolve({root()}, false);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(*flat, (std::vector<std::string>{root()}));  // the master reads its files, one level
  auto deep = Resolve({root()}, true);
  ASSERT_TRUE(deep.ok()) << deep.status().ToString();
  EXPECT_EQ(*deep, (std::vector<std::string>{P("a.txt"), P("b.txt"), P("c.log"), P("sub/d.txt")}));
  // Matched directories recurse too; an empty one stays itself.
  in_->MakeDir("empty");
  auto globbed = Resolve({P("s*"), P("empty")}, true);
  ASSERT_TRUE(globbed.ok());
  EXPECT_EQ(*globbed, (std::vector<std::string>{P("sub/d.txt"), P("empty")}));
}

TEST_P(InputPathsTest, AnUnreadableFileIsPermissionDenied) {
  if (!in_->MakeUnreadable("b.txt")) GTEST_SKIP() << "this process reads every file (root)";
  auto r = Resolve({P("a.txt"), P("b.txt")}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(r.status().message(), "input " + P("b.txt") + " is not readable");
}

INSTANTIATE_TEST_SUITE_P(Sources, InputPathsTest, ::testing::Values("local", "fake"), testing::SourceName);

}  // namespace
}  // namespace mr::jobs
