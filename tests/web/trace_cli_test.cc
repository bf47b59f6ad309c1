// `mr trace render`, run in-process through the command table (cli::Main).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "web/png_render.h"

namespace mr::cli {
namespace {

namespace fs = std::filesystem;

std::string SourceDir() {
  const char* s = std::getenv("MR_SOURCE_DIR");
  return s != nullptr ? s : MR_WEB_TEST_SOURCE_DIR;
}

int RunTrace(std::vector<std::string> args, std::string* err = nullptr) {
  args.insert(args.begin(), "mr");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  int rc = Main(static_cast<int>(argv.size()), argv.data());
  std::string e = testing::internal::GetCapturedStderr();
  if (err != nullptr) *err = e;
  return rc;
}

class TraceCliTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mr-trace-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }
  fs::path dir_;
  std::string trace_ = SourceDir() + "/tests/web/data/wordcount_3workers.jsonl";
};

TEST_F(TraceCliTest, RendersSvg) {
  ASSERT_EQ(RunTrace({"trace", "render", trace_, "--out", Path("c.svg")}), 0);
  std::ifstream in(Path("c.svg"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string svg = ss.str();
  EXPECT_NE(svg.find("job-000001 wordcount"), std::string::npos);
  EXPECT_NE(svg.find("class=\"bar fetch\""), std::string::npos);
  EXPECT_NE(svg.find("w3 map 0"), std::string::npos);
}

TEST_F(TraceCliTest, RendersPng) {
  std::string err;
  int rc = RunTrace({"trace", "render", trace_, "--out", Path("c.png")}, &err);
  if (!web::PngSupported()) {
    EXPECT_EQ(rc, kExitUsage);
    EXPECT_NE(err.find("librsvg"), std::string::npos) << err;
    GTEST_FAIL() << "built without librsvg/cairo: run scripts/install-deps.sh and reconfigure";
  }
  ASSERT_EQ(rc, 0) << err;
  std::ifstream in(Path("c.png"), std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  EXPECT_GT(fs::file_size(Path("c.png")), 10000u);
}

TEST_F(TraceCliTest, BadTraceNamesTheLine) {
  {
    std::ofstream out(Path("bad.jsonl"));
    out << "{\"event\":\"job_submit\",\"t\":1}\n{\"event\":\"job_start\",\"t\":2}\n{\"event\": oops}\n";
  }
  std::string err;
  EXPECT_EQ(RunTrace({"trace", "render", Path("bad.jsonl"), "--out", Path("x.svg")}, &err), kExitUsage);
  EXPECT_NE(err.find("line 3"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_FALSE(fs::exists(Path("x.svg")));
}

TEST_F(TraceCliTest, UsageErrors) {
  std::string err;
  EXPECT_EQ(RunTrace({"trace"}, &err), kExitUsage);
  EXPECT_EQ(RunTrace({"trace", "draw"}, &err), kExitUsage);
  EXPECT_NE(err.find("unknown command 'trace draw'"), std::string::npos) << err;
  EXPECT_EQ(RunTrace({"trace", "render", trace_, "--out", Path("x.pdf")}, &err), kExitUsage);
  EXPECT_NE(err.find(".svg or .png"), std::string::npos);
  EXPECT_EQ(RunTrace({"trace", "render", Path("missing.jsonl"), "--out", Path("x.svg")}, &err), kExitUsage);
  EXPECT_NE(err.find("missing.jsonl"), std::string::npos);
  EXPECT_EQ(RunTrace({"trace", "render", "--out", Path("x.svg")}, &err), kExitUsage);
}

}  // namespace
}  // namespace mr::cli
