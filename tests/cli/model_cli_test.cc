// `mr model ...` through the command table: each command's flags, their exit codes and file
// handling (the work's output is tested beside it, in tests/model; the tables by bench/sim/run.sh).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/flex/flex_sim.h"
#include "model/fluid/workload.h"
#include "model/mst/mst_placement.h"
#include "model/slotted/slotted_workload.h"
#include "scheduler/scheduler.h"
#include "tests/cli/run_mr.h"

namespace mr::cli {
namespace {

using model::LoadWorkload;

TEST(ModelCliTest, BadUsageReturnsTwo) {
  EXPECT_EQ(RunModel({}), 2);
  EXPECT_EQ(RunModel({"frobnicate"}), 2);
  EXPECT_EQ(RunModel({"gen", "--jobs", "10"}), 2);                 // missing --load/--out
  EXPECT_EQ(RunModel({"gen", "--jobs", "ten", "--load", "0.5", "--out", "x"}), 2);
  EXPECT_EQ(RunModel({"tandem", "--workload", "/nonexistent.csv", "--policy", "fifo"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--loads", "0.5,abc"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--bogus"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--jobs", "0"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--policies", "maxsrpt,lifo"}), 2);
  EXPECT_EQ(RunModel({"slowdown", "--buckets", "0"}), 2);
}

TEST(ModelCliTest, GenThenTandem) {
  TempDir dir("model-cli");
  std::string path = JoinPath(dir.path(), "w.csv");
  ASSERT_EQ(RunModel({"gen", "--jobs", "200", "--load", "0.4", "--seed", "3", "--out", path}), 0);
  auto jobs = LoadWorkload(path);
  ASSERT_TRUE(jobs.ok());
  EXPECT_EQ(jobs->size(), 200u);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "maxsrpt"}), 0);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "lifo"}), 2);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "klps", "--k", "0"}), 2);
}

TEST(ModelCliTest, TaskSimOnCsvAndBenchJson) {
  TempDir dir("model-cli");
  std::string csv = JoinPath(dir.path(), "w.csv");
  std::string json = JoinPath(dir.path(), "w.json");
  ASSERT_TRUE(WriteFileAtomically(csv, "arrival,x,y\n0,1,2\n0,3,1\n0.5,2,2\n").ok());
  ASSERT_TRUE(WriteFileAtomically(json, R"({"job_list": [{"arrival": 0, "maps": 3, "map_bytes": 1e6,
      "reducers": 3, "hint_map_seconds": 6, "hint_shuffle_bytes": 3e6}]})")
                  .ok());
  const std::vector<std::string> cluster = {"--workers",      "3", "--map-slots",         "1",
                                            "--reduce-slots", "2", "--shuffle-bandwidth", "20MB/s"};
  auto run = [&](std::vector<std::string> args, bool with_cluster = true) {
    args.insert(args.begin(), "tasksim");
    if (with_cluster) args.insert(args.end(), cluster.begin(), cluster.end());
    return RunModel(args);
  };
  for (const std::string& p : sched::KnownPolicies()) {
    EXPECT_EQ(run({"--workload", csv, "--policy", p, "--maps-per-job", "6"}), 0) << p;
    EXPECT_EQ(run({"--workload", json, "--policy", p, "--decision-latency", "0.02"}), 0) << p;
  }
  EXPECT_EQ(run({"--workload", csv, "--policy", "ps"}), 2);  // a fluid-only policy
  EXPECT_EQ(run({"--workload", json, "--policy", "fifo", "--maps-per-job", "4"}), 2);
  EXPECT_EQ(run({"--workload", "/nonexistent.csv", "--policy", "fifo"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--decision-latency", "-1"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--reducers", "0"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--maps-per-job", "x"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo"}, false), 2);  // no cluster flags
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--workers", "1", "--map-slots", "1",
                 "--reduce-slots", "1", "--shuffle-bandwidth", "0"},
                false),
            2);
}

