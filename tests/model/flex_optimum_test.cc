// The optimum search over priority orders against plain enumeration of every order.
#include "model/flex/flex_optimum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/flex/flex_workload.h"
#include "scheduler/flex/allocator.h"
#include "scheduler/flex/mps.h"

namespace mr::model {
namespace {

TEST(FlexOptimumTest, SearchEqualsEnumerationOnSmallInstances) {
  for (const flex::MetricInfo& info : flex::MetricTable()) {
    FlexWorkloadOptions w;
    w.metric = info.metric;
    w.slots = 20;
    w.total_tasks = 120;
    for (int jobs = 1; jobs <= 7; ++jobs) {
      w.jobs = jobs;
      w.slack = jobs % 2 ? 0.75 : 0.35;
      w.seed = 100 + jobs;
      for (int i = 0; i < 3; ++i) {
        flex::FlexProblem p = MakeFlexInstance(w, i);
        auto all = OptimumByEnumeration(p);
        auto flex = flex::Allocate(p);
        ASSERT_TRUE(all.ok() && flex.ok());
        auto cold = OptimumBySearch(p);
        auto seeded = OptimumBySearch(p, flex->order);
        ASSERT_TRUE(cold.ok() && seeded.ok());
        const double tol = 1e-9 * (1 + std::abs(all->value));
        SCOPED_TRACE(std::string(info.name) + " jobs " + std::to_string(jobs));
        EXPECT_NEAR(cold->value, all->value, tol);
        EXPECT_NEAR(seeded->value, all->value, tol);
        EXPECT_GE(flex->predicted, all->value - tol);  // FLEX packs some order too
        // The order the search reports reaches its value when packed.
        std::vector<flex::PackJob> pack;
        std::vector<flex::Metric> metrics;
        std::vector<flex::JobTerms> terms;
        for (const flex::FlexJob& j : p.jobs) {
          pack.push_back({j.work, j.min_slots, j.max_slots});
          metrics.push_back(j.metric);
          terms.push_back(j.terms);
        }
        auto s = flex::PackMalleable(p.slots, p.now, pack, cold->order);
        ASSERT_TRUE(s.ok());
        EXPECT_NEAR(flex::CombinedObjective(metrics, terms, s->completion, 0), cold->value, tol);
      }
    }
  }
}

TEST(FlexOptimumTest, RefusesTooManyJobs) {
  FlexWorkloadOptions w;
  w.jobs = 11;
  flex::FlexProblem p = MakeFlexInstance(w, 0);
  EXPECT_FALSE(OptimumByEnumeration(p).ok());
  w.jobs = 13;
  EXPECT_FALSE(OptimumBySearch(MakeFlexInstance(w, 0)).ok());
}

}  // namespace
}  // namespace mr::model
