// JobRequest -> JobSpec (jobs/job_request.h) on an in-memory input source: resolved inputs,
// defaults, and the messages `mr run` prints for bad requests.
#include "jobs/job_request.h"
#include "jobs/output_dir.h"

#include <gtest/gtest.h>

#include <map>

#include "common/file_util.h"
#include "jobs/job_table.h"

namespace mr::jobs {
namespace {

// Resolves the names it was given, each to its list of files; anything else is NotFound. It
// lists and reads nothing: MakeJobSpec must not.
class FakeSource final : public InputSource {
 public:
  std::map<std::string, std::vector<std::string>> names;
  mutable std::vector<bool> recursive_seen;

  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) const override {
    recursive_seen.push_back(recursive);
    std::vector<std::string> out;
    for (const std::string& a : args) {
      auto it = names.find(a);
      if (it == names.end()) return Status::NotFound("input " + a + " does not exist");
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
    return out;
  }
  Result<std::vector<InputFile>> List(const std::vector<std::string>&) const override {
    return Status::Internal("MakeJobSpec listed inputs");
  }
  Result<std::unique_ptr<InputBytes>> Read(const std::string&, uint64_t, uint64_t) const override {
    return Status::Internal("MakeJobSpec read an input");
  }
};

class JobRequestTest : public ::testing::Test {
 protected:
  JobRequest Wordcount() {
    JobRequest r;
    r.job = "wordcount";
    r.inputs = {"logs/*.txt"};
    r.output = JoinPath(dir_.path(), "out");
    return r;
  }
  // The message of MakeJobSpec's error for the request `change` makes of Wordcount().
  template <typename F>
  std::string Error(F change) {
    JobRequest r = Wordcount();
    change(r);
    Result<proto::JobSpec> spec = MakeJobSpec(r, source_);
    EXPECT_FALSE(spec.ok());
    return spec.ok() ? "" : spec.status().message();
  }

  TempDir dir_{"mr-job-request-test"};
  FakeSource source_;
  void SetUp() override { source_.names["logs/*.txt"] = {"/data/logs/a.txt", "/data/logs/b.txt"}; }
};

TEST_F(JobRequestTest, MakesTheSpecWithResolvedInputsAndDefaults) {
  JobRequest r = Wordcount();
  r.recursive = true;
  r.scheduling.pool = "batch";
  r.scheduling.speculative = false;
  Result<proto::JobSpec> spec = MakeJobSpec(r, source_);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->inputs_size(), 2);
  EXPECT_EQ(spec->inputs(0), "/data/logs/a.txt");
  EXPECT_EQ(source_.recursive_seen, std::vector<bool>{true});
  EXPECT_EQ(spec->output(), JoinPath(dir_.path(), "out"));
  EXPECT_EQ(spec->name(), "wordcount");
  EXPECT_EQ(spec->reducers(), 1u);
  EXPECT_EQ(spec->split_bytes(), 32u << 20);
  EXPECT_DOUBLE_EQ(spec->slow_start(), 0.05);
  EXPECT_EQ(spec->sort_buffer_bytes(), 100u << 20);
  EXPECT_EQ(spec->pool(), "batch");
  EXPECT_DOUBLE_EQ(spec->weight(), 1);
  EXPECT_TRUE(spec->speculation_off());
  EXPECT_TRUE(ValidateJobSpec(*spec).ok());
}

TEST_F(JobRequestTest, AJobWithoutInputGetsItsMapsAndParameters) {
  JobRequest r;
  r.job = "synthetic";
  r.output = "relative/out";
  r.name = "burn";
  r.num_maps = 3;
  r.params = {{"map_seconds", "0.5"}};
  Result<proto::JobSpec> spec = MakeJobSpec(r, source_);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->inputs_size(), 0);
  EXPECT_EQ(spec->output(), AbsolutePath("relative/out"));
  EXPECT_EQ(spec->output()[0], '/');
  EXPECT_EQ(spec->name(), "burn");
  EXPECT_EQ(spec->num_maps(), 3u);
  EXPECT_EQ(spec->params().at("map_seconds"), "0.5");
  EXPECT_TRUE(source_.recursive_seen.empty()) << "no input, nothing to resolve";
}

// `--output out/` names the directory out: the spec carries it without the slash, which the
// master's message checks refuse ("output must be an absolute directory path").
TEST_F(JobRequestTest, AnOutputWithATrailingSlashIsTheDirectory) {
  JobRequest r = Wordcount();
  r.output = JoinPath(dir_.path(), "out") + "//";
  Result<proto::JobSpec> spec = MakeJobSpec(r, source_);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->output(), JoinPath(dir_.path(), "out"));
}

