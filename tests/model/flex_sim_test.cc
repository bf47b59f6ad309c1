// The FLEX paper's simulation: its instances follow section 4.1, and the experiment's report.
#include "model/flex/flex_sim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/flex/flex_workload.h"

namespace mr::model {
namespace {

TEST(FlexSimTest, InstancesFollowTheMethodology) {
  FlexWorkloadOptions w;  // 10 jobs, 100 slots, 80% small, 75% slack, 3,000 tasks
  double minima = 0;
  double mode_ratio = 0;
  for (int i = 0; i < 200; ++i) {
    flex::FlexProblem p = MakeFlexInstance(w, i);
    ASSERT_EQ(p.jobs.size(), 10u);
    double work = 0;
    std::vector<double> sizes;
    for (const flex::FlexJob& j : p.jobs) {
      work += j.work;
      sizes.push_back(j.work);
      EXPECT_EQ(j.max_slots, std::min(100, static_cast<int>(std::ceil(j.work))));
      EXPECT_GE(j.min_slots, 1);
      EXPECT_LE(j.min_slots, j.max_slots);
      minima += j.min_slots;
      EXPECT_DOUBLE_EQ(j.terms.arrival, 0);
      EXPECT_GT(j.terms.weight, 0);
      EXPECT_LT(j.terms.weight, 1);
      ASSERT_TRUE(j.terms.deadline.has_value());
      EXPECT_LT(*j.terms.deadline, 30);  // uniform on (0, 3000 / 100)
      EXPECT_EQ(j.terms.sla.size(), 3u);
      EXPECT_TRUE(flex::CheckTerms(flex::Metric::kSla, j.terms).ok());
      EXPECT_DOUBLE_EQ(j.terms.alone, j.work / j.max_slots);
    }
    EXPECT_NEAR(work, 3000, 1e-6);
    // Two large jobs (mean 10x the small mean): the two largest against the eight others.
    std::sort(sizes.begin(), sizes.end());
    mode_ratio += (sizes[8] + sizes[9]) / 2 / ((work - sizes[8] - sizes[9]) / 8) / 200;
  }
  EXPECT_GT(mode_ratio, 9);
  EXPECT_LT(mode_ratio, 12);
  // Mean minimum (1 - 0.75) * 100 / 10 = 2.5, so about 25% of the slots: slack near 75%.
  EXPECT_NEAR(minima / 200 / 100, 0.25, 0.03);
  // Same (seed, index): same instance.
  EXPECT_DOUBLE_EQ(MakeFlexInstance(w, 7).jobs[3].work, MakeFlexInstance(w, 7).jobs[3].work);
  EXPECT_NE(MakeFlexInstance(w, 7).jobs[3].work, MakeFlexInstance(w, 8).jobs[3].work);
}

TEST(FlexSimTest, FlexIsCloseToTheOptimumAndReportsIt) {
  FlexSimOptions o;
  o.instances = 5;
  auto r = SimulateFlex(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->schemes.size(), 3u);
  EXPECT_EQ(r->counted, 5);
  for (const FlexSchemeStats& s : r->schemes) EXPECT_GE(s.worst_ratio, s.mean_ratio);
  EXPECT_GE(r->schemes[2].mean_ratio, 1 - 1e-12);  // flex packs an order: never below it
  EXPECT_LT(r->schemes[2].mean_ratio, 1.01);
  EXPECT_GT(r->schemes[1].mean_ratio, 1.2);  // fair, far from it at 75% slack

  std::ostringstream out;
  o.csv = true;
  o.per_instance = true;
  ASSERT_TRUE(RunFlexSim(o, out).ok());
  std::string text = out.str();
  EXPECT_EQ(text.rfind("# flex model: 10 jobs, 100 slots, 5 instances", 0), 0u) << text;
  EXPECT_NE(text.find("scheme,mean_ratio,worst_ratio,mean_value,counted\nfifo,"),
            std::string::npos);
  EXPECT_NE(text.find("instance,optimum,fifo,fair,flex,flex_order,search_nodes\n0,"),
            std::string::npos);
}

TEST(FlexSimTest, BadOptionsAreOneLineErrors) {
  FlexSimOptions o;
  o.workload.slack = 1.5;
  EXPECT_EQ(SimulateFlex(o).status().message(), "flex model: --slack must be in [0, 1]");
  o = {};
  o.workload.jobs = 11;
  o.optimum = FlexOptimumMethod::kEnumeration;
  EXPECT_FALSE(SimulateFlex(o).ok());
  o.optimum = FlexOptimumMethod::kNone;
  o.instances = 1;
  EXPECT_TRUE(SimulateFlex(o).ok());
}

}  // namespace
}  // namespace mr::model
