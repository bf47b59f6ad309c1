// The job page, the cluster page and `mr status` against /api/jobs/ID and /api/cluster
// under an SRPT policy (maxsrpt), while a job shuffles: the fields cluster_browser_test.cc
// checks under fifo, plus those that mean something only while bytes flow — the job's
// share of the shuffle (in (0, 1] while its map output waits), the job's measured shuffle
// rate and the cluster's shuffle card (a rate with its unit, > 0), and the size estimate
// the policy reads. The shuffle is slowed by a bandwidth cap so that it lasts through
// the page loads; a screenshot of the running job's page is kept as a test artifact.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "common/units.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/chromium.h"
#include "tests/web/http_client.h"
#include "tests/web/page_fields.h"

namespace mr::testing {
namespace {

namespace fs = std::filesystem;

// The job shuffles now: it runs, map output waits for its reducers, bytes flowed in the
// last 2 s.
bool Shuffling(const nlohmann::json& job) {
  return job.value("state", "") == "RUNNING" && job.value("shuffle_bytes_waiting", 0.0) > 0 &&
         job.value("shuffle_rate", 0.0) > 0;
}

bool MapsDone(const nlohmann::json& job) {
  return job.value("maps_done", 0) == job.value("maps_total", -1);
}

// The row of `mr status` that starts with job ("" if none).
std::string RowOf(const std::string& table, const std::string& job) {
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(job, 0) == 0) return line;
  }
  return "";
}

class SrptPage : public ::testing::Test {
 protected:
  nlohmann::json Api(const std::string& path) {
    auto addr = ParseHostPort(http_.substr(std::string("http://").size()));
    EXPECT_TRUE(addr.ok());
    return nlohmann::json::parse(webtest::Get(*addr, path).body, nullptr, false);
  }
  std::string Dom(const std::string& path) { return webtest::RunChromium(chromium_, profile_, "--dump-dom " + http_ + path); }

  std::string chromium_ = webtest::FindChromium();
  TempDir tmp_{"mr-srpt-page-test"};
  std::string d_ = tmp_.path();
  std::string profile_ = d_ + "/chromium-profile";
  std::string http_;
};

