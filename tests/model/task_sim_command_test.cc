// The work of `mr model tasksim` (RunTaskSimCommand) and the optional fields of its JSON
// workload: parsed, checked, and reaching the simulator (a replayed run on workers of
// different speeds gives the hand-computed completion). Its flags: tests/cli/model_cli_test.cc.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/model_commands.h"
#include "model/tasksim/task_workload.h"

namespace mr::model {
namespace {

// The CSV row of job `i` (its completion is field 5).
std::vector<std::string> Row(const std::string& out, size_t i) {
  std::istringstream in(out);
  std::string line;
  const std::string prefix = std::to_string(i) + ",";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::vector<std::string> fields;
    std::istringstream l(line);
    for (std::string f; std::getline(l, f, ',');) fields.push_back(f);
    return fields;
  }
  return {};
}

// One job of two maps replayed at 2 s and 4 s of work on workers of speed 1 and 2:
// FIFO runs m0 on worker 1 (2 / 1 = 2 s) and m1 on worker 2 (4 / 2 = 2 s); the 0-s
// reduce follows at 2. Its parameters come through the JSON too.
TEST(TaskSimCommandTest, ReplayedJsonOnWorkersOfDifferentSpeeds) {
  TempDir dir("tasksim-cli");
  const std::string path = JoinPath(dir.path(), "replay.json");
  ASSERT_TRUE(WriteFileAtomically(path, R"({"job_list": [{"arrival": 0, "maps": 2,
      "map_bytes": 0, "reducers": 1, "hint_map_seconds": 6, "hint_shuffle_bytes": 0,
      "map_durations": [2, 4], "reduce_durations": [0], "pool": "p", "weight": 2}]})")
                  .ok());
  TaskSimOptions o;
  o.workload = path;
  o.policy = "fifo";
  o.cluster.workers = 2;
  o.cluster.shuffle_bandwidth = 1e6;
  o.cluster.speeds = {1, 2};
  std::ostringstream out;
  Status st = RunTaskSimCommand(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::vector<std::string> row = Row(out.str(), 0);
  ASSERT_EQ(row.size(), 7u) << out.str();
  EXPECT_EQ(row[4], "2") << out.str();
  EXPECT_EQ(row[6], "2") << out.str();  // sojourn: the reduce takes no time

  auto jobs = ParseBenchWorkloadJson(
      R"({"job_list": [{"arrival": 0, "maps": 2, "map_bytes": 0, "reducers": 1,
          "hint_map_seconds": 6, "hint_shuffle_bytes": 0, "map_time": "exp:1,2",
          "pool": "p", "weight": 2, "hint_reduce_seconds": 4}]})",
      TaskShape{});
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  EXPECT_EQ((*jobs)[0].map_time.kind, MapTimeDist::Kind::kDelayedExp);
  EXPECT_EQ((*jobs)[0].params.pool, "p");
  EXPECT_DOUBLE_EQ((*jobs)[0].params.weight, 2);
  EXPECT_DOUBLE_EQ((*jobs)[0].params.hint_reduce_seconds, 4);
  for (const char* bad : {R"("map_durations": 3)", R"("map_durations": [1, -1])",
                          R"("map_time": "weibull:1")", R"("pool": 7)", R"("weight": -1)"}) {
    std::string text = std::string(R"({"job_list": [{"arrival": 0, "maps": 2, "map_bytes": 0,
        "reducers": 1, "hint_map_seconds": 6, "hint_shuffle_bytes": 0, )") +
                       bad + "}]}";
    EXPECT_EQ(ParseBenchWorkloadJson(text, TaskShape{}).status().code(),
              StatusCode::kInvalidArgument)
        << bad;
  }
  // FLEX's keys: read as the flags would set them; contradictions refused naming the keys.
  auto with = [](const std::string& keys) {
    return ParseBenchWorkloadJson(std::string(R"({"job_list": [{"arrival": 0, "maps": 2, "map_bytes": 0,
        "reducers": 1, "hint_map_seconds": 6, "hint_shuffle_bytes": 0, )") + keys + "}]}",
                                  TaskShape{});
  };
  auto flex = with(R"("metric": "sla", "deadline": "+90s", "sla": "30:1,60:4", "min_slots": 2, "max_slots": 5)");
  ASSERT_TRUE(flex.ok()) << flex.status().ToString();
  EXPECT_EQ((*flex)[0].params.metric, "sla");
  EXPECT_DOUBLE_EQ((*flex)[0].params.deadline, 90);
  EXPECT_EQ((*flex)[0].params.sla, "30:1,60:4");
  EXPECT_EQ((*flex)[0].params.min_slots, 2);
  EXPECT_EQ((*flex)[0].params.max_slots, 5);
  ASSERT_TRUE(with(R"("metric": "tardiness", "deadline": 12.5)").ok());
  EXPECT_DOUBLE_EQ((*with(R"("metric": "tardiness", "deadline": 12.5)"))[0].params.deadline, 12.5);
  for (const auto& [keys, message] : std::vector<std::pair<std::string, std::string>>{
           {R"("metric": "tardiness")", "job_list[0]: 'metric' tardiness needs 'deadline'"},
           {R"("metric": "speed")", "job_list[0]: 'metric': unknown metric 'speed'"},
           {R"("min_slots": 4, "max_slots": 3)", "job_list[0]: 'min_slots' 4 is above 'max_slots' 3"},
           {R"("min_slots": 1.5)", "job_list[0]: 'min_slots' must be a whole number"},
           {R"("sla": "60:1,30:2")", "job_list[0]: 'sla': SLA pseudo-deadlines must increase"},
           {R"("deadline": "soon")", "job_list[0]: 'deadline' must be a duration"},
           {R"("deadline_seconds": 5)", "job_list[0]: 'deadline_seconds' is now 'deadline'"}}) {
    Status st = with(keys).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << keys;
    EXPECT_NE(st.message().find(message), std::string::npos) << keys << ": " << st.ToString();
  }
}

