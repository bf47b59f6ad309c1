// The same traces give the same experiment reports as before the trace module: main's
// build printed tests/trace/data/golden/{mst_trace.txt,mst_trace.json,predict_*.csv} for
// the fixture run (tests/trace/data/README.md); the straggler analysis and the replay must
// print them again, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "common/file_util.h"
#include "common/units.h"
#include "experiment/mst_trace.h"
#include "experiment/mst_trace_output.h"
#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "scheduler/policy_flags.h"

namespace mr::experiment {
namespace {

std::string Source(const std::string& rel) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  EXPECT_NE(src, nullptr) << "run under ctest (it sets MR_SOURCE_DIR)";
  return JoinPath(src != nullptr ? src : "", rel);
}

std::string Golden(const std::string& name) {
  auto text = ReadFileToString(Source("tests/trace/data/golden/" + name));
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

const char kRun[] = "tests/trace/data/run";

TEST(GoldenReportsTest, MstTraceTextAndJson) {
  auto report = ReadMstTrace({Source(kRun)});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  std::ostringstream text;
  WriteMstTraceText(*report, text);
  EXPECT_EQ(text.str(), Golden("mst_trace.txt"));
  EXPECT_EQ(MstTraceJson(*report).dump(2) + "\n", Golden("mst_trace.json"));  // as `--json` prints it
}

// `mr model predict --trace RUN --policy P --workers 2 --map-slots 1 --reduce-slots 1
// --shuffle-bandwidth B`, from the functions behind it.
std::string Predict(const std::string& policy, const std::string& bandwidth) {
  auto run = ReadRecordedRun({Source(kRun)});
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  if (!run.ok()) return "";
  auto options = sched::PolicyOptionsFromFlags(policy, {});
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  model::ClusterSpec cluster;
  cluster.workers = 2;
  cluster.map_slots = 1;
  cluster.reduce_slots = 1;
  if (bandwidth == "measured") {
    cluster.shuffle_bandwidth = MeasuredShuffleRate(*run);
  } else {
    auto rate = ParseRate(bandwidth);
    EXPECT_TRUE(rate.ok());
    cluster.shuffle_bandwidth = rate.ok() ? *rate : 0;
  }
  auto prediction = PredictRun(*run, policy, *options, cluster);
  EXPECT_TRUE(prediction.ok()) << prediction.status().ToString();
  if (!prediction.ok()) return "";
  std::ostringstream out;
  WritePrediction(*run, *prediction, out);
  if (bandwidth == "measured") {
    char line[128];
    std::snprintf(line, sizeof line, "# shuffle_bandwidth measured from the fetches of %zu source workers\n",
                  run->links.size());
    out << line;
  }
  return out.str();
}

TEST(GoldenReportsTest, ReplayPredictionAndWhatIf) {
  EXPECT_EQ(Predict("fifo", "measured"), Golden("predict_fifo.csv"));
  EXPECT_EQ(Predict("fair", "20MB/s"), Golden("predict_fair.csv"));
}

}  // namespace
}  // namespace mr::experiment
