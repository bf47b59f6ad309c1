// The planner (batch_plan.h): the jobs file, the plan on the paper's examples, the plan file
// and its cluster check.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/file_util.h"
#include "model/makespan/batch_jobs_file.h"
#include "model/makespan/batch_plan.h"
#include "model/makespan/batch_sweep.h"

namespace mr::model {
namespace {

// The two-job example as one map and one reduce each on one slot of each kind: a stage is one
// task, so ARIA's bounds are the task itself (low d/1, up 0 + d) and the plan's stages are
// exactly (20, 2) and (2, 20).
constexpr const char* kTwoJobs = R"({"jobs": [
  {"name": "J1", "maps": 1, "map_seconds": 20, "reduces": 1, "reduce_seconds": 2},
  {"name": "J2", "map_durations": [2], "reduce_durations": [20]}]})";

// Scenario 2 of the paper (section 3.3), the third job given by its profile: 20 equal maps of
// 30 s and 20 reduces of 4 s.
constexpr const char* kScenarioTwo = R"({"jobs": [
  {"name": "J1", "maps": 30, "map_seconds": 4, "reduces": 30, "reduce_seconds": 5},
  {"name": "J2", "maps": 30, "map_seconds": 1, "reduces": 30, "reduce_seconds": 4},
  {"name": "J3", "profile": {"maps": 20, "reduces": 20, "map": {"avg": 30, "max": 30},
                             "reduce": {"avg": 4, "max": 4}}},
  {"name": "J4", "maps": 20, "map_seconds": 6, "reduces": 20, "reduce_seconds": 30},
  {"name": "J5", "maps": 30, "map_seconds": 2, "reduces": 30, "reduce_seconds": 3}]})";

std::vector<BatchJob> Parse(const char* text) {
  Result<std::vector<BatchJob>> jobs = ParseBatchJobs(text, "jobs.json");
  EXPECT_TRUE(jobs.ok()) << jobs.status().ToString();
  return jobs.ok() ? *jobs : std::vector<BatchJob>{};
}

std::string Error(const char* text) { return ParseBatchJobs(text, "jobs.json").status().message(); }

TEST(BatchJobsFileTest, ThreeForms) {
  std::vector<BatchJob> jobs = Parse(kScenarioTwo);
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs[0].map_durations, std::vector<double>(30, 4));
  EXPECT_EQ(jobs[2].name, "J3");
  ASSERT_TRUE(jobs[2].profile.has_value());
  EXPECT_EQ(jobs[2].map_durations, std::vector<double>(20, 30));
  jobs = Parse(R"({"jobs": [{"maps": 2, "map_seconds": 1}, {"map_durations": [1, 2], "reduces": 0}]})");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].name, "J1");  // by position
  EXPECT_EQ(jobs[1].name, "J2");
  EXPECT_TRUE(jobs[0].reduce_durations.empty());  // map-only
  // Written back and read again: the same tasks.
  std::vector<BatchJob> again = Parse(BatchJobsToJson(Parse(kScenarioTwo)).c_str());
  ASSERT_EQ(again.size(), 5u);
  EXPECT_EQ(again[3].reduce_durations, std::vector<double>(20, 30));
  EXPECT_TRUE(again[2].profile.has_value());
}