TEST(ModelCliTest, SmallSweepRuns) {
  EXPECT_EQ(RunModel({"sweep", "--jobs", "300", "--loads", "0.3", "--csv"}), 0);
  EXPECT_EQ(RunModel({"slowdown", "--jobs", "500", "--buckets", "5"}), 0);
}

TEST(ModelCliTest, TandemOnAJsonWorkloadNeedsItsCluster) {
  TempDir dir("model-cli");
  const std::string json = JoinPath(dir.path(), "w.json");
  ASSERT_TRUE(WriteFileAtomically(json, R"({"job_list": [{"arrival": 0, "maps": 3, "map_bytes": 1e6,
      "reducers": 3, "hint_map_seconds": 6, "hint_shuffle_bytes": 3e6}]})")
                  .ok());
  EXPECT_EQ(RunModel({"tandem", "--workload", json, "--policy", "fifo"}), 2);  // no cluster
  EXPECT_EQ(RunModel({"tandem", "--workload", json, "--policy", "fifo", "--workers", "3", "--map-slots", "1",
                      "--shuffle-bandwidth", "20MB/s"}),
            0);
  EXPECT_EQ(RunModel({"tandem", "--workload", json, "--policy", "fifo", "--workers", "3", "--map-slots", "1",
                      "--shuffle-bandwidth", "fast"}),
            2);
  EXPECT_EQ(RunModel({"tandem", "--workload", json, "--policy", "fifo", "--workers", "0", "--map-slots", "1",
                      "--shuffle-bandwidth", "20MB/s"}),
            2);
}

TEST(ModelCliTest, GenToAMissingDirectoryIsBadInput) {
  EXPECT_EQ(RunModel({"gen", "--jobs", "10", "--load", "0.5", "--out", "/nonexistent-dir/w.csv"}), 2);
  EXPECT_EQ(RunModel({"gen", "--jobs", "10", "--load", "0.5", "--kind", "zipf", "--out", "/nonexistent-dir/w.csv"}),
            2);
}

// The exit codes of a group's own words: help is 0, a missing or unknown command is 2.
TEST(ModelCliTest, GroupWords) {
  EXPECT_EQ(RunModel({"help"}), 0);
  EXPECT_EQ(RunModel({"--help"}), 0);
  EXPECT_EQ(RunModel({"help", "sweep"}), 0);
  EXPECT_EQ(RunModel({"help", "nosuch"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--help"}), 0);
}

TEST(MstCliTest, ExitCodes) {
  EXPECT_EQ(RunModel({"mst", "--mu", "1,1,2,4", "--lambda", "3"}), 0);
  EXPECT_EQ(RunModel({"mst", "--mu", "2x1,2,4", "--lambda", "1:7:0.5", "--csv", "--d", "100"}), 0);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--variant", "gg1", "--cs2", "0.5,2", "--ca2", "0.8"}), 0);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,1,2", "--lambda", "2", "--d", "3", "--placement", "dep,opt,opt-idle"}), 0);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--placement", "opt", "--variant", "mg1"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "3"}), 2);             // overloaded
  EXPECT_EQ(RunModel({"mst", "--mu", "1,x", "--lambda", "1"}), 2);             // bad number
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--placement", "pull"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--variant", "mm1"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--d", "-1"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "3:1:1"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "1,2", "--lambda", "1", "--method", "fast"}), 2);
  EXPECT_EQ(RunModel({"mst", "--lambda", "1"}), 2);                            // no --mu
  // The paper's forms and the named variants (issue 31).
  EXPECT_EQ(RunModel({"mst", "--mu", "1,1,2,4", "--lambda", "3", "--placement", "sep,sep-clamp,dmep,dmep-clamp,mep-clamp",
                      "--idle-nodes", "drop"}),
            0);
  EXPECT_EQ(RunModel({"mst", "--mu", "2,3", "--lambda", "3", "--placement", "gm1,fair", "--arrivals", "erlang:2"}), 0);
  EXPECT_EQ(RunModel({"mst", "--mu", "2,3", "--lambda", "3", "--arrivals", "erlang:2", "--d", "1"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "2,3", "--lambda", "3", "--arrivals", "gamma"}), 2);
  EXPECT_EQ(RunModel({"mst", "--mu", "2,3", "--lambda", "3", "--idle-nodes", "some"}), 2);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "1", "--lambda", "2", "--model", "lemma12"}), 0);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "1", "--lambda", "2", "--model", "lemma12-printed", "--csv"}), 0);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "1", "--lambda", "2", "--model", "lemma9"}), 2);
  EXPECT_EQ(RunModel({"mst-optimal", "--types", "lp:1:400,hp:1.25:800", "--budget", "2000", "--lambda", "1",
                      "--budget-rule", "at-most"}),
            0);
  EXPECT_EQ(RunModel({"mst-optimal", "--types", "lp:1:400,hp:1.25:800", "--budget", "2000", "--lambda", "1",
                      "--budget-rule", "below"}),
            2);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "2", "--lambda", "10"}), 0);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "1", "--lambda", "1,2,5", "--csv"}), 0);
  EXPECT_EQ(RunModel({"mst-optimal", "--types", "lp:1:400,hp:1.25:800", "--budget", "2000:6000:2000",
                      "--lambda", "1,5"}), 0);
  EXPECT_EQ(RunModel({"mst-optimal", "--lambda", "1"}), 2);                    // neither mode
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "1", "--types", "a:1:1", "--budget", "3", "--lambda", "1"}), 2);
  EXPECT_EQ(RunModel({"mst-optimal", "--types", "a:1:1", "--lambda", "1"}), 2);  // no --budget
  EXPECT_EQ(RunModel({"mst-optimal", "--types", "a:1", "--budget", "3", "--lambda", "1"}), 2);
  EXPECT_EQ(RunModel({"mst-optimal", "--mu", "0", "--lambda", "1"}), 2);
}