TEST_F(SrptPage, ARunningJobsPageShowsTheApisShareRateAndEstimateUnderMaxsrpt) {
  ASSERT_FALSE(chromium_.empty()) << "chromium is not installed: run scripts/install-deps.sh";
  // 2 workers, each serving its map output at 512 KB/s: 6 maps x 4 MB take about 24 s to
  // shuffle, whatever the load (the cap bounds the rate from above).
  ClusterProcess cluster(d_ + "/cluster", 2, "--http 127.0.0.1:0 --policy maxsrpt --shuffle-bandwidth 512KB/s");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  http_ = StatusPageUrl(d_ + "/cluster");
  ASSERT_FALSE(http_.empty()) << ReadFile(d_ + "/cluster/master.log");
  const std::string master = " --master " + cluster.address();
  auto submit = Sh(MrBin() + " submit synthetic --maps 6 --map-seconds 0.1 --map-bytes 4MB --reducers 2 "
                   "--slow-start 0 --output " + d_ + "/out" + master);
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_TRUE(WaitUntil([&] { return Shuffling(Api("/api/jobs/1")); }, 60, 0.05)) << Api("/api/jobs/1").dump();
  ASSERT_TRUE(WaitUntil([&] { return MapsDone(Api("/api/jobs/1")); }, 60, 0.05)) << Api("/api/jobs/1").dump();

  // The job moves while a page loads: a moving field must equal what the API said just
  // before or just after. A sample counts only if the job shuffled at both ends with every
  // map done (a few tries: the shuffle lasts long, but a page load under load may not be
  // short). While maps end, the online estimate changes at each completion, so two could
  // land between the samples and the page show neither end's (CI saw it once).
  nlohmann::json before, after, cluster_before, cluster_after;
  std::string dom, front, row;
  bool sampled = false;
  for (int i = 0; i < 4 && !sampled; ++i) {
    before = Api("/api/jobs/1");
    cluster_before = Api("/api/cluster");
    dom = Dom("/jobs/1");
    front = Dom("/");
    row = RowOf(Sh(MrBin() + " status" + master).out, "job-000001");
    after = Api("/api/jobs/1");
    cluster_after = Api("/api/cluster");
    sampled = Shuffling(before) && Shuffling(after) && MapsDone(before);
  }
  ASSERT_TRUE(sampled) << "the job stopped shuffling before the pages loaded: " << after.dump();
  ASSERT_FALSE(dom.empty());
  ASSERT_EQ(after.value("policy", ""), "maxsrpt");

  // State, phase, progress and times, as under fifo.
  EXPECT_EQ(ById(dom, "job-state"), "RUNNING");
  const std::string phase = ById(dom, "job-phase");
  EXPECT_TRUE(phase == "in " + before.value("phase", "?") || phase == "in " + after.value("phase", "?")) << phase;
  for (const char* p : {"map", "shuffle", "reduce"}) {
    EXPECT_GE(PhasePercent(dom, p), Percent(before, p)) << p;
    EXPECT_LE(PhasePercent(dom, p), Percent(after, p)) << p;
  }
  EXPECT_EQ(ById(dom, "job-submitted"), UtcClock(after.at("submit_time").get<double>()) + " UTC");
  EXPECT_EQ(ById(dom, "job-started"), SinceSubmit(after, "start_time"));
  EXPECT_EQ(ById(dom, "job-ended"), "-");
  const std::string sojourn = ById(dom, "job-sojourn");
  EXPECT_TRUE(sojourn == SojournShown(before).first || sojourn == SojournShown(after).first) << sojourn;

  // The share: SRPT gives the only job with output waiting a share of the shuffle, so the
  // card is a number in (0, 1], the API's.
  const std::string share = ById(dom, "job-share");
  EXPECT_TRUE(share == ShareShown(before) || share == ShareShown(after)) << share;
  ASSERT_NE(share, "-");
  EXPECT_GT(std::stod(share), 0.0) << "a shuffling job under maxsrpt with the link to itself";
  EXPECT_LE(std::stod(share), 1.0);
  EXPECT_EQ(dom.find("mean 0.00"), std::string::npos) << "the share line left 0: its mean is not 0.00";

  // The job's shuffle rate: measured over the last 2 s, with its unit, > 0 while bytes flow.
  const std::string rate = CardValue(dom, "shuffle-rate");
  EXPECT_GT(RateShown(rate), 0) << "job rate card: '" << rate << "'";
  EXPECT_GT(before.at("shuffle_rate").get<double>(), 0);
  EXPECT_GT(after.at("shuffle_rate").get<double>(), 0);
  // "Fetched" counts the bytes of fetches in flight, so while bytes flow the shuffle card
  // never says "0 B fetched" beside a nonzero rate (it did while only finished fetches
  // counted: a 4 MB partition at 512 KB/s takes 8 s to finish).
  std::smatch fetched;
  ASSERT_TRUE(std::regex_search(dom, fetched, std::regex(R"(shuffle: ([0-9.]+ (B|KiB|MiB|GiB)) fetched of)"))) << dom;
  EXPECT_NE(fetched[1].str(), "0 B") << "shuffle card beside a rate of " << rate;
  EXPECT_GT(before.at("shuffle_bytes_fetched").get<double>(), 0) << before.dump();

  // The estimate: maxsrpt reads one, so the page shows it (the source and the sizes), not
  // "n/a under maxsrpt"; it is the API's just before or just after.
  EXPECT_EQ(after.at("estimate").at("used_by_policy"), true);
  const std::string estimate = ById(dom, "job-estimate");
  EXPECT_TRUE(estimate == EstimateShown(before) || estimate == EstimateShown(after)) << estimate;
  EXPECT_EQ(estimate.find("n/a"), std::string::npos) << estimate;

  // The cluster page: the shuffle card is the master's measured rate with its unit, > 0
  // while bytes flow, never "measuring…"; the job's row shows the job page's share.
  ASSERT_GT(cluster_after.at("shuffle_bytes_sent").get<double>(), 0) << cluster_after.dump();
  const std::string cluster_rate = ById(front, "shuffle-rate");
  EXPECT_GT(RateShown(cluster_rate), 0) << "cluster rate card: '" << cluster_rate << "'";
  EXPECT_GT(cluster_before.at("shuffle_rate").get<double>(), 0) << cluster_before.dump();
  EXPECT_GT(cluster_after.at("shuffle_rate").get<double>(), 0) << cluster_after.dump();
  const size_t at = front.find("data-job=\"job-000001\"");
  ASSERT_NE(at, std::string::npos);
  const std::string front_row = front.substr(at, front.find("</tr>", at) - at);
  EXPECT_TRUE(front_row.find(">" + ShareShown(before) + "<") != std::string::npos ||
              front_row.find(">" + ShareShown(after) + "<") != std::string::npos)
      << front_row;

  // `mr status`: the row's SHARE in (0, 1] and RATE a measured rate with its unit.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(row, m, std::regex(R"( RUNNING .* ([01]\.[0-9]{2}) +([0-9.]+ (B|KiB|MiB)/s) )")))
      << row;
  EXPECT_GT(std::stod(m[1]), 0.0) << row;
  EXPECT_GT(RateShown(m[2]), 0) << row;

  std::string artifacts = MR_WEB_TEST_ARTIFACT_DIR;
  fs::create_directories(artifacts);
  webtest::RunChromium(chromium_, profile_, "--screenshot=" + artifacts + "/maxsrpt-job-shuffling.png" +
                                                " --window-size=1400,1100 " + http_ + "/jobs/1");
  Sh(MrBin() + " kill job-000001" + master);  // the cluster goes with the test
}

}  // namespace
}  // namespace mr::testing
