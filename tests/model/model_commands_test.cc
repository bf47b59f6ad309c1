// The work of `mr model tandem`, `gen` and `slowdown` called as a library: options struct in,
// text out, no argv (their flags: tests/cli/model_cli_test.cc).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/fluid/lower_bound.h"
#include "model/fluid/tandem_policy.h"
#include "model/fluid/tandem_sim.h"
#include "model/model_commands.h"

namespace mr::model {
namespace {

// Two jobs by hand: FIFO serves (1, 2) then (3, 1); the CSV rows and the summary line carry
// the simulator's completions and the lower bound's mean.
TEST(ModelCommandsTest, TandemPrintsEachJobAndTheRatioToTheBound) {
  TempDir dir("model-commands");
  TandemOptions o;
  o.workload = JoinPath(dir.path(), "w.csv");
  o.policy = "fifo";
  ASSERT_TRUE(WriteFileAtomically(o.workload, "arrival,x,y\n0,1,2\n0.5,3,1\n").ok());
  std::ostringstream out;
  Status st = RunTandemCommand(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto jobs = LoadWorkload(o.workload);
  ASSERT_TRUE(jobs.ok());
  auto policy = MakeTandemPolicy("fifo");
  ASSERT_TRUE(policy.ok());
  auto sim = SimulateTandem(*jobs, **policy);
  auto lb = TandemLowerBound(*jobs);
  ASSERT_TRUE(sim.ok() && lb.ok());
  char want[512];
  std::snprintf(want, sizeof want,
                "job,arrival,x,y,completion,response\n0,0,1,2,%.6g,%.6g\n1,0.5,3,1,%.6g,%.6g\n"
                "# policy=fifo jobs=2 mean_response=%.6g lower_bound_mean=%.6g ratio=%.4f\n",
                sim->completion[0], sim->response[0], sim->completion[1], sim->response[1], sim->mean_response,
                lb->mean_response, sim->mean_response / lb->mean_response);
  EXPECT_EQ(out.str(), want);

  o.policy = "lifo";
  EXPECT_EQ(RunTandemCommand(o, out).code(), StatusCode::kNotFound);
}

// A task-level JSON workload needs the cluster its sizes are for, and a sane one.
TEST(ModelCommandsTest, TandemJsonWorkloadNeedsACluster) {
  TempDir dir("model-commands");
  TandemOptions o;
  o.workload = JoinPath(dir.path(), "w.json");
  o.policy = "maxsrpt";
  ASSERT_TRUE(WriteFileAtomically(o.workload, R"({"job_list": [{"arrival": 0, "maps": 3, "map_bytes": 1e6,
      "reducers": 3, "hint_map_seconds": 6, "hint_shuffle_bytes": 3e6}]})")
                  .ok());
  std::ostringstream out;
  Status st = RunTandemCommand(o, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("is a task-level workload"), std::string::npos) << st.message();
  ClusterSpec cluster;
  cluster.workers = 3;
  cluster.map_slots = 1;
  cluster.shuffle_bandwidth = 1e6;
  o.cluster = cluster;
  st = RunTandemCommand(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_NE(out.str().find("\n# policy=maxsrpt jobs=1 "), std::string::npos) << out.str();
  o.cluster->shuffle_bandwidth = 0;
  EXPECT_EQ(RunTandemCommand(o, out).code(), StatusCode::kInvalidArgument);
}

TEST(ModelCommandsTest, GenWritesWhatItSays) {
  TempDir dir("model-commands");
  GenOptions o;
  o.workload.jobs = 50;
  o.workload.load = 0.4;
  o.workload.seed = 3;
  o.kind = "lognormal";
  o.out = JoinPath(dir.path(), "w.csv");
  std::ostringstream out;
  ASSERT_TRUE(RunGenCommand(o, out).ok());
  auto written = LoadWorkload(o.out);
  ASSERT_TRUE(written.ok());
  auto want = GenerateByKind("lognormal", o.workload);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(written->size(), 50u);
  EXPECT_EQ(out.str(), "wrote " + o.out + ": " + FormatStats(ComputeStats(*want)) + "\n");
  for (size_t i = 0; i < want->size(); ++i) {
    EXPECT_NEAR((*written)[i].x, (*want)[i].x, 1e-5 * (*want)[i].x) << i;  // the CSV's precision
  }
  o.kind = "zipf";
  EXPECT_EQ(RunGenCommand(o, out).code(), StatusCode::kInvalidArgument);
  o.kind = "google";
  o.out = JoinPath(dir.path(), "no-such-dir/w.csv");
  EXPECT_FALSE(RunGenCommand(o, out).ok());
}

TEST(ModelCommandsTest, SlowdownChecksItsOptions) {
  SlowdownOptions o;
  o.jobs = 300;
  o.buckets = 4;
  o.lists.policies = {"fifo", "ps"};
  std::ostringstream out;
  ASSERT_TRUE(RunSlowdownCommand(o, out).ok());
  EXPECT_NE(out.str().find("\nsize_lo,size_hi,jobs,fifo,ps\n"), std::string::npos) << out.str();
  SlowdownOptions bad = o;
  bad.buckets = 0;
  EXPECT_EQ(RunSlowdownCommand(bad, out).code(), StatusCode::kInvalidArgument);
  bad = o;
  bad.jobs = 0;
  EXPECT_EQ(RunSlowdownCommand(bad, out).code(), StatusCode::kInvalidArgument);
  bad = o;
  bad.load = 0;
  EXPECT_EQ(RunSlowdownCommand(bad, out).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::model
