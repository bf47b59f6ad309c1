// End to end in headless Chromium: the job page served by HttpServer (fake
// provider, real 3-worker trace) as a browser renders it. Fails — does not
// skip — when chromium is missing: CI runs scripts/install-deps.sh first.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "master/http_server.h"
#include "tests/web/chromium.h"
#include "tests/web/fake_provider.h"

namespace mr::master {
namespace {

namespace fs = std::filesystem;
using webtest::Count;
using webtest::FindChromium;
using webtest::RunChromium;

class BrowserTest : public testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    ASSERT_FALSE(chromium_.empty()) << "chromium is not installed: run scripts/install-deps.sh (it installs Debian's "
                                       "chromium for this test)";
    auto trace = webtest::RealTrace();
    ASSERT_FALSE(trace.empty()) << "tests/web/data/wordcount_3workers.jsonl not found";
    provider_ = std::make_unique<webtest::FakeProvider>(std::move(trace));
    auto s = HttpServer::Start(HostPort{"127.0.0.1", 0}, provider_.get());
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(*s);
    base_ = "http://127.0.0.1:" + std::to_string(server_->address().port);
    profile_dir_ = std::make_unique<TempDir>("mr-chromium");  // under the test's scratch directory
    ASSERT_FALSE(profile_dir_->path().empty());
    profile_ = profile_dir_->path() + "/profile";
    artifacts_ = MR_WEB_TEST_ARTIFACT_DIR;
    fs::create_directories(artifacts_);
  }
  void TearDown() override {
    if (server_) server_->Stop();
    profile_dir_.reset();
  }

  std::unique_ptr<TempDir> profile_dir_;
  std::string chromium_, base_, profile_, artifacts_;
  std::unique_ptr<webtest::FakeProvider> provider_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(BrowserTest, JobPageDomShowsMapReduceAndShuffleLanes) {
  std::string dom = RunChromium(chromium_, profile_, "--dump-dom " + base_ + "/jobs/1");
  ASSERT_FALSE(dom.empty()) << "chromium printed no DOM";
  EXPECT_NE(dom.find("<h1 id=\"job-id\">job-000001"), std::string::npos);
  EXPECT_GT(Count(dom, "class=\"lane map\""), 0u);
  EXPECT_GT(Count(dom, "class=\"lane reduce\""), 0u);
  EXPECT_GT(Count(dom, "class=\"lane shuffle\""), 0u);
  EXPECT_EQ(Count(dom, "class=\"bar map\""), 16u);
  EXPECT_EQ(Count(dom, "class=\"bar reduce\""), 3u);
  EXPECT_EQ(Count(dom, "class=\"bar fetch\""), 48u);
  EXPECT_NE(dom.find("id=\"decisions\""), std::string::npos);
}

TEST_F(BrowserTest, ClusterPageDomLinksTheJob) {
  std::string dom = RunChromium(chromium_, profile_, "--dump-dom " + base_ + "/");
  EXPECT_NE(dom.find("href=\"/jobs/job-000001\""), std::string::npos) << dom.substr(0, 500);
  EXPECT_NE(dom.find("id=\"workers\""), std::string::npos);
}

TEST_F(BrowserTest, ScreenshotsAreSaved) {
  for (auto [page, file] : {std::pair{"/jobs/1", "job-page.png"}, std::pair{"/", "cluster-page.png"}}) {
    std::string out = artifacts_ + "/" + file;
    fs::remove(out);
    RunChromium(chromium_, profile_, "--screenshot=" + out + " --window-size=1400,900 " + base_ + page);
    ASSERT_TRUE(fs::exists(out)) << "no screenshot " << out;
    EXPECT_GT(fs::file_size(out), 20000u) << out;  // a blank page is far smaller
  }
}

}  // namespace
}  // namespace mr::master
