// Bad input gets one line naming the problem, exit status 2, and no output
// directory is created.
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

class CliErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteCorpus(tmp_.path() + "/in.txt", 1000, 5);
    out_ = tmp_.path() + "/out";
  }
  void ExpectUsageError(const std::string& args, const std::string& must_mention) {
    auto r = Sh(MrBin() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << args << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line: " << r.err;
    EXPECT_FALSE(PathExists(out_)) << args << " created the output directory";
  }
  TempDir tmp_{"mr-cli-test"};
  std::string out_;
};

TEST_F(CliErrorsTest, MissingInput) {
  ExpectUsageError("run wordcount --input " + tmp_.path() + "/nope.txt --output " + out_, "nope.txt");
}

TEST_F(CliErrorsTest, ExistingOutput) {
  ASSERT_TRUE(MakeDirs(tmp_.path() + "/exists").ok());
  auto r = Sh(MrBin() + " run wordcount --input " + tmp_.path() + "/in.txt --output " + tmp_.path() + "/exists");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
}

TEST_F(CliErrorsTest, UnknownJob) {
  ExpectUsageError("run frobnicate --input " + tmp_.path() + "/in.txt --output " + out_, "unknown job 'frobnicate'");
}

TEST_F(CliErrorsTest, UnknownPolicy) {
  ExpectUsageError("run wordcount --policy nosuch --input " + tmp_.path() + "/in.txt --output " + out_,
                   "unknown policy 'nosuch' (known:");
}

TEST_F(CliErrorsTest, BadFlag) {
  ExpectUsageError("run wordcount --frobs 3 --input " + tmp_.path() + "/in.txt --output " + out_, "frobs");
  ExpectUsageError("run wordcount --reducers many --input " + tmp_.path() + "/in.txt --output " + out_, "reducers");
}

TEST_F(CliErrorsTest, MasterUnreachable) {
  // A port nobody listens on: bind and close to find one.
  ExpectUsageError("run wordcount --master 127.0.0.1:1 --input " + tmp_.path() + "/in.txt --output " + out_,
                   "127.0.0.1:1");
}

TEST_F(CliErrorsTest, GrepWithoutPattern) {
  ExpectUsageError("run grep --input " + tmp_.path() + "/in.txt --output " + out_, "pattern");
}

TEST_F(CliErrorsTest, UnknownSubcommand) {
  auto r = Sh(MrBin() + " frob");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'frob'"), std::string::npos);
}

TEST_F(CliErrorsTest, EmbeddedRunSucceeds) {
  auto r = Sh(MrBin() + " run wordcount --quiet --input " + tmp_.path() + "/in.txt --output " + out_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(PathExists(out_ + "/_SUCCESS"));
  EXPECT_TRUE(PathExists(out_ + "/part-r-00000"));
  EXPECT_NE(r.out.find("succeeded"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mr::testing