// --placement in the simulator: one job of four 1-s maps on workers of speed 1 and 3 (one
// map slot each). Pull: the fast worker takes m1, m2, m3 at 1/3, 2/3, 1 while the slow one
// runs m0 until 1: the last map ends (the sojourn) at 1. Even: two maps per worker at
// arrival, so the slow worker's second map ends at 2 and the sojourn is 2.
TEST(TaskSimCommandTest, PlacementDecidesWhereMapsRun) {
  TempDir dir("tasksim-cli");
  const std::string path = JoinPath(dir.path(), "four.json");
  ASSERT_TRUE(WriteFileAtomically(path, R"({"job_list": [{"arrival": 0, "maps": 4, "map_bytes": 0,
      "reducers": 1, "hint_map_seconds": 4, "hint_shuffle_bytes": 0, "map_durations": [1, 1, 1, 1],
      "reduce_durations": [0]}]})")
                  .ok());
  TaskSimOptions o;
  o.workload = path;
  o.policy = "fifo";
  o.cluster.workers = 2;
  o.cluster.shuffle_bandwidth = 1e6;
  o.cluster.speeds = {1, 3};
  std::ostringstream pull;
  Status st = RunTaskSimCommand(o, pull);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Row(pull.str(), 0).at(6), "1") << pull.str();
  EXPECT_NE(pull.str().find(" placement=pull mean_sojourn=1\n"), std::string::npos) << pull.str();
  o.placement.mode = sched::PlacementMode::kEven;
  std::ostringstream even;
  ASSERT_TRUE(RunTaskSimCommand(o, even).ok());
  EXPECT_EQ(Row(even.str(), 0).at(6), "2") << even.str();
  EXPECT_NE(even.str().find(" placement=even mean_sojourn=2\n"), std::string::npos) << even.str();
  EXPECT_EQ(even.str().find("# worker="), std::string::npos);
  // Per worker, by hand. even: two maps each; worker 1 (speed 1) ends them at 1 and 2 (busy 2,
  // responses 1 + 2), worker 2 (speed 3) at 1/3 and 2/3 (busy 2/3, responses 1/3 + 2/3).
  o.per_worker = true;
  even.str("");
  ASSERT_TRUE(RunTaskSimCommand(o, even).ok());
  EXPECT_NE(even.str().find("\n# worker=1 speed=1 map_slots=1 maps=2 map_busy=2 map_response=3 mean_map_response=1.5\n"),
            std::string::npos)
      << even.str();
  EXPECT_NE(even.str().find("\n# worker=2 speed=3 map_slots=1 maps=2 map_busy=0.666667 map_response=1 "
                            "mean_map_response=0.5\n"),
            std::string::npos)
      << even.str();
  // pull: worker 1 takes one map (ends at 1), worker 2 the other three (1/3, 2/3, 1).
  o.placement.mode = sched::PlacementMode::kPull;
  pull.str("");
  ASSERT_TRUE(RunTaskSimCommand(o, pull).ok());
  EXPECT_NE(pull.str().find("\n# worker=1 speed=1 map_slots=1 maps=1 map_busy=1 map_response=1 mean_map_response=1\n"),
            std::string::npos)
      << pull.str();
  EXPECT_NE(pull.str().find("\n# worker=2 speed=3 map_slots=1 maps=3 map_busy=1 map_response=2 "
                            "mean_map_response=0.666667\n"),
            std::string::npos)
      << pull.str();
}

// Failures and backups are counted on a second '#' line, only when there were any
// (the first stays as it was, for the scripts that read it).
TEST(TaskSimCommandTest, FailureCountsLine) {
  TempDir dir("tasksim-cli");
  const std::string csv = JoinPath(dir.path(), "w.csv");
  ASSERT_TRUE(WriteFileAtomically(csv, "arrival,x,y\n0,1,1\n0.5,2,1\n").ok());
  TaskSimOptions o;
  o.workload = csv;
  o.policy = "fifo";
  o.cluster.workers = 2;
  o.cluster.shuffle_bandwidth = 1e6;
  o.shape.maps_per_job = 8;
  std::ostringstream plain;
  ASSERT_TRUE(RunTaskSimCommand(o, plain).ok());
  EXPECT_EQ(plain.str().find("# failed_jobs"), std::string::npos);
  o.cluster.failure_prob = 0.3;
  o.cluster.max_attempts = 100;
  std::ostringstream failing;
  ASSERT_TRUE(RunTaskSimCommand(o, failing).ok());
  EXPECT_NE(failing.str().find("# failed_jobs=0 failed_attempts="), std::string::npos)
      << failing.str();
}

}  // namespace
}  // namespace mr::model
