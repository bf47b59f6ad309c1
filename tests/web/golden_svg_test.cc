// The same trace gives the same Gantt SVG, byte for byte, as `mr trace render` drew it
// before the trace module: tests/trace/data/golden holds main's renderings of the
// fixture traces (tests/trace/data/README.md), including an older trace's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "common/file_util.h"
#include "trace/reader.h"
#include "web/chart_layout.h"
#include "web/svg_chart.h"

namespace mr::web {
namespace {

std::string Source(const std::string& rel) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  return JoinPath(src != nullptr ? src : MR_WEB_TEST_SOURCE_DIR, rel);
}

TEST(GoldenSvgTest, SameTraceSameChart) {
  struct Case {
    const char* trace;
    const char* golden;
  };
  for (const Case& c : {Case{"tests/trace/data/run/job-000001.jsonl", "tests/trace/data/golden/job-000001.svg"},
                        Case{"tests/trace/data/run/job-000002.jsonl", "tests/trace/data/golden/job-000002.svg"},
                        Case{"tests/trace/data/run/job-000003.jsonl", "tests/trace/data/golden/job-000003.svg"},
                        Case{"tests/web/data/wordcount_3workers.jsonl",
                             "tests/trace/data/golden/wordcount_3workers.svg"}}) {
    SCOPED_TRACE(c.trace);
    auto events = trace::ReadTraceFile(Source(c.trace));
    ASSERT_TRUE(events.ok()) << events.status().ToString();
    auto golden = ReadFileToString(Source(c.golden));
    ASSERT_TRUE(golden.ok()) << golden.status().ToString();
    SvgOptions opt;
    opt.width = 1200;  // mr trace render's default
    const std::string svg = RenderSvgChart(BuildChartLayout(*events), opt);
    EXPECT_EQ(svg.size(), golden->size());
    EXPECT_TRUE(svg == *golden) << "first difference at byte "
                                << std::mismatch(svg.begin(), svg.end(), golden->begin(), golden->end()).first -
                                       svg.begin();
  }
}

}  // namespace
}  // namespace mr::web
