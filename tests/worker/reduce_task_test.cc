// The reduce task's side of end-to-end checksums (issue 11): a run whose local copy no
// longer matches the CRC it was fetched with is never merged; it is fetched again.
#include "worker/task/reduce_task.h"

#include <atomic>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/map_output.h"
#include "tests/common/wait.h"

namespace mr::worker {
namespace {

// Writes every (key, value) as "key\tvalue".
class PassReducer final : public jobs::Reducer {
 public:
  void Reduce(std::string_view key, jobs::ValueIterator& values, jobs::Emitter& out) override {
    std::string_view v;
    while (values.Next(&v)) out.Emit(key, v);
  }
};

class PassJob final : public jobs::Job {
 public:
  std::string_view name() const override { return "pass"; }
  Result<std::unique_ptr<jobs::Mapper>> NewMapper() const override { return Status::Internal("unused"); }
  Result<std::unique_ptr<jobs::Reducer>> NewReducer() const override {
    return std::unique_ptr<jobs::Reducer>(std::make_unique<PassReducer>());
  }
};

class ReduceChecksumTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint32_t m = 0; m < 3; ++m) {
      std::string run;
      for (int i = 0; i < 50; ++i) {
        char key[16];
        std::snprintf(key, sizeof key, "key%03d", i * 3 + static_cast<int>(m));
        shuffle::AppendRecord(key, "v" + std::to_string(m), &run);
      }
      runs_.push_back(run);
      spec_.run_files.push_back(JoinPath(dir_.path(), "m" + std::to_string(m) + ".run"));
      spec_.run_crcs.push_back(crc32c::Value(run));
      ASSERT_TRUE(WriteStringToFile(spec_.run_files.back(), run).ok());
    }
    spec_.job = &job_;
    spec_.reduce_index = 4;
    spec_.output_path = JoinPath(dir_.path(), "out/part-r-4");
    for (int i = 0; i < 150; ++i) {
      char line[32];
      std::snprintf(line, sizeof line, "key%03d\tv%d\n", i, i % 3);
      expected_ += line;
    }
  }

  // Flips a bit of run m's first key ("key00m" -> "kdy00m"): still sorted, so without the
  // checksum it would merge into wrong output.
  void Corrupt(uint32_t m) {
    std::string bad = runs_[m];
    bad[3] ^= 0x01;
    ASSERT_TRUE(WriteStringToFile(spec_.run_files[m], bad).ok());
  }
  void Repair(uint32_t m) { ASSERT_TRUE(WriteStringToFile(spec_.run_files[m], runs_[m]).ok()); }

  TempDir dir_{"reduce-checksum"};
  PassJob job_;
  ReduceTaskSpec spec_;
  std::vector<std::string> runs_;
  std::string expected_;
};

TEST_F(ReduceChecksumTest, IntactRunsReduce) {
  auto r = RunReduceTask(spec_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*ReadFileToString(spec_.output_path), expected_);
}

