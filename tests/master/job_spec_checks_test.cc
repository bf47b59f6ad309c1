// CheckJobSpec on the reduce hint (JobSpec 19): the master refuses what the cli would, since any client
// that speaks the protocol can submit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "master/message_checks.h"

namespace mr::master {
namespace {

proto::JobSpec ValidSpec() {
  proto::JobSpec spec;
  spec.set_job("synthetic");
  spec.set_output("/tmp/mrlab-job-spec-checks-out");
  spec.set_reducers(1);
  spec.set_split_bytes(32u << 20);
  spec.set_slow_start(0.05);
  spec.set_weight(1);
  spec.set_num_maps(2);
  return spec;
}

TEST(JobSpecChecksTest, RefusesAReduceHintThatIsNegativeOrNotFinite) {
  proto::JobSpec spec = ValidSpec();
  spec.set_hint_reduce_seconds(12.5);
  EXPECT_TRUE(CheckJobSpec(spec).ok()) << CheckJobSpec(spec).ToString();
  for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    spec.set_hint_reduce_seconds(bad);
    Status s = CheckJobSpec(spec);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("reduce-seconds hint"), std::string::npos) << s.ToString();
  }
}

}  // namespace
}  // namespace mr::master