TEST(BatchJobsFileTest, OneLineErrors) {
  EXPECT_EQ(Error("{"), "jobs.json: not valid JSON");
  EXPECT_EQ(Error("[]"), "jobs.json: expected a JSON object with a \"jobs\" list");
  EXPECT_EQ(Error(R"({"jobs": []})"), "jobs.json: the \"jobs\" list is empty");
  EXPECT_EQ(Error(R"({"jobs": [{"name": "a", "map": 3}]})"),
            "jobs.json: job 1 (a): unknown key 'map' (known: name, maps, map_seconds, reduces, reduce_seconds, "
            "map_durations, reduce_durations, profile)");
  EXPECT_EQ(Error(R"({"jobs": [{"maps": 0, "map_seconds": 1}]})"),
            "jobs.json: job 1: 'maps' must be an integer in 1..10000000");
  EXPECT_EQ(Error(R"({"jobs": [{"maps": 2}]})"), "jobs.json: job 1: 'map_seconds' must be a number");
  EXPECT_EQ(Error(R"({"jobs": [{"maps": 2, "map_seconds": 1, "reduces": 2}]})"),
            "jobs.json: job 1: 'reduce_seconds' must be a number");
  EXPECT_EQ(Error(R"({"jobs": [{"maps": 2, "map_seconds": -1}]})"), "jobs.json: job 1: 'map_seconds' must be >= 0");
  EXPECT_EQ(Error(R"({"jobs": [{"maps": 1, "map_seconds": 1, "map_durations": [1]}]})"),
            "jobs.json: job 1: give 'map_durations' or 'maps' and 'map_seconds', not both");
  EXPECT_EQ(Error(R"({"jobs": [{"map_durations": [1, "x"]}]})"),
            "jobs.json: job 1: 'map_durations' must hold only numbers >= 0");
  EXPECT_EQ(Error(R"({"jobs": [{"name": "a", "maps": 1, "map_seconds": 1}, {"name": "a", "maps": 1,
                               "map_seconds": 1}]})"),
            "jobs.json: job 2 (a): the name 'a' is used twice");
  EXPECT_EQ(Error(R"({"jobs": [{"profile": {"maps": 1, "reduces": 0, "map": {"avg": 1, "max": 1}}, "maps": 2}]})"),
            "jobs.json: job 1: a job given by its profile has no other key but its name");
  EXPECT_EQ(Error(R"({"jobs": [{"profile": {"maps": 1, "reduces": 0}}]})"),
            "jobs.json: job 1: profile: 'map' must be an object {\"avg\": S, \"max\": S}");
  EXPECT_EQ(LoadBatchJobs("no-such-jobs.json").status().code(), StatusCode::kNotFound);
}

