// `mr model mst` and `mr model mst-optimal`: the report's rows, CSV sweeps, exit codes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "model/model_cli.h"
#include "model/mst_cli.h"

namespace mr::model {
namespace {

int RunModel(std::vector<std::string> args) {
  args.insert(args.begin(), "model");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return ModelMain(static_cast<int>(argv.size()), argv.data());
}

// mu = {1, 1, 2, 4}, lambda = 3: S-EP clamps to {0, 0, 0.5, 2.5} with MST H_2/1.5 = 1, as
// worked in mst_placement_test.cc; fair is refused at lambda = 4.5 (4.5/4 >= 1) but not the rest.
TEST(MstCliTest, ReportRows) {
  MstReportOptions o;
  o.mu = {1, 1, 2, 4};
  o.lambdas = {3, 4.5};
  o.placements = {Placement::kFair, Placement::kSep};
  o.csv = true;
  std::ostringstream out;
  Status st = RunMstReport(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string s = out.str();
  EXPECT_NE(s.find("lambda,placement,mst,method,working_nodes,min_rate,max_rate,rates\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\n3,sep,1,exact,2,0,2.5,0;0;0.5;2.5\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\n3,fair,"), std::string::npos) << s;
  EXPECT_NE(s.find("\n4.5,fair,,,,,,\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\n4.5,sep,"), std::string::npos) << s;
  o.csv = false;
  out.str("");
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find("fair placement overloads the slowest node"), std::string::npos) << out.str();
}

TEST(MstCliTest, MethodsAgreeAndManyNodesUseQuadrature) {
  MstReportOptions o;
  o.mu = std::vector<double>(30, 1.0);
  o.lambdas = {10};
  o.placements = {Placement::kDep};
  o.csv = true;
  std::ostringstream out;
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find(",numeric,30,"), std::string::npos) << out.str();
  o.method = "exact";
  EXPECT_FALSE(RunMstReport(o, out).ok());
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

}  // namespace
}  // namespace mr::model