TEST(SlottedCliTest, GenWritesThePapersWorkload) {
  TempDir dir("slotted-cli");
  const std::string path = JoinPath(dir.path(), "w.json");
  ASSERT_EQ(RunModel({"slotted-gen", "--workload", "u1-9-u10-70", "--slots", "30", "--seed", "4",
                      "--out", path}),
            0);
  auto jobs = model::LoadSlottedWorkload(path);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  model::SlottedGenOptions o;
  o.slots = 30;
  o.seed = 4;
  auto want = model::GenerateSlotted(*model::PaperWorkload("u1-9-u10-70", o));
  ASSERT_EQ(jobs->size(), want->size());
  for (size_t i = 0; i < jobs->size(); ++i) EXPECT_EQ((*jobs)[i].reduces, (*want)[i].reduces);
  const std::string custom = JoinPath(dir.path(), "c.json");
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:2:2", "--reduce", "exp:3", "--out", custom}), 0);
  auto c = model::LoadSlottedWorkload(custom);
  ASSERT_TRUE(c.ok());
  for (const model::SlottedJob& j : *c) EXPECT_EQ(j.maps, 2);
}

TEST(SlottedCliTest, BadUsageReturnsTwo) {
  TempDir dir("slotted-cli");
  const std::string out = JoinPath(dir.path(), "w.json");
  EXPECT_EQ(RunModel({"slotted-gen", "--out", out}), 2);  // neither --workload nor --map
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--map", "u:1:2", "--out", out}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:1:2", "--out", out}), 2);  // no --reduce
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp1-exp1", "--out", out}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:3:1", "--reduce", "exp:3", "--out", out}), 2);
  ASSERT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--slots", "5", "--out", out}), 0);
  EXPECT_EQ(RunModel({"slotted", "--workload", out}), 2);  // no --policy
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "lifo"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "fifo", "--machines", "0"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", "/nonexistent.json", "--policy", "fifo"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "fifo,fair", "--preemptive"}), 0);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "paper-fifo,paper-fair,asrpt", "--asrpt-virtual",
                      "present"}), 0);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "asrpt", "--asrpt-virtual", "never"}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--reduce-tasks", "all", "--out", out}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--reduce-tasks", "most", "--out", out}), 0);
}