TEST(BatchPlanTest, TwoJobExample) {
  Result<BatchPlan> plan = MakeBatchPlan(Parse(kTwoJobs), {1, 1, 1});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_DOUBLE_EQ(plan->jobs[0].map_stage, 20);
  EXPECT_DOUBLE_EQ(plan->jobs[0].reduce_stage, 2);
  // Johnson: J2 then J1, 2 + 20 + 2 = 24 in both the abstraction and the simulation; reverse
  // and FIFO (J1 then J2): 20 + 2 + 20 = 42.
  EXPECT_EQ(plan->johnson.order, (std::vector<int>{1, 0}));
  EXPECT_DOUBLE_EQ(plan->johnson.makespan, 24);
  EXPECT_DOUBLE_EQ(plan->johnson.two_stage, 24);
  EXPECT_DOUBLE_EQ(plan->reverse_johnson.makespan, 42);
  EXPECT_DOUBLE_EQ(plan->fifo.makespan, 42);
  EXPECT_DOUBLE_EQ(plan->fifo.two_stage, 42);
  // One slot of each kind cannot be split: one pool, Johnson's 24.
  ASSERT_EQ(plan->pools.size(), 1u);
  EXPECT_EQ(plan->pool_names[0], "all");
  EXPECT_DOUBLE_EQ(plan->predicted_makespan, 24);
  std::ostringstream out;
  PrintBatchPlan(*plan, out);
  EXPECT_NE(out.str().find("johnson                24.000       24.000  J2 J1"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("reverse-johnson        42.000       42.000  J1 J2"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("johnson 42.9% below reverse johnson"), std::string::npos) << out.str();
}

TEST(BatchPlanTest, ScenarioTwoAndItsPlanFile) {
  Result<BatchPlan> plan = MakeBatchPlan(Parse(kScenarioTwo), {30, 30, 30});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // As the paper: Johnson's order J2, J5, J1, J4, J3 takes 47; BalancedPools 40 with J4, J3
  // on 20 + 20 slots and J2, J5, J1 on 10 + 10.
  EXPECT_EQ(plan->johnson.order, (std::vector<int>{1, 4, 0, 3, 2}));
  EXPECT_DOUBLE_EQ(plan->johnson.makespan, 47);
  EXPECT_DOUBLE_EQ(plan->predicted_makespan, 40);
  ASSERT_EQ(plan->pools.size(), 2u);
  EXPECT_EQ(plan->pool_names, (std::vector<std::string>{"small", "large"}));
  EXPECT_EQ(plan->jobs[2].pool, 0);
  EXPECT_EQ(plan->jobs[0].pool, 1);

  Result<BatchPlan> back = ParseBatchPlan(BatchPlanToJson(*plan), "plan.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->cluster, (BatchCluster{30, 30, 30}));
  ASSERT_EQ(back->jobs.size(), 5u);
  EXPECT_EQ(back->jobs[3].name, "J4");
  EXPECT_EQ(back->jobs[3].maps, 20);
  EXPECT_DOUBLE_EQ(back->jobs[3].reduce_seconds, 30);
  EXPECT_EQ(back->johnson.order, plan->johnson.order);
  EXPECT_EQ(back->reverse_johnson.order, plan->reverse_johnson.order);
  EXPECT_DOUBLE_EQ(back->reverse_johnson.makespan, plan->reverse_johnson.makespan);
  ASSERT_EQ(back->pools.size(), 2u);
  EXPECT_EQ(back->pools[0].order, (std::vector<int>{3, 2}));
  EXPECT_EQ(back->pools[1].slots.reduce_slots, 10);
  EXPECT_EQ(back->jobs[1].pool, 1);
  EXPECT_DOUBLE_EQ(back->predicted_makespan, 40);
  EXPECT_EQ(back->split, 2);

  EXPECT_TRUE(CheckPlanCluster(*back, {30, 30, 30}, "plan.json").ok());
  EXPECT_EQ(CheckPlanCluster(*back, {4, 8, 8}, "plan.json").message(),
            "plan.json: computed for 30 workers, 30 map and 30 reduce slots; this cluster has 4 workers, 8 map and "
            "8 reduce slots");
}

TEST(BatchPlanTest, PlanFileErrors) {
  Result<BatchPlan> plan = MakeBatchPlan(Parse(kScenarioTwo), {30, 30, 30});
  ASSERT_TRUE(plan.ok());
  const std::string good = BatchPlanToJson(*plan);
  auto error = [](std::string text) { return ParseBatchPlan(text, "p.json").status().message(); };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_EQ(error("{"), "p.json: not valid JSON");
  EXPECT_EQ(error(R"({"jobs": []})"), "p.json: not a batch plan (no \"format\": \"mrlab batch plan\")");
  EXPECT_EQ(error(replaced("\"version\": 1", "\"version\": 2")), "p.json: plan version 2 is not 1");
  EXPECT_EQ(error(replaced("\"workers\": 30", "\"workers\": 0")),
            "p.json: cluster: 'workers' must be an integer in 1..100000000");
  EXPECT_EQ(error(replaced("\"map_slots\": 20", "\"map_slots\": 25")),
            "p.json: balancedpools: the pools have more slots than the cluster");
  // J3 dropped from the small pool's order: then in no pool.
  EXPECT_EQ(error(replaced("\"J4\",\n     \"J3\"", "\"J4\"")), "p.json: balancedpools: job 'J3' is in 0 pools, not one");
  EXPECT_EQ(error(replaced("\"J4\",\n     \"J3\"", "\"J4\", \"J9\"")),
            "p.json: balancedpools: pool 1: 'order' names a job the plan does not list: \"J9\"");
}

TEST(BatchPlanTest, RunWritesThePlan) {
  {
    std::ofstream f("jobs.json");
    f << kScenarioTwo;
  }
  BatchPlanOptions o;
  o.jobs_file = "jobs.json";
  o.cluster = {30, 30, 30};
  o.out = "plan.json";
  std::ostringstream out;
  Status st = RunBatchPlan(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_NE(out.str().find("# batch plan: 5 jobs on 30 workers, 30 map and 30 reduce slots"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("  pool small     20 map +    20 reduce slots, makespan     40.000 s, order J4 J3"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("predicted makespan 40.000 s (balancedpools): 14.9% below johnson's"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("wrote plan.json"), std::string::npos);
  Result<std::string> text = ReadFileToString("plan.json");
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(ParseBatchPlan(*text, "plan.json").ok());
  std::remove("plan.json");
  std::remove("jobs.json");
  o.jobs_file = "missing.json";
  std::ostringstream none;
  EXPECT_EQ(RunBatchPlan(o, none).code(), StatusCode::kNotFound);
}

TEST(BatchPlanTest, AGivenOrder) {
  const std::vector<BatchJob> jobs = Parse(kTwoJobs);
  Result<PlannedOrder> given = PlanGivenOrder(jobs, {1, 1, 1}, std::vector<std::string>{"J1", "J2"});
  ASSERT_TRUE(given.ok()) << given.status().ToString();
  EXPECT_DOUBLE_EQ(given->makespan, 42);  // J1 first: 20 + 2 + 20
  EXPECT_DOUBLE_EQ(given->two_stage, 42);
  EXPECT_EQ(PlanGivenOrder(jobs, {1, 1, 1}, std::vector<std::string>{"J1"}).status().message(),
            "--order: job 'J2' is missing");
  EXPECT_EQ(PlanGivenOrder(jobs, {1, 1, 1}, std::vector<std::string>{"J1", "J1"}).status().message(),
            "--order: job 'J1' given twice");
  EXPECT_EQ(PlanGivenOrder(jobs, {1, 1, 1}, std::vector<std::string>{"J1", "J3"}).status().message(),
            "--order: no job 'J3' in the batch");
}

TEST(BatchSweepTest, TwoJobExampleOnOneNode) {
  // One node of one map and one reduce slot: each stage is one task, so the abstraction and
  // the simulation agree: Johnson 24 (Min, MinSim), reverse 42 (Max, MaxSim), and one slot
  // of each kind cannot be split (BalancedPools = Johnson).
  Result<std::vector<SweepRow>> rows = SweepBatch(Parse(kTwoJobs), std::vector<int>{1});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_DOUBLE_EQ((*rows)[0].min, 24);
  EXPECT_DOUBLE_EQ((*rows)[0].minsim, 24);
  EXPECT_DOUBLE_EQ((*rows)[0].max, 42);
  EXPECT_DOUBLE_EQ((*rows)[0].maxsim, 42);
  EXPECT_DOUBLE_EQ((*rows)[0].balancedpools, 24);
  EXPECT_EQ((*rows)[0].split, 0);
  EXPECT_FALSE(SweepBatch(Parse(kTwoJobs), std::vector<int>{0}).ok());
  EXPECT_FALSE(SweepBatch(Parse(kTwoJobs), std::vector<int>{}).ok());
}

TEST(BatchSweepTest, ScenarioTwoOnThirtyNodes) {
  // Scenario 2 at 30 nodes: MinSim is Johnson's 47 and BalancedPools the paper's 40.
  Result<std::vector<SweepRow>> rows = SweepBatch(Parse(kScenarioTwo), std::vector<int>{30});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_DOUBLE_EQ((*rows)[0].minsim, 47);
  EXPECT_DOUBLE_EQ((*rows)[0].balancedpools, 40);
  EXPECT_EQ((*rows)[0].split, 2);
}

}  // namespace
}  // namespace mr::model
