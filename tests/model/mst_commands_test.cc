// The work of `mr model mst` and `mr model mst-optimal`: the report's rows, CSV sweeps
// (their flags and exit codes: tests/cli/model_cli_test.cc).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "model/mst_commands.h"

namespace mr::model {
namespace {

// mu = {1, 1, 2, 4}, lambda = 3: S-EP (Eq. 23) gives {-1/4, -1/4, 3/4, 11/4}, MST H_4 / (5/4) =
// 5/3 and Lemma 10's bounds 4/5 and 16/5, as worked in mst_placement_test.cc; fair is refused
// at lambda = 4.5 (4.5/4 >= 1) but not the rest. The variants: sep-clamp with the idle nodes
// dropped is {0, 0, 0.5, 2.5} with MST H_2 / 1.5 = 1.
TEST(MstCommandsTest, ReportRows) {
  MstReportOptions o;
  o.mu = {1, 1, 2, 4};
  o.lambdas = {3, 4.5};
  o.placements = {Placement::kFair, Placement::kSep};
  o.csv = true;
  std::ostringstream out;
  Status st = RunMstReport(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string s = out.str();
  EXPECT_NE(s.find("every node in the max\n"), std::string::npos) << s;
  EXPECT_NE(s.find("lambda,placement,mst,method,working_nodes,min_rate,max_rate,rates,lemma10_lower,lemma10_upper\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("\n3,sep,1.666666667,exact,2,-0.25,2.75,-0.25;-0.25;0.75;2.75,0.8,3.2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\n3,fair,"), std::string::npos) << s;
  EXPECT_NE(s.find("\n4.5,fair,,,,,,,,\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\n4.5,sep,"), std::string::npos) << s;
  o.csv = false;
  out.str("");
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find("fair placement overloads the slowest node"), std::string::npos) << out.str();

  o.placements = {Placement::kSepClamp};
  o.idle = IdleNodes::kDrop;
  o.lambdas = {3};
  o.csv = true;
  out.str("");
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find("nodes without work left out of the max\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\n3,sep-clamp,1,exact,2,0,2.5,0;0;0.5;2.5,"), std::string::npos) << out.str();
}

// opt-idle's MST leaves an idle group out of the max, so its Lemma 10 bounds are over the
// nodes with work too: mu = (0.5, 0.5, 2, 2), lambda = 0.5: the fast pair at 0.25 each, spare
// 1.75, MST H_2 / 1.75 = 6/7 between 1/1.75 = 4/7 and 8/7 (with the idle nodes counted the
// lower bound would be 2, above the MST).
TEST(MstCommandsTest, OptIdleBoundsOverTheNodesWithWork) {
  MstReportOptions o;
  o.mu = {0.5, 0.5, 2, 2};
  o.lambdas = {0.5};
  o.placements = {};
  o.optimum_idle = true;
  o.csv = true;
  std::ostringstream out;
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find("\n0.5,opt-idle,0.857142"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(",0.5714285714,1.142857143\n"), std::string::npos) << out.str();
}

// G/M/1 nodes (Lemma 7): Erlang-2 arrivals on mu = {2, 25/6} at lambda = 3.75 balance at the
// common response rate 3/2 with lambda = {3/4, 3} (gm1_test.cc works it): MST = H_2 / 1.5 = 1.
TEST(MstCommandsTest, GM1Row) {
  MstReportOptions o;
  o.mu = {2, 25.0 / 6};
  o.lambdas = {3.75};
  o.placements = {};
  o.gm1 = true;
  o.arrivals = *ParseArrivalLaw("erlang:2");
  o.csv = true;
  std::ostringstream out;
  ASSERT_TRUE(RunMstReport(o, out).ok());
  EXPECT_NE(out.str().find("\n3.75,gm1,1,exact,2,0.75,3,"), std::string::npos) << out.str();
  o.mep.d = 1;  // G/M/1 nodes have no offset
  EXPECT_FALSE(RunMstReport(o, out).ok());
}

TEST(MstCommandsTest, MethodsAgreeAndManyNodesUseQuadrature) {
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

// mst-optimal's work: with mu = 2 and lambda = 10, the knee OptimalMapperCount finds, in
// words, or as the curve from the first stable n = floor(10/2) + 1 = 6 with the knee marked;
// with node types, one row per budget, empty counts where no node is affordable.
TEST(MstCommandsTest, OptimalKneeAndMix) {
  MstOptimalOptions o;
  o.lambdas = {10};
  o.mu = 2;
  std::ostringstream text;
  ASSERT_TRUE(RunMstOptimalCommand(o, text).ok());
  Result<KneeResult> knee = OptimalMapperCount(2, 10);
  ASSERT_TRUE(knee.ok());
  char want[160];
  std::snprintf(want, sizeof want, "lambda 10, mu 2: knee at n = %d mappers, MST = %.6g (searched n = 6..%d)\n",
                knee->n, knee->mst, knee->searched);
  EXPECT_EQ(text.str(), want);
  o.csv = true;
  std::ostringstream csv;
  ASSERT_TRUE(RunMstOptimalCommand(o, csv).ok());
  EXPECT_EQ(csv.str().rfind("lambda,n,mst,knee\n10,6,", 0), 0u) << csv.str();
  EXPECT_NE(csv.str().find("\n10," + std::to_string(knee->n) + ","), std::string::npos) << csv.str();
  EXPECT_NE(csv.str().find(",1\n"), std::string::npos) << csv.str();

  MstOptimalOptions mix;
  mix.lambdas = {1};
  mix.types = {{"lp", 1, 400}, {"hp", 1.25, 800}};
  mix.budgets = {100, 4000};
  std::ostringstream m;
  ASSERT_TRUE(RunMstOptimalCommand(mix, m).ok());
  EXPECT_EQ(m.str().rfind("lambda,budget,lp,hp,nodes,cost,mst\n1,100,,,0,,\n1,4000,", 0), 0u) << m.str();
  mix.lambdas = {-1};
  EXPECT_EQ(RunMstOptimalCommand(mix, m).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::model
