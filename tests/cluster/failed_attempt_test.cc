// A failed attempt's stderr tail (issue 16): a streaming mapper that writes to stderr and
// exits 3 fails its job; `mr status JOB`, /api/jobs/ID and the job page show the last lines
// it wrote (bounded, HTML-escaped on the page), and so does a master restarted on the same
// state directory.
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/common/wait.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

// 30 lines of noise, one line of markup and the fatal line: only the last 20 lines are kept.
constexpr const char* kFailingMapper =
    "cat >/dev/null; i=0; while [ $i -lt 30 ]; do echo \"noise $i\" >&2; i=$((i+1)); done; "
    "echo '<script>alert(1)</script> & more' >&2; echo 'fatal: bad record 42' >&2; exit 3";

// The status page's address, from the latest master log.
std::optional<HostPort> HttpOf(const DirectCluster& c) {
  std::optional<HostPort> http;
  std::regex re("status page on http://([0-9.:]+)/");
  WaitUntil([&] {
    std::smatch m;
    std::string text = ReadFile(c.LatestMasterLogPath());
    if (!std::regex_search(text, m, re)) return false;
    if (auto hp = ParseHostPort(m[1].str()); hp.ok()) http = *hp;
    return true;
  }, 10, 0.05);
  return http;
}

void ExpectTailInStatus(const DirectCluster& c) {
  auto text = c.Mr("status job-000001");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(last failed attempt: m-00000 attempt [0-9]+ on worker w1)")))
      << text.out;
  EXPECT_NE(text.out.find("exited with code 3"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("    | fatal: bad record 42\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("    | noise 12\n"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("noise 11"), std::string::npos) << "more than the last 20 lines\n" << text.out;
}

TEST(FailedAttemptTest, StderrTailReachesStatusApiAndPageAndSurvivesARestart) {
  TempDir tmp("mr-failed-attempt-test");
  const std::string d = tmp.path();
  {
    std::ofstream(d + "/in.txt") << "a b\nc d\n";
  }
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "20", "--http", "127.0.0.1:0"}));
  c.StartWorker({"--master-timeout", "30"});
  auto run = c.Mr("run streaming --quiet --mapper " + ShellQuote(kFailingMapper) + " --input " + d +
                  "/in.txt --output " + d + "/out");
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;

  ExpectTailInStatus(c);
  std::optional<HostPort> http = HttpOf(c);
  ASSERT_TRUE(http.has_value()) << c.MasterLogs();
  nlohmann::json job = nlohmann::json::parse(webtest::Get(*http, "/api/jobs/1").body);
  ASSERT_TRUE(job.at("last_failed_attempt").is_object()) << job.dump();
  const nlohmann::json& f = job.at("last_failed_attempt");
  EXPECT_EQ(f.at("task"), "m-00000");
  EXPECT_EQ(f.at("worker"), 1);
  const std::string tail = f.at("stderr_tail").get<std::string>();
  EXPECT_EQ(tail.rfind("noise 12\n", 0), 0u) << tail;
  EXPECT_NE(tail.find("\nfatal: bad record 42\n"), std::string::npos) << tail;
  EXPECT_EQ(job.at("state"), "FAILED");
  EXPECT_EQ(job.at("phase"), "") << "an ended job has no phase, whatever its state";
  // The page shows the tail escaped: the child's markup is text, never markup.
  std::string page = webtest::Get(*http, "/jobs/1").body;
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), std::string::npos) << page;
  EXPECT_EQ(page.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(page.find("fatal: bad record 42"), std::string::npos);

  // Kept with the job's record: a restarted master shows the same.
  c.KillMaster();
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "20", "--http", "127.0.0.1:0"}));
  ExpectTailInStatus(c);
}

}  // namespace
}  // namespace mr::testing
