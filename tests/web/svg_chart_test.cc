#include "web/svg_chart.h"

#include <regex>

#include <gtest/gtest.h>

#include "tests/web/fake_provider.h"
#include "web/pages.h"

namespace mr::web {
namespace {

size_t Count(const std::string& s, const std::string& needle) {
  size_t n = 0;
  for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

TEST(SvgChartTest, HasLanesBarsClassesAndTooltips) {
  std::string svg = RenderSvgChart(BuildChartLayout(webtest::HandBuiltTrace()));
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(Count(svg, "<g class=\"lane "), 9u);
  EXPECT_NE(svg.find("data-lane=\"w1-map-1\""), std::string::npos);
  EXPECT_NE(svg.find("data-lane=\"w1-w2-shuffle-0\""), std::string::npos);
  EXPECT_EQ(Count(svg, "<rect class=\"bar map\""), 4u);
  EXPECT_EQ(Count(svg, "<rect class=\"bar reduce\""), 2u);
  EXPECT_EQ(Count(svg, "<rect class=\"bar fetch\""), 6u);
  EXPECT_EQ(Count(svg, "<rect class=\"bar failed\""), 1u);
  EXPECT_EQ(Count(svg, "<title>"), Count(svg, "</title>"));
  EXPECT_NE(svg.find("w1→w2 shuffle"), std::string::npos);
  EXPECT_NE(svg.find("w1 map 0"), std::string::npos);
  // Title: job id, name, policy, response time.
  EXPECT_NE(svg.find("job-000001 wc"), std::string::npos);
  EXPECT_NE(svg.find("policy fifo"), std::string::npos);
  EXPECT_NE(svg.find("response time 3.60 s"), std::string::npos);
  EXPECT_NE(svg.find("class=\"rate-area\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"share\""), std::string::npos);
  EXPECT_NE(svg.find(">3.5 s</text>"), std::string::npos);  // an axis tick
}

TEST(SvgChartTest, IsDeterministicAndEscapesText) {
  auto trace = webtest::HandBuiltTrace();
  trace[0]["name"] = "a<b & \"c\"";
  std::string a = RenderSvgChart(BuildChartLayout(trace));
  std::string b = RenderSvgChart(BuildChartLayout(trace));
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_EQ(a.find("a<b"), std::string::npos);
}

TEST(SvgChartTest, EmptyLayoutStillRenders) {
  std::string svg = RenderSvgChart(BuildChartLayout({}));
  EXPECT_NE(svg.find("no task attempts"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(SvgChartTest, BarsStayInsideThePlot) {
  SvgOptions o;
  std::string svg = RenderSvgChart(BuildChartLayout(webtest::RealTrace()), o);
  std::regex rect("<rect class=\"bar [a-z ]+\" x=\"([0-9.]+)\" y=\"[0-9]+\" width=\"([0-9.]+)\"");
  int n = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it, ++n) {
    double x = std::stod((*it)[1]), w = std::stod((*it)[2]);
    EXPECT_GE(x, o.label_width);
    EXPECT_LE(x + w, o.width - 29.0);
  }
  EXPECT_EQ(n, 16 + 3 + 48);
}

TEST(PagesTest, JobPageEmbedsChartDecisionsAndCounters) {
  webtest::FakeProvider p(webtest::HandBuiltTrace());
  std::string html = JobPageHtml(nlohmann::json::parse(*p.Get("/api/jobs/1")), webtest::HandBuiltTrace());
  EXPECT_NE(html.find("<h1 id=\"job-id\">job-000001"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("id=\"decisions\""), std::string::npos);
  EXPECT_NE(html.find("map_output_records"), std::string::npos);
  EXPECT_NE(html.find("data-live=\"0\""), std::string::npos);  // SUCCEEDED: no refresh
  EXPECT_NE(html.find("<b>2.25 s</b><small>sojourn time (to last map output)</small>"), std::string::npos);
  EXPECT_EQ(Count(html, "http://"), Count(html, "http://www.w3.org/2000/svg"));  // nothing fetched from elsewhere
  EXPECT_EQ(Count(html, "https://"), 0u);
}

TEST(PagesTest, ClusterPageListsWorkersAndLinksJobs) {
  webtest::FakeProvider p(webtest::HandBuiltTrace(), "RUNNING");
  auto get = [&](const char* path) { return nlohmann::json::parse(*p.Get(path)); };
  std::string html = ClusterPageHtml(get("/api/cluster"), get("/api/workers"), get("/api/jobs"), 1003.0);
  EXPECT_NE(html.find("<a href=\"/jobs/job-000001\">"), std::string::npos);
  EXPECT_EQ(Count(html, "127.0.0.1:4000"), 3u);
  EXPECT_NE(html.find("1 / 3"), std::string::npos);  // map slots busy
  EXPECT_NE(html.find("3.0 s ago"), std::string::npos);
  EXPECT_NE(html.find("data-live=\"1\""), std::string::npos);
  // Queued maps per worker (17, 27, 37 from the fake /api/workers) and the placement mode.
  EXPECT_NE(html.find("<th>queued maps</th>"), std::string::npos);
  for (const char* q : {">17<", ">27<", ">37<"}) EXPECT_NE(html.find(q), std::string::npos) << q;
  EXPECT_NE(html.find("policy fifo, placement dep"), std::string::npos);
  EXPECT_TRUE(JobIsLive(get("/api/jobs/1")));
}

}  // namespace
}  // namespace mr::web
