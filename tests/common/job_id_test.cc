#include "common/job_id.h"

#include <gtest/gtest.h>

namespace mr {
namespace {

TEST(JobIdTest, FormatsAndParsesBackBothSpellings) {
  EXPECT_EQ(JobIdString(7), "job-000007");
  EXPECT_EQ(JobIdString(12345678), "job-12345678");
  EXPECT_EQ(ParseJobId("job-000007"), 7u);
  EXPECT_EQ(ParseJobId("7"), 7u);
  EXPECT_EQ(ParseJobId(JobIdString(987654)), 987654u);
}

TEST(JobIdTest, RefusesAnythingElse) {
  for (const char* bad : {"", "job-", "job-x", "-7", "7a", " 7", "job-0000001234567890123", "job--7"}) {
    EXPECT_FALSE(ParseJobId(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace mr
