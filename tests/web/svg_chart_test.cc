#include "web/svg_chart.h"

#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
  EXPECT_NE(svg.find(">+3.5 s</text>"), std::string::npos);  // an axis tick, since submit
}

TEST(SvgChartTest, IsDeterministicAndEscapesText) {
  auto events = webtest::HandBuiltTrace();
  std::get<trace::JobSubmit>(events[0]).name = "a<b & \"c\"";
  std::string a = RenderSvgChart(BuildChartLayout(events));
  std::string b = RenderSvgChart(BuildChartLayout(events));
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
  EXPECT_NE(html.find("<b id=\"job-sojourn\">2.25 s</b><small id=\"job-sojourn-note\">sojourn time: submit to the last map output</small>"),
            std::string::npos);
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

// Issue 16: the purple decision ticks had no legend entry. Every kind of mark the chart
// draws has one: the bar kinds, running bars, decision ticks, the rate area, the share line.
TEST(SvgChartTest, LegendNamesEveryMark) {
  std::string svg = RenderSvgChart(BuildChartLayout(webtest::HandBuiltTrace()));
  for (const char* mark : {"map", "reduce", "fetch", "failed", "killed", "running", "decision", "rate", "share"}) {
    EXPECT_NE(svg.find("<g class=\"legend " + std::string(mark) + "\">"), std::string::npos) << mark;
  }
  EXPECT_NE(svg.find("class=\"decision\""), std::string::npos);  // the ticks the entry names
  // The share's scale is labelled as a scale, not as a lone "1" that reads like a value.
  EXPECT_NE(svg.find(">share 1</text>"), std::string::npos);
  EXPECT_EQ(svg.find("- - share"), std::string::npos);
}

// A killed attempt (a backup's loser) is filled with the killed pattern, not the failed red,
// and the pattern is defined in the chart; the legend's killed entry shows the same fill.
TEST(SvgChartTest, AKilledAttemptIsDrawnKilledNotFailed) {
  std::vector<trace::Event> events = webtest::HandBuiltTrace();
  events.push_back(trace::AttemptEnd{.t = 1002.6, .job = "job-000001", .task = "m-00002", .attempt = 2,
                                     .worker = 1, .start = 1001.2, .slot = "map", .status = "killed",
                                     .error = "killed by the master: another attempt finished"});
  const std::string svg = RenderSvgChart(BuildChartLayout(events));
  const size_t bar = svg.find("<rect class=\"bar killed\"");
  ASSERT_NE(bar, std::string::npos) << svg;
  const std::string rect = svg.substr(bar, svg.find('>', bar) - bar);
  EXPECT_NE(rect.find("fill=\"url(#mr-killed)\""), std::string::npos) << rect;
  EXPECT_EQ(rect.find("#e15759"), std::string::npos) << "drawn in the failed red: " << rect;
  EXPECT_NE(svg.find("<pattern id=\"mr-killed\""), std::string::npos);
  const size_t legend = svg.find("<g class=\"legend killed\">");
  ASSERT_NE(legend, std::string::npos);
  EXPECT_NE(svg.find("fill=\"url(#mr-killed)\"", legend), std::string::npos);
}

// A live job's chart runs to the present, not to its last event.
TEST(SvgChartTest, LiveChartRunsUntilNow) {
  auto events = webtest::HandBuiltTrace();
  events.pop_back();  // no job_end: still running; its last event is at +3.5 s
  ChartLayout l = BuildChartLayout(events, 100, 1000.0 + 9.0);
  EXPECT_NEAR(l.duration, 9.0, 1e-9);
}

// A `served` report can follow job_end (docs/trace-format.md); it must not stretch the
// axis past the job's end (the docs picture ran 4x longer than its job).
TEST(SvgChartTest, EndedChartStopsAtJobEnd) {
  auto events = webtest::HandBuiltTrace();
  events.push_back(trace::Served{.t = 1014.0, .worker = 1, .start = 1003.0, .bytes = 10});
  EXPECT_NEAR(BuildChartLayout(events).duration, 3.6, 1e-9);
}

nlohmann::json JobDoc(const std::string& state) {
  webtest::FakeProvider p(webtest::HandBuiltTrace(), state);
  return nlohmann::json::parse(*p.Get("/api/jobs/1"));
}

// Issue 16, the job page: state kept apart from the phases; the master's three progress
// numbers; times since submission (no epoch seconds); the share card's number is the
// status's, which the chart's share line ends at.
TEST(PagesTest, JobPageShowsStatePhaseProgressAndRelativeTimes) {
  nlohmann::json job = JobDoc("FAILED");
  job["error"] = "map m-00003 failed 4 times";
  job["share"] = 0.0;
  std::string html = JobPageHtml(job, webtest::HandBuiltTrace());
  EXPECT_NE(html.find("<b id=\"job-state\" class=\"state-FAILED\">FAILED</b><small id=\"job-phase\">ended +3.51 s"),
            std::string::npos) << html;
  EXPECT_EQ(html.find(">done<"), std::string::npos);
  for (const char* phase : {"map", "shuffle", "reduce"}) {
    EXPECT_NE(html.find("data-phase=\"" + std::string(phase) + "\"><b>100%</b>"), std::string::npos) << phase;
  }
  EXPECT_NE(html.find("<td id=\"job-started\">+0.050 s</td>"), std::string::npos);
  EXPECT_NE(html.find("<td id=\"job-submitted\">00:16:40 UTC</td>"), std::string::npos);  // epoch 1000
  // No epoch time in the text (the trace's clock starts at 1000 s): outside the chart's
  // coordinates, nothing reads "100x.y".
  std::string text = html.substr(0, html.find("<svg")) + html.substr(html.find("</svg>"));
  EXPECT_FALSE(std::regex_search(text, std::regex("100[0-9]\\.[0-9]"))) << text;
  EXPECT_NE(html.find("<td class=\"num\">+0.100 s</td>"), std::string::npos);  // the decision's row
  EXPECT_NE(html.find("<b id=\"job-share\">-</b>"), std::string::npos) << "an ended job has no share";
  job["state"] = "RUNNING";
  job["phase"] = "map+shuffle";
  job["progress"] = {{"map", 0.999}, {"shuffle", 0.29}, {"reduce", 0.0}};
  html = JobPageHtml(job, webtest::HandBuiltTrace());
  EXPECT_NE(html.find("<small id=\"job-phase\">in map+shuffle</small>"), std::string::npos);
  EXPECT_NE(html.find("data-phase=\"map\"><b>99%</b>"), std::string::npos) << "99.9% is not done";
  EXPECT_NE(html.find("data-phase=\"shuffle\"><b>29%</b>"), std::string::npos);
}

// "shuffled 15.6 MiB of 15.6 MiB" appeared mid-map-phase: the card divides by the map
// output expected, not the output so far.
TEST(PagesTest, ShuffleCardUsesTheExpectedBytes) {
  nlohmann::json job = JobDoc("RUNNING");
  job["maps_done"] = 4;
  job["shuffle_bytes_fetched"] = 1048576;
  job["shuffle_bytes_total"] = 1048576;
  job["shuffle_bytes_expected"] = 4194304.0;
  std::string html = JobPageHtml(job, webtest::HandBuiltTrace());
  EXPECT_NE(html.find("shuffle: 1.0 MiB fetched of 4.0 MiB expected"), std::string::npos) << html;
}

// A failed attempt's stderr is the user's program's text: escaped, never markup.
TEST(PagesTest, FailedAttemptTailIsEscaped) {
  nlohmann::json job = JobDoc("FAILED");
  job["last_failed_attempt"] = {{"task", "m-00000"}, {"attempt", 4}, {"worker", 2}, {"time", 1001.5},
                                {"error", "exited with code 3"}, {"stderr_tail", "<img src=x onerror=alert(1)>\nbad & worse\n"}};
  std::string html = JobPageHtml(job, webtest::HandBuiltTrace());
  EXPECT_NE(html.find("m-00000 attempt 4 on w2, +1.50 s: exited with code 3"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;\nbad &amp; worse"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
}

// flex's allocation (issue 25): a table of each pool's slots, bounds, place, order and
// prediction; no table under the other policies. Escaped like every text of the page.
TEST(PagesTest, AllocationTableShowsTheLatestAllocationPerPool) {
  nlohmann::json job = JobDoc("RUNNING");
  EXPECT_EQ(JobPageHtml(job, webtest::HandBuiltTrace()).find("id=\"allocations\""), std::string::npos);
  job["allocations"] = nlohmann::json::array(
      {{{"slot", "map"}, {"slots", 4}, {"min_slots", 1}, {"max_slots", 8}, {"rank", 0}, {"order", "<rap>"},
        {"metric", "tardiness"}, {"predicted", 12.5}, {"completion", 1011.0}, {"time", 1000.5}}});
  std::string html = JobPageHtml(job, webtest::HandBuiltTrace());
  EXPECT_NE(html.find("<h2>Allocation</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><td>map</td><td>4</td><td>1</td><td>8</td><td>1</td><td>&lt;rap&gt;</td><td>tardiness</td>"),
            std::string::npos)
      << html;
}

// The front page: newest jobs first with their submit time; the shuffle card says what it
// knows before the first refresh instead of "(rate after the next refresh)".
TEST(PagesTest, ClusterPageListsNewestFirstWithSubmitTimes) {
  nlohmann::json a = JobDoc("SUCCEEDED"), b = a;
  b["id"] = "job-000002";
  b["submit_time"] = 1002.0;
  webtest::FakeProvider p(webtest::HandBuiltTrace(), "RUNNING");
  auto get = [&](const char* path) { return nlohmann::json::parse(*p.Get(path)); };
  std::string html = ClusterPageHtml(get("/api/cluster"), get("/api/workers"), nlohmann::json::array({a, b}), 1012.0);
  size_t first = html.find("data-job=\"job-000002\""), second = html.find("data-job=\"job-000001\"");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second) << "newest first";
  EXPECT_NE(html.find("00:16:42 (10.00 s ago)"), std::string::npos) << html;
  EXPECT_NE(html.find("<b id=\"shuffle-rate\">25.0 KiB/s</b>"), std::string::npos) << "the master's measured rate";
  EXPECT_NE(html.find("of 5.7 MiB/s capacity; 280.1 KiB sent in all"), std::string::npos) << html;
  EXPECT_EQ(html.find("rate after the next refresh"), std::string::npos);
}

}  // namespace
}  // namespace mr::web
