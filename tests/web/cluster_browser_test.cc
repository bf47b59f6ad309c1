// End to end on a real cluster: `mr cluster start --workers 3 --http`, a word
// count job, then the master's own job page loaded in headless Chromium. The DOM
// must show the job and one bar per map attempt, reduce attempt and shuffle
// transfer of its trace; a screenshot is kept as a test artifact.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/chromium.h"

namespace mr::testing {
namespace {

namespace fs = std::filesystem;

// Bars are <rect class="bar KIND..." x=".." width=".." ...>: true if the leftmost fetch
// bar starts before the rightmost end of a map bar (x grows with time on the chart).
bool FetchBarBeforeLastMapEnd(const std::string& dom) {
  std::regex rect(R"re(<rect class="bar (map|fetch)[^"]*"[^>]*?\bx="([0-9.]+)"[^>]*?\bwidth="([0-9.]+)")re");
  double first_fetch = 1e300, last_map_end = -1;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), rect); it != std::sregex_iterator(); ++it) {
    double x = std::stod((*it)[2]), w = std::stod((*it)[3]);
    if ((*it)[1] == "map") last_map_end = std::max(last_map_end, x + w);
    else first_fetch = std::min(first_fetch, x);
  }
  return last_map_end > 0 && first_fetch < last_map_end;
}

TEST(ClusterBrowserTest, LiveJobPageShowsOverlappingLanes) {
  std::string chromium = webtest::FindChromium();
  ASSERT_FALSE(chromium.empty()) << "chromium is not installed: run scripts/install-deps.sh";
  TempDir tmp("mr-page-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 4u << 20, 41);
  ClusterProcess cluster(d + "/cluster", 3, "--http 127.0.0.1:0");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  // The master logs the status page's address (port 0 = any free port).
  std::string http;
  std::regex re("status page on (http://[0-9.:]+)/");
  WaitUntil([&] {
    std::smatch m;
    std::string log = ReadFile(d + "/cluster/master.log");
    if (std::regex_search(log, m, re)) http = m[1];
    return !http.empty();
  }, 5, 0.05);
  ASSERT_FALSE(http.empty()) << ReadFile(d + "/cluster/master.log");
  auto run = Sh(MrBin() + " run wordcount --quiet --input " + d + "/in.txt --output " + d +
                "/wc --reducers 3 --split-size 256KiB --master " + cluster.address());
  ASSERT_EQ(run.exit_code, 0) << run.err;

  int maps = 0, reduces = 0, fetches = 0;
  double last_map_end = 0, first_fetch_end = 1e300;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) {
    if (e.at("event") == "attempt_end") {
      bool map = e.at("task").get<std::string>()[0] == 'm';
      (map ? maps : reduces)++;
      if (map) last_map_end = std::max(last_map_end, e.at("t").get<double>());
    }
    if (e.at("event") == "fetch_end") {
      fetches++;
      first_fetch_end = std::min(first_fetch_end, e.at("t").get<double>());
    }
  }
  // The overlap the test is named for: some shuffle transfer finished while maps still ran.
  EXPECT_LT(first_fetch_end, last_map_end) << "no fetch ended before the last map";
  std::string profile = d + "/chromium-profile";
  std::string dom = webtest::RunChromium(chromium, profile, "--dump-dom " + http + "/jobs/job-000001");
  ASSERT_FALSE(dom.empty()) << "chromium printed no DOM";
  EXPECT_NE(dom.find("job-000001"), std::string::npos);
  EXPECT_GT(webtest::Count(dom, "class=\"lane map\""), 0u);
  EXPECT_GT(webtest::Count(dom, "class=\"lane reduce\""), 0u);
  EXPECT_GT(webtest::Count(dom, "class=\"lane shuffle\""), 0u);
  EXPECT_EQ(webtest::Count(dom, "class=\"bar map\""), static_cast<size_t>(maps));
  EXPECT_EQ(webtest::Count(dom, "class=\"bar reduce\""), static_cast<size_t>(reduces));
  EXPECT_EQ(webtest::Count(dom, "class=\"bar fetch\""), static_cast<size_t>(fetches));
  // ... and the page draws it: a fetch bar starts left of where the last map bar ends.
  EXPECT_TRUE(FetchBarBeforeLastMapEnd(dom)) << "the chart shows no fetch overlapping the maps";
  // Map tooltips carry the attempt's own counters, the user counter among them.
  EXPECT_NE(dom.find("user.wordcount.words"), std::string::npos);
  std::string cluster_dom = webtest::RunChromium(chromium, profile, "--dump-dom " + http + "/");
  EXPECT_NE(cluster_dom.find("job-000001"), std::string::npos);

  std::string artifacts = MR_WEB_TEST_ARTIFACT_DIR;
  fs::create_directories(artifacts);
  std::string shot = artifacts + "/cluster-job-page.png";
  fs::remove(shot);
  webtest::RunChromium(chromium, profile, "--screenshot=" + shot + " --window-size=1400,1000 " + http + "/jobs/1");
  ASSERT_TRUE(fs::exists(shot));
  EXPECT_GT(fs::file_size(shot), 20000u);
}

}  // namespace
}  // namespace mr::testing