TEST(TaskSimCliTest, ShapeFlags) {
  TempDir dir("tasksim-cli");
  const std::string csv = JoinPath(dir.path(), "w.csv");
  ASSERT_TRUE(WriteFileAtomically(csv, "arrival,x,y\n0,1,2\n0,3,1\n0.5,2,2\n").ok());
  auto run = [&](std::vector<std::string> extra, const char* map_slots = "1") {
    std::vector<std::string> args = {"--workload", csv,           "--policy",          "maxsrpt",
                                     "--workers",  "3",           "--map-slots",       map_slots,
                                     "--reduce-slots", "1",       "--shuffle-bandwidth", "20MB/s"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.begin(), "tasksim");
    return RunModel(args);
  };
  EXPECT_EQ(run({"--speeds", "1,1,0.5"}), 0);
  EXPECT_EQ(run({"--speeds", "1,0.5"}), 2);  // one per worker
  EXPECT_EQ(run({"--speeds", "1,x,1"}), 2);
  EXPECT_EQ(run({"--speeds", "1,0,1"}), 2);
  EXPECT_EQ(run({"--unified-slots", "2"}, "0"), 0);
  EXPECT_EQ(run({}, "0"), 2);  // no map-capable slot
  EXPECT_EQ(run({"--map-time", "exp:0.5,2", "--seed", "3"}), 0);
  EXPECT_EQ(run({"--map-time", "pareto:0.5,3"}), 0);
  EXPECT_EQ(run({"--map-time", "pareto:0.5,1"}), 2);
  EXPECT_EQ(run({"--map-time", "lognormal:0.3", "--map-time-cv", "0.3"}), 2);
  EXPECT_EQ(run({"--failure-prob", "0.2", "--max-attempts", "50"}), 0);
  EXPECT_EQ(run({"--failure-prob", "1"}), 2);
  EXPECT_EQ(run({"--failure-point", "0"}), 2);
  EXPECT_EQ(run({"--idle-rounds"}), 0);
}

// --placement reaches the simulator (its effect: tests/model/task_sim_command_test.cc); a bad
// mode names the flag.
TEST(TaskSimCliTest, PlacementFlag) {
  TempDir dir("tasksim-cli");
  const std::string path = JoinPath(dir.path(), "four.json");
  ASSERT_TRUE(WriteFileAtomically(path, R"({"job_list": [{"arrival": 0, "maps": 4, "map_bytes": 0,
      "reducers": 1, "hint_map_seconds": 4, "hint_shuffle_bytes": 0, "map_durations": [1, 1, 1, 1],
      "reduce_durations": [0]}]})")
                  .ok());
  const std::vector<std::string> base = {"tasksim", "--workload", path, "--policy", "fifo", "--workers", "2",
                                         "--map-slots", "1", "--reduce-slots", "1", "--shuffle-bandwidth", "1MB/s"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunModel(args);
  };
  EXPECT_EQ(with({"--speeds", "1,3", "--placement", "dep"}), 0);
  EXPECT_EQ(with({"--placement", "nearest"}), 2);
}

