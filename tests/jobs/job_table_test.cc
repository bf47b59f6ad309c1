// The job table: each job takes its name from its row, flags shared by jobs agree, a job's
// known parameters are its flags' parameters, and the lists read the table.
#include <gtest/gtest.h>

#include "jobs/job_table.h"
#include "jobs/params.h"

namespace mr::jobs {
namespace {

// Parameters a job cannot be created without.
Params Required(std::string_view job) {
  if (job == "grep") return {{"pattern", "a"}};
  if (job == "streaming") return {{"mapper", "cat"}};
  return {};
}

TEST(JobTableTest, EveryJobTakesItsNameFromItsRow) {
  for (const JobRow& row : JobTable()) {
    auto job = CreateJob(row.name, Required(row.name));
    ASSERT_TRUE(job.ok()) << row.name << ": " << job.status().ToString();
    EXPECT_EQ((*job)->name().data(), row.name);  // the row's storage: spelled once
    EXPECT_FALSE(std::string(row.summary).empty());
  }
  EXPECT_EQ(JobNameList(), "wordcount, sort, grep, synthetic, streaming");
  EXPECT_EQ(KnownJobs().size(), JobTable().size());
  EXPECT_EQ(FindJob("nosuch"), nullptr);
}

TEST(JobTableTest, FlagsSharedByJobsAgreeAndEachJobsParametersAreDistinct) {
  for (const JobRow& a : JobTable()) {
    for (size_t i = 0; i < a.flags.size(); ++i) {
      for (size_t j = i + 1; j < a.flags.size(); ++j) {
        EXPECT_STRNE(a.flags[i].name, a.flags[j].name) << a.name;
        EXPECT_STRNE(a.flags[i].param, a.flags[j].param) << a.name;
      }
      for (const JobRow& b : JobTable()) {
        for (const JobFlag& g : b.flags) {
          if (std::string_view(a.flags[i].name) != g.name) continue;
          EXPECT_EQ(a.flags[i].type, g.type) << g.name;
          EXPECT_STREQ(a.flags[i].param, g.param) << g.name;
          EXPECT_EQ(a.flags[i].default_text == nullptr, g.default_text == nullptr) << g.name;
        }
      }
    }
  }
}

TEST(JobTableTest, AJobKnowsExactlyItsFlagsParameters) {
  for (const JobRow& row : JobTable()) {
    for (const JobFlag& f : row.flags) {
      if (IsGenericParam(f.param)) continue;
      Params p = Required(row.name);
      p[f.param] = f.type == JobFlagType::kString ? "1" : "2";
      auto job = CreateJob(row.name, p);
      EXPECT_TRUE(job.ok() || job.status().message().find("unknown parameter") == std::string::npos)
          << row.name << " rejects its own flag's parameter " << f.param << ": " << job.status().ToString();
    }
    Params p = Required(row.name);
    p["frobs"] = "1";
    auto job = CreateJob(row.name, p);
    ASSERT_FALSE(job.ok()) << row.name;
    EXPECT_NE(job.status().message().find("unknown parameter 'frobs' for job " + std::string(row.name)),
              std::string::npos)
        << job.status().message();
  }
  auto s = CreateJob("synthetic", {{"frobs", "1"}});
  EXPECT_EQ(s.status().message(),
            "unknown parameter 'frobs' for job synthetic (known: map_seconds, map_bytes, reduce_seconds, seed, work)");
}

}  // namespace
}  // namespace mr::jobs