TEST_F(ReduceChecksumTest, CorruptRunIsDataLossAndNothingIsWritten) {
  Corrupt(1);
  std::vector<uint32_t> corrupt;
  auto r = RunReduceTask(spec_, nullptr, &corrupt);
  ASSERT_FALSE(r.ok()) << "a corrupted run was merged";
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << r.status().ToString();
  EXPECT_NE(r.status().message().find("m1.run failed its checksum"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(corrupt, std::vector<uint32_t>{1});
  EXPECT_FALSE(PathExists(spec_.output_path));
}

TEST_F(ReduceChecksumTest, MissingChecksumsAreRefused) {
  spec_.run_crcs.pop_back();
  EXPECT_EQ(RunReduceTask(spec_, nullptr).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ReduceChecksumTest, CorruptRunIsRefetchedAndMergedAgain) {
  Corrupt(2);
  std::vector<uint32_t> asked;
  auto r = RunReduceTaskWithRefetch(spec_, nullptr, [&](uint32_t run, RunRange*) -> Result<uint32_t> {
    asked.push_back(run);
    Repair(run);
    return crc32c::Value(runs_[run]);
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(asked, std::vector<uint32_t>{2});
  EXPECT_EQ(*ReadFileToString(spec_.output_path), expected_);
}

TEST_F(ReduceChecksumTest, RunThatKeepsFailingEndsTheAttemptAfterTwoRefetches) {
  Corrupt(0);
  int calls = 0;
  auto r = RunReduceTaskWithRefetch(spec_, nullptr, [&](uint32_t run, RunRange*) -> Result<uint32_t> {
    ++calls;
    Corrupt(run);  // the local disk spoils every copy
    return crc32c::Value(runs_[run]);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(calls, kMaxRefetchesPerRun);
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(r.status().message().find("local copy of map 0's run keeps failing its checksum"), std::string::npos)
      << r.status().ToString();
  EXPECT_FALSE(PathExists(spec_.output_path));
}

TEST_F(ReduceChecksumTest, RefetchThatFailsEndsTheAttemptWithItsError) {
  Corrupt(1);
  auto r = RunReduceTaskWithRefetch(spec_, nullptr, [&](uint32_t, RunRange*) -> Result<uint32_t> {
    return Status::NotFound("no map output for job 1 map 1 attempt 1");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("refetching the run of map 1"), std::string::npos) << r.status().ToString();
}

// A reduce of `job` over one run file (written in dir) holding `run`, its fraction to
// *fraction.
bool OneRunSpec(const jobs::Job* job, const std::string& run, const std::string& dir,
                std::atomic<double>* fraction, ReduceTaskSpec* spec) {
  spec->job = job;
  spec->run_files = {JoinPath(dir, "m0.run")};
  spec->run_crcs = {crc32c::Value(run)};
  spec->output_path = JoinPath(dir, "out/part-r-00000");
  spec->fraction = fraction;
  return WriteStringToFile(spec->run_files[0], run).ok();
}

// A streaming reduce feeds its partition to the command as it merges it (nothing buffered
// whole first, issue 16); a command that stops reading early is not a failure by itself (its
// exit status decides), and the rest of the partition is merged and dropped, as Hadoop does.
// (Before records were streamed, this test asserted a fraction below 0.5.)
TEST(StreamingReduceTest, CommandThatStopsReadingEarlyEndsThePartition) {
  TempDir dir("reduce-fraction");
  auto job = jobs::CreateJob("streaming", {{"mapper", "cat"}, {"reducer", "head -c 100000 >/dev/null"}});
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  std::string run;
  const std::string value(100, 'v');
  uint64_t records = 0;
  for (int i = 0; run.size() < (8u << 20); ++i, ++records) {
    char key[16];
    std::snprintf(key, sizeof key, "key%08d", i);
    shuffle::AppendRecord(key, value, &run);
  }
  std::atomic<double> fraction{0};
  ReduceTaskSpec spec;
  ASSERT_TRUE(OneRunSpec(job->get(), run, dir.path(), &fraction, &spec));
  auto r = RunReduceTask(spec, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->counters.records_in, records);
  EXPECT_EQ(r->counters.records_out, 0u);
}

// A synthetic reduce's fraction follows its work, as a synthetic map's does; it read 0
// until the merge at the end, so speculation saw every synthetic reduce stall. The work is
// 60 s of sleep, so the fraction is inside (0, 1) for as long as the test watches, however
// loaded the machine: the test sees it leave 0, rise again, and then cancels the reduce.
TEST(SyntheticReduceTest, FractionRisesWithItsWork) {
  TempDir dir("reduce-synthetic-fraction");
  auto job = jobs::CreateJob("synthetic", {{"reduce_seconds", "60"}, {"work", "sleep"}});
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  std::string run;
  shuffle::AppendRecord("k", "v", &run);
  std::atomic<double> fraction{0};
  ReduceTaskSpec spec;
  ASSERT_TRUE(OneRunSpec(job->get(), run, dir.path(), &fraction, &spec));
  std::atomic<bool> cancel{false};
  auto task = std::async(std::launch::async, [&] { return RunReduceTask(spec, &cancel); });
  double first = 0, later = 0;
  const bool moved = mr::testing::WaitUntil([&] { return (first = fraction.load()) > 0; }, 30);
  const bool rose = moved && mr::testing::WaitUntil([&] { return (later = fraction.load()) > first; }, 30);
  cancel.store(true);
  auto r = task.get();
  EXPECT_TRUE(moved) << "the fraction never left 0 during the work";
  EXPECT_TRUE(rose) << "the fraction stayed at " << first;
  EXPECT_LT(later, 0.5) << "60 s of work cannot be half done while the test watches";
  EXPECT_EQ(r.status().code(), StatusCode::kAborted) << r.status().ToString();
}

}  // namespace
}  // namespace mr::worker
