// CheckJobSpec: the master refuses what the cli would (one validation, jobs::ValidateJobSpec), since any
// client that speaks the protocol can submit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "common/file_util.h"
#include "jobs/job_request.h"
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

// One validation (jobs::ValidateJobSpec) for the client and the master: a spec the client makes
// passes the master's checks, and each bad value is refused by both, the client naming the
// flag to fix, the master the field in the words it always used.
TEST(JobSpecChecksTest, ClientAndMasterShareOneValidation) {
  TempDir dir("mr-job-spec-checks");
  jobs::JobRequest r;
  r.job = "synthetic";
  r.output = JoinPath(dir.path(), "out");
  r.num_maps = 2;
  r.scheduling.pool = "batch";
  r.scheduling.weight = 3;
  r.scheduling.hint_shuffle_bytes = 1e9;
  r.scheduling.speculative = false;
  Result<proto::JobSpec> made = jobs::MakeJobSpec(r, jobs::LocalInputs());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_TRUE(jobs::ValidateJobSpec(*made).ok());
  EXPECT_TRUE(CheckJobSpec(*made).ok()) << CheckJobSpec(*made).ToString();

  struct Bad {
    void (*change)(proto::JobSpec&);
    const char* client;  // what `mr submit` says
    const char* master;  // what the master says
  };
  const Bad bad[] = {
      {[](proto::JobSpec& s) { s.set_job("frobnicate"); }, "unknown job 'frobnicate'", "unknown job 'frobnicate'"},
      {[](proto::JobSpec& s) { s.set_reducers(0); }, "--reducers must be in 1..10000", "reducers must be in 1..10000"},
      {[](proto::JobSpec& s) { s.set_split_bytes(100); }, "--split-size must be at least 4KiB (4096 bytes)",
       "split size must be at least 4KiB (4096 bytes)"},
      {[](proto::JobSpec& s) { s.set_slow_start(std::nan("")); }, "--slow-start must be in [0, 1]",
       "slow-start must be in [0, 1]"},
      {[](proto::JobSpec& s) { s.set_sort_buffer_bytes(uint64_t{1} << 40); }, "--sort-buffer must be at most 64GiB",
       "sort buffer must be at most 64GiB"},
      {[](proto::JobSpec& s) { s.set_num_maps(2000000); }, "--maps must be at most 1000000",
       "maps must be at most 1000000"},
      {[](proto::JobSpec& s) { s.set_weight(-1); }, "--weight must be positive", "weight must be positive"},
      {[](proto::JobSpec& s) { s.set_weight(1e7); }, "--weight must be at most 1000000", "weight must be at most 1000000"},
      {[](proto::JobSpec& s) { s.set_hint_map_seconds(-1); }, "--hint-map-seconds must be a finite number >= 0",
       "map-seconds hint must be a finite number >= 0"},
      {[](proto::JobSpec& s) { (*s.mutable_params())["frobs"] = "3"; }, "frobs", "frobs"},
      // FLEX's terms checked across each other (issue 25), the same refusal at the master.
      {[](proto::JobSpec& s) { s.set_metric("tardiness"); }, "--metric tardiness needs --deadline",
       "metric tardiness needs deadline"},
      {[](proto::JobSpec& s) { s.set_metric("speed"); }, "--metric: unknown metric 'speed'",
       "metric: unknown metric 'speed'"},
      {[](proto::JobSpec& s) { s.set_min_slots(5), s.set_max_slots(3); }, "--min-slots 5 is above --max-slots 3",
       "minimum slots 5 is above maximum slots 3"},
      {[](proto::JobSpec& s) { s.set_sla("60:1,30:2"); }, "--sla: SLA pseudo-deadlines must increase",
       "SLA: SLA pseudo-deadlines must increase"},
  };
  for (const Bad& b : bad) {
    proto::JobSpec spec = *made;
    b.change(spec);
    Status client = jobs::ValidateJobSpec(spec);
    Status master = CheckJobSpec(spec);
    EXPECT_FALSE(client.ok()) << b.client;
    EXPECT_EQ(client.code(), master.code()) << b.client;
    EXPECT_NE(client.message().find(b.client), std::string::npos) << client.ToString();
    EXPECT_NE(master.message().find(b.master), std::string::npos) << master.ToString();
  }
}

}  // namespace
}  // namespace mr::master