// predict's and mst-trace's flags (their work, on recorded runs: tests/experiment and
// tests/cluster).
TEST(TraceCommandsCliTest, FlagErrors) {
  TempDir dir("trace-cli");
  const std::string missing = JoinPath(dir.path(), "missing");
  EXPECT_EQ(RunModel({"mst-trace"}), 2);  // --trace is required
  EXPECT_EQ(RunModel({"mst-trace", "--trace", missing}), 2);
  EXPECT_EQ(RunModel({"mst-trace", "--trace", dir.path(), "--bogus"}), 2);
  auto predict = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"predict", "--trace", missing, "--policy", "fifo"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunModel(args);
  };
  EXPECT_EQ(predict({}), 2);                                                      // no cluster
  EXPECT_EQ(predict({"--workers", "1", "--map-slots", "1", "--reduce-slots", "1"}), 2);  // no bandwidth
  EXPECT_EQ(predict({"--cluster-from", "x.yaml", "--workers", "2"}), 2);
  EXPECT_EQ(predict({"--workers", "1", "--map-slots", "1", "--reduce-slots", "1", "--shuffle-bandwidth", "0"}), 2);
  EXPECT_EQ(predict({"--workers", "1", "--map-slots", "1", "--reduce-slots", "1", "--shuffle-bandwidth", "fast"}), 2);
  EXPECT_EQ(predict({"--workers", "1", "--map-slots", "1", "--reduce-slots", "1", "--shuffle-bandwidth", "1MB/s",
                     "--placement", "nearest"}),
            2);
  EXPECT_EQ(predict({"--workers", "1", "--map-slots", "1", "--reduce-slots", "1", "--shuffle-bandwidth", "1MB/s"}),
            2);  // the traces are missing: bad input
}

// `mr model flex`: each flag lands in FlexSimOptions (its output is RunFlexSim's for the same
// options, which tests/model/flex_sim_test.cc checks), and a bad value exits 2.
TEST(ModelFlexCliTest, FlagsFillTheSimulationsOptions) {
  model::FlexSimOptions o;
  o.workload.jobs = 5;
  o.workload.slots = 20;
  o.workload.small_share = 0.6;
  o.workload.slack = 0.5;
  o.workload.metric = flex::Metric::kWeightedTardyJobs;
  o.workload.seed = 7;
  o.workload.total_tasks = 400;
  o.workload.deadline_scale = 1.5;
  o.workload.sla_steps = 2;
  o.instances = 4;
  o.optimum = model::FlexOptimumMethod::kEnumeration;
  o.flex.swap_rounds = 1;
  o.flex.step_solver = flex::StepSolver::kPaperDp;
  o.csv = true;
  o.per_instance = true;
  std::ostringstream want;
  ASSERT_TRUE(model::RunFlexSim(o, want).ok());
  testing::internal::CaptureStdout();
  const int rc = RunModel({"flex", "--jobs", "5", "--slots", "20", "--small", "0.6", "--slack", "0.5", "--metric",
                           "weighted-tardy-jobs", "--seed", "7", "--tasks", "400", "--deadline-scale", "1.5",
                           "--sla-steps", "2", "--instances", "4", "--optimum", "enumeration", "--swap-rounds", "1",
                           "--step-solver", "paper-dp", "--csv", "--per-instance"});
  const std::string got = testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(got, want.str());
  // The defaults are the paper's base case: the same as FlexSimOptions{} (fewer instances).
  model::FlexSimOptions base;
  base.instances = 2;
  std::ostringstream base_want;
  ASSERT_TRUE(model::RunFlexSim(base, base_want).ok());
  testing::internal::CaptureStdout();
  EXPECT_EQ(RunModel({"flex", "--instances", "2"}), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), base_want.str());
}

TEST(ModelFlexCliTest, BadValuesExitTwo) {
  EXPECT_EQ(RunModel({"flex", "--metric", "speed"}), 2);
  EXPECT_EQ(RunModel({"flex", "--optimum", "guess"}), 2);
  EXPECT_EQ(RunModel({"flex", "--step-solver", "lp"}), 2);
  EXPECT_EQ(RunModel({"flex", "--jobs", "0"}), 2);
  EXPECT_EQ(RunModel({"flex", "--slack", "1.5"}), 2);
  EXPECT_EQ(RunModel({"flex", "--instances", "0"}), 2);
  EXPECT_EQ(RunModel({"flex", "--jobs", "11", "--optimum", "enumeration"}), 2);
  EXPECT_EQ(RunModel({"flex", "--bogus"}), 2);
}

}  // namespace
}  // namespace mr::cli