// Each bad request is refused with the words `mr run` has always printed for it.
TEST_F(JobRequestTest, BadRequestsGetTheMessagesMrRunPrints) {
  EXPECT_EQ(Error([](JobRequest& r) { r.job = ""; }), "which job? (known: " + JobNameList() + ")");
  EXPECT_EQ(Error([](JobRequest& r) { r.job = "frobnicate"; }),
            "unknown job 'frobnicate' (known: " + JobNameList() + ")");
  EXPECT_EQ(Error([](JobRequest& r) { r.inputs = {"nope.txt"}; }), "input nope.txt does not exist");
  EXPECT_EQ(Error([](JobRequest& r) { r.output = ""; }), "missing --output DIR");
  const std::string exists = dir_.path();
  EXPECT_EQ(Error([&](JobRequest& r) { r.output = exists; }), "output directory " + exists + " already exists");
  // A directory holding only an empty _temporary (a submit whose master died) is not taken;
  // one whose _temporary holds anything is (jobs/output_dir.h).
  const std::string unclaimed = JoinPath(dir_.path(), "unclaimed");
  ASSERT_TRUE(MakeDirs(JoinPath(unclaimed, "_temporary")).ok());
  EXPECT_TRUE(IsUnclaimedOutput(unclaimed));
  EXPECT_FALSE(OutputTaken(unclaimed));
  ASSERT_TRUE(MakeDirs(JoinPath(unclaimed, "_temporary/attempt-r-00000-1")).ok());
  EXPECT_EQ(Error([&](JobRequest& r) { r.output = unclaimed; }), "output directory " + unclaimed + " already exists");
  EXPECT_EQ(Error([](JobRequest& r) { r.reducers = 0; }), "--reducers must be in 1..10000");
  EXPECT_EQ(Error([](JobRequest& r) { r.reducers = 10001; }), "--reducers must be in 1..10000");
  EXPECT_EQ(Error([](JobRequest& r) { r.split_bytes = 4095; }), "--split-size must be at least 4KiB (4096 bytes)");
  EXPECT_EQ(Error([](JobRequest& r) { r.slow_start = 1.5; }), "--slow-start must be in [0, 1]");
  EXPECT_EQ(Error([](JobRequest& r) { r.sort_buffer_bytes = 0; }), "--sort-buffer must be at least 64KiB");
  EXPECT_EQ(Error([](JobRequest& r) { r.sort_buffer_bytes = 1024; }), "--sort-buffer must be at least 64KiB");
  EXPECT_EQ(Error([](JobRequest& r) { r.scheduling.weight = 0; }), "--weight must be positive");
  EXPECT_EQ(Error([](JobRequest& r) { r.scheduling.hint_reduce_seconds = -1; }),
            "--hint-reduce-seconds must be a finite number >= 0");
  EXPECT_NE(Error([](JobRequest& r) { r.job = "grep"; }).find("pattern"), std::string::npos);
  EXPECT_NE(Error([](JobRequest& r) { r.params["frobs"] = "3"; }).find("frobs"), std::string::npos);
  EXPECT_FALSE(PathExists(JoinPath(dir_.path(), "out"))) << "a refused request created its output";
}

// A master killed between making OUTPUT and OUTPUT/_temporary left an empty OUTPUT, which is
// taken, so the same command then failed for ever (scripts/fault-sweep.sh --mb 48, run 53).
// ClaimOutput makes both under a hidden sibling and renames it into place: the directory
// appears with its empty _temporary or not at all, and no claim is left beside it.
TEST(ClaimOutputTest, TheDirectoryAppearsWithItsTemporaryAndNothingBesideIt) {
  TempDir dir("mr-claim-output-test");
  const std::string out = JoinPath(dir.path(), "nested/out");
  ASSERT_TRUE(ClaimOutput(out + "/").ok());
  EXPECT_TRUE(IsUnclaimedOutput(out)) << "OUTPUT holds exactly an empty _temporary";
  auto siblings = ListDir(JoinPath(dir.path(), "nested"));
  ASSERT_TRUE(siblings.ok());
  EXPECT_EQ(*siblings, std::vector<std::string>{"out"}) << "the claim was renamed, not left beside it";
  // Claimed and still empty: a second claim takes it over (a restarted master's submit).
  EXPECT_TRUE(ClaimOutput(out).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(out, "part-r-00000"), "x\n").ok());
  EXPECT_EQ(ClaimOutput(out).code(), StatusCode::kAlreadyExists);
  const std::string empty = JoinPath(dir.path(), "empty");
  ASSERT_TRUE(MakeDirs(empty).ok());
  EXPECT_EQ(ClaimOutput(empty).code(), StatusCode::kAlreadyExists) << "an existing directory is taken, as in Hadoop";
  siblings = ListDir(dir.path());
  ASSERT_TRUE(siblings.ok());
  EXPECT_EQ(siblings->size(), 2u) << "a refused claim leaves nothing";
}

}  // namespace
}  // namespace mr::jobs
