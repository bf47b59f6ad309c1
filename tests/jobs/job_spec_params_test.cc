// The per-job parameters in and out of a JobSpec by their table (jobs/job_spec_params.h): every
// row has a field of its type, values round-trip, and a field at zero reads as the default.
#include "jobs/job_spec_params.h"

#include <gtest/gtest.h>

namespace mr::jobs {
namespace {

// The table <-> proto check: every per-job parameter has a JobSpec field of its type.
TEST(JobSpecParamsTest, EveryRowHasAJobSpecFieldOfItsType) {
  Status s = CheckJobParamFields();
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(JobSpecParamsTest, ParamsRoundTripThroughTheSpec) {
  sched::JobParams p;
  p.pool = "prod";
  p.weight = 2.5;
  p.hint_map_seconds = 12;
  p.hint_shuffle_bytes = 3e9;
  p.hint_reduce_seconds = 4.5;
  p.speculative = false;
  p.queue = "small";
  proto::JobSpec spec;
  JobParamsToSpec(p, &spec);
  EXPECT_EQ(spec.pool(), "prod");
  EXPECT_DOUBLE_EQ(spec.hint_shuffle_bytes(), 3e9);
  EXPECT_TRUE(spec.speculation_off());
  EXPECT_EQ(spec.queue(), "small");
  EXPECT_TRUE(JobParamsFromSpec(spec) == p);

  JobParamsToSpec(sched::JobParams{}, &spec);
  EXPECT_FALSE(spec.speculation_off()) << "the default travels as the zero value";
  EXPECT_TRUE(JobParamsFromSpec(spec) == sched::JobParams{});
}

// A spec from a client that sets none of the fields (or an older one) reads as the defaults;
// a weight of 0 has always meant 1.
TEST(JobSpecParamsTest, ZeroFieldsReadAsTheDefaults) {
  proto::JobSpec spec;
  EXPECT_TRUE(JobParamsFromSpec(spec) == sched::JobParams{});
  spec.set_weight(0);
  EXPECT_DOUBLE_EQ(JobParamsFromSpec(spec).weight, 1);
  EXPECT_TRUE(JobParamsFromSpec(spec).speculative);
}

}  // namespace
}  // namespace mr::jobs
