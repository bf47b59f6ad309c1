// The workload table (experiment/workload_params.h): docs/experiments.md lists its sources
// and gives each a section, and the experiment file's `workload:` keys come from it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "experiment/workload_params.h"

namespace mr::experiment {
namespace {

// The line docs/experiments.md's list of sources holds for a row.
std::string DocLine(const WorkloadSource& s) {
  std::string params;
  for (const sched::OptionSpec& o : s.params) params += (params.empty() ? "`" : ", `") + std::string(o.name) + "`";
  return "| `" + SourceKey(s) + "` | " + s.summary + " | " + (params.empty() ? "none" : params) + " |";
}

TEST(WorkloadDocsTest, TheSourceListInDocsMatchesTheTable) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "run under ctest (it sets MR_SOURCE_DIR)";
  auto doc = ReadFileToString(std::string(src) + "/docs/experiments.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  std::istringstream in(*doc);
  std::string line;
  std::vector<std::string> listed, headings;
  bool in_workloads = false, in_list = false;  // the list is the section's own table, before its ####s
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) in_workloads = in_list = line == "### Workloads";
    if (in_workloads && line.rfind("#### ", 0) == 0) {
      in_list = false;
      headings.push_back(line.substr(5));
    }
    if (in_list && line.rfind("| `", 0) == 0) listed.push_back(line);
  }
  std::vector<std::string> want;
  std::string expected;
  for (const WorkloadSource& s : WorkloadSources()) {
    want.push_back(DocLine(s));
    expected += want.back() + "\n";
    EXPECT_NE(std::find(headings.begin(), headings.end(), SourceKey(s)), headings.end())
        << "docs/experiments.md, \"### Workloads\", has no section \"#### " << SourceKey(s) << "\"";
  }
  EXPECT_EQ(listed, want) << "docs/experiments.md, section \"### Workloads\", should list:\n" << expected;
}

TEST(WorkloadTableTest, RowsAreCompleteAndFindable) {
  for (const WorkloadSource& s : WorkloadSources()) {
    EXPECT_FALSE(std::string(s.summary).empty()) << s.name;
    ASSERT_NE(s.make, nullptr) << s.name;
    WorkloadSpec spec;
    spec.kind = s.kind;
    if (s.kind == WorkloadKind::kGenerator) spec.generator = s.name;
    EXPECT_EQ(FindWorkloadSource(spec), &s) << s.name;
    for (const sched::OptionSpec& o : s.params) {
      if (o.default_text == nullptr) continue;
      EXPECT_TRUE(ParseWorkloadParam(s, o.name, o.default_text).ok()) << o.name;
    }
  }
  // The keys of `workload:` that name a source: "generator" once, then each file source.
  std::vector<std::string_view> want = {"generator"};
  std::string generators;
  for (const WorkloadSource& s : WorkloadSources()) {
    if (s.kind != WorkloadKind::kGenerator) want.push_back(s.name);
    if (s.kind == WorkloadKind::kGenerator) generators += (generators.empty() ? "" : ", ") + std::string(s.name);
  }
  EXPECT_EQ(WorkloadSourceKeys(), want);
  EXPECT_EQ(GeneratorNames(), generators);
  WorkloadSpec unknown;
  unknown.generator = "google";
  EXPECT_EQ(FindWorkloadSource(unknown), nullptr);
  EXPECT_EQ(WorkloadParamSpecs(unknown).status().message(), "unknown generator 'google' (known: " + generators + ")");
}

// A source's own check runs where the parameter is written: asrpt's workload is one of the
// paper's names.
TEST(WorkloadTableTest, ASourcesCheckRunsOnItsParameters) {
  WorkloadSpec spec;
  spec.generator = "asrpt";
  const WorkloadSource* asrpt = FindWorkloadSource(spec);
  ASSERT_NE(asrpt, nullptr);
  EXPECT_TRUE(ParseWorkloadParam(*asrpt, "workload", "exp5-exp40").ok());
  Result<sched::OptionValue> bad = ParseWorkloadParam(*asrpt, "workload", "exp1-exp2");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseWorkloadParam(*asrpt, "jobz", "3").status().message(),
            "unknown parameter 'jobz' (known: workload, jobs, load, unit_seconds, rate, max_reduce_tasks)");
}

}  // namespace
}  // namespace mr::experiment
