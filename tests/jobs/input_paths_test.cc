// Input paths as Hadoop's FileInputFormat reads them (jobs/input_paths.h): quoted globs
// expanded by mr, hidden names skipped, subdirectories only when recursive.
#include "jobs/input_paths.h"

#include <gtest/gtest.h>

#include "common/file_util.h"

namespace mr::jobs {
namespace {

// dir/ a.txt b.txt c.log _SUCCESS .hidden.txt sub/ d.txt _tmp/ e.txt .git/ f.txt
class InputPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* d : {"sub", "_tmp", ".git"}) ASSERT_TRUE(MakeDirs(JoinPath(root(), d)).ok());
    for (const char* f : {"a.txt", "b.txt", "c.log", "_SUCCESS", ".hidden.txt", "sub/d.txt", "_tmp/e.txt",
                          ".git/f.txt"}) {
      ASSERT_TRUE(WriteFileAtomically(JoinPath(root(), f), "x\n").ok()) << f;
    }
  }
  std::string root() const { return tmp_.path(); }
  std::string P(const char* rel) const { return JoinPath(root(), rel); }
  TempDir tmp_{"mr-input-paths"};
};

TEST_F(InputPathsTest, AGlobExpandsToItsVisibleMatchesInOrder) {
  auto r = ResolveInputs({P("*.txt")}, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, (std::vector<std::string>{P("a.txt"), P("b.txt")}));  // not .hidden.txt
  auto all = ResolveInputs({P("[a-c].*")}, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<std::string>{P("a.txt"), P("b.txt"), P("c.log")}));
  // A pattern that asks for hidden names gets them.
  auto hidden = ResolveInputs({P("_*")}, false);
  ASSERT_TRUE(hidden.ok());
  EXPECT_EQ(*hidden, (std::vector<std::string>{P("_SUCCESS"), P("_tmp")}));
}

TEST_F(InputPathsTest, APatternThatMatchesNothingIsNotFound) {
  auto r = ResolveInputs({P("*.csv")}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("matches no file"), std::string::npos) << r.status().message();
  EXPECT_EQ(ResolveInputs({P("missing.txt")}, false).status().code(), StatusCode::kNotFound);
}

TEST_F(InputPathsTest, AnExistingPathIsTakenLiterally) {
  ASSERT_TRUE(WriteFileAtomically(P("odd[1].txt"), "x\n").ok());
  auto r = ResolveInputs({P("odd[1].txt")}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<std::string>{P("odd[1].txt")}));
}

TEST_F(InputPathsTest, ADirectoryStaysItselfUnlessRecursive) {
  auto flat = ResolveInputs({root()}, false);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(*flat, (std::vector<std::string>{root()}));  // the master reads its files, one level
  auto deep = ResolveInputs({root()}, true);
  ASSERT_TRUE(deep.ok()) << deep.status().ToString();
  EXPECT_EQ(*deep, (std::vector<std::string>{P("a.txt"), P("b.txt"), P("c.log"), P("sub/d.txt")}));
  // Matched directories recurse too; an empty one stays itself.
  ASSERT_TRUE(MakeDirs(P("empty")).ok());
  auto globbed = ResolveInputs({P("s*"), P("empty")}, true);
  ASSERT_TRUE(globbed.ok());
  EXPECT_EQ(*globbed, (std::vector<std::string>{P("sub/d.txt"), P("empty")}));
}

}  // namespace
}  // namespace mr::jobs
