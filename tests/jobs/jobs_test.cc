#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "common/file_util.h"
#include "jobs/builtin_jobs.h"
#include "jobs/input_source.h"
#include "jobs/job.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {
namespace {

StatusCode CreateCode(std::string_view name, const Params& p) {
  return CreateJob(name, p).status().code();
}

TEST(CreateJobTest, KnowsTheBuiltIns) {
  std::vector<std::string> want = {"wordcount", "sort", "grep", "synthetic", "streaming"};
  EXPECT_EQ(KnownJobs(), want);
  EXPECT_EQ(CreateCode("wordcount", {}), StatusCode::kOk);
  EXPECT_EQ(CreateCode("sort", {}), StatusCode::kOk);
  auto unknown = CreateJob("nosuchjob", {});
  ASSERT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("wordcount"), std::string::npos);
}

TEST(CreateJobTest, BadParamsAreInvalidArgumentNamingThem) {
  auto grep = CreateJob("grep", {});
  ASSERT_EQ(grep.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(grep.status().message(), "grep needs --pattern");
  EXPECT_EQ(CreateCode("grep", {{"pattern", "a(b"}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateCode("grep", {{"pattern", "a|b"}}), StatusCode::kOk);
  auto streaming = CreateJob("streaming", {{"reducer", "cat"}});
  ASSERT_EQ(streaming.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(streaming.status().message().find("mapper"), std::string::npos);
  auto synth = CreateJob("synthetic", {{"map_seconds", "abc"}});
  ASSERT_EQ(synth.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(synth.status().message().find("map_seconds"), std::string::npos);
  EXPECT_EQ(CreateCode("synthetic", {{"map_seconds", "-1"}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateCode("synthetic", {{"map_bytes", "lots"}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateCode("synthetic", {{"map_bytes", "2MiB"}, {"seed", "3"}}), StatusCode::kOk);
  auto typo = CreateJob("wordcount", {{"patern", "x"}});
  ASSERT_EQ(typo.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(typo.status().message().find("patern"), std::string::npos);
  EXPECT_EQ(CreateCode("sort", {{"_cuts", "zz"}}), StatusCode::kInvalidArgument);
}

TEST(CreateJobTest, GenericParamsAreIgnored) {
  EXPECT_EQ(CreateCode("wordcount", {{"num_maps", "4"}, {"_internal", "x"}}), StatusCode::kOk);
  EXPECT_EQ(CreateCode("synthetic", {{"num_maps", "4"}, {"split_bytes", "1"}}), StatusCode::kOk);
}

TEST(JobPlanTest, SyntheticUsesNoInput) {
  auto job = CreateJob("synthetic", {});
  ASSERT_TRUE(job.ok());
  auto plan = (*job)->Plan(LocalInputs(), {}, 4);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->uses_input);
}

TEST(JobPlanTest, SortPlanPartitionsInOrder) {
  TempDir dir;
  std::string path = JoinPath(dir.path(), "in");
  std::string text;
  for (int i = 0; i < 5000; ++i) text += std::to_string((i * 31) % 997) + "\n";
  ASSERT_TRUE(WriteStringToFile(path, text).ok());
  auto job = CreateJob("sort", {});
  ASSERT_TRUE(job.ok());
  auto plan = (*job)->Plan(LocalInputs(), {path}, 4);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_TRUE(plan->extra_params.count(kCutPointsParam));
  auto planned = CreateJob("sort", plan->extra_params);
  ASSERT_TRUE(planned.ok());
  auto part = (*planned)->NewPartitioner();
  std::vector<std::string> keys;
  for (int i = 0; i < 997; ++i) keys.push_back(std::to_string(i));
  std::sort(keys.begin(), keys.end());
  std::vector<int> count(4);
  uint32_t last = 0;
  for (const auto& k : keys) {
    uint32_t p = part->Partition(k, 4);
    EXPECT_GE(p, last) << "partition order broken at " << k;
    last = p;
    ++count[p];
  }
  for (int c : count) EXPECT_GT(c, 150);  // balanced-ish: ~250 each
}

TEST(JobPlanTest, GrepPlanBalancesBytesInPositionOrder) {
  TempDir dir;
  std::vector<std::string> paths;
  for (int f = 0; f < 3; ++f) {
    paths.push_back(JoinPath(dir.path(), "f" + std::to_string(f)));
    ASSERT_TRUE(WriteStringToFile(paths.back(), std::string(1000 * (f + 1), 'x')).ok());
  }
  auto job = CreateJob("grep", {{"pattern", "x"}});
  ASSERT_TRUE(job.ok());
  auto plan = (*job)->Plan(LocalInputs(), paths, 3);
  ASSERT_TRUE(plan.ok());
  auto cuts = DecodeCutPoints(plan->extra_params[kCutPointsParam]);
  ASSERT_TRUE(cuts.ok());
  ASSERT_EQ(cuts->size(), 2u);
  // Total 6000 bytes: cuts at global byte 2000 (file 1, offset 1000) and 4000 (file 2, 1000).
  std::string want1(12, '\0'), want2(12, '\0');
  want1[3] = 1;
  want1[10] = 0x03;
  want1[11] = static_cast<char>(0xe8);
  want2[3] = 2;
  want2[10] = 0x03;
  want2[11] = static_cast<char>(0xe8);
  EXPECT_EQ((*cuts)[0], want1);
  EXPECT_EQ((*cuts)[1], want2);
}

TEST(JobTest, OutputFormats) {
  EXPECT_EQ((*CreateJob("wordcount", {}))->output_format(), OutputFormat::kKeyTabValue);
  EXPECT_EQ((*CreateJob("sort", {}))->output_format(), OutputFormat::kKeyOnly);
  EXPECT_EQ((*CreateJob("grep", {{"pattern", "a"}}))->output_format(), OutputFormat::kValueOnly);
  EXPECT_NE((*CreateJob("wordcount", {}))->NewCombiner(), nullptr);
  EXPECT_EQ((*CreateJob("sort", {}))->NewCombiner(), nullptr);
}

// The synthetic burn must be user-mode work. When its PRNG loop was folded away by the
// compiler, 85-90% of a "CPU second" was spent in the kernel answering clock_gettime, which
// made synthetic jobs sensitive to other processes in a way real map work is not.
class BurnContext final : public TaskContext {
 public:
  void IncrementCounter(std::string_view, int64_t) override {}
};

double ThreadSeconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; }

TEST(SyntheticJobTest, BurnIsUserTime) {
  auto job = CreateJob("synthetic", {{"reduce_seconds", "0.4"}});
  ASSERT_TRUE(job.ok());
  auto reducer = (*job)->NewReducer();
  ASSERT_TRUE(reducer.ok());
  BurnContext ctx;
  rusage before{}, after{};
  ASSERT_EQ(getrusage(RUSAGE_THREAD, &before), 0);
  ASSERT_TRUE((*reducer)->Setup(ctx).ok());
  ASSERT_EQ(getrusage(RUSAGE_THREAD, &after), 0);
  double user = ThreadSeconds(after.ru_utime) - ThreadSeconds(before.ru_utime);
  double sys = ThreadSeconds(after.ru_stime) - ThreadSeconds(before.ru_stime);
  EXPECT_GE(user + sys, 0.35);  // it burned what it was asked to
  EXPECT_GE(user, 0.8 * (user + sys)) << "user " << user << " s, system " << sys << " s";
}

}  // namespace
}  // namespace mr::jobs
