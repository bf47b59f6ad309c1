// A map task reads its split through the InputSource it is given (worker/task/map_task.h):
// run from a FakeInputSource, with no input file on disk, it produces the bytes the local
// file system's run does; it reads only its split; a short or missing input fails it.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/file_util.h"
#include "jobs/fake_input_source.h"
#include "shuffle/map_output.h"
#include "task_test_util.h"
#include "worker/task/map_task.h"

namespace mr::worker {
namespace {

constexpr char kBooks[] = "/mrlab-fake/books";

// Records every line with its offset.
class RecordingJob final : public jobs::Job {
 public:
  explicit RecordingJob(std::vector<std::pair<uint64_t, std::string>>* seen) : seen_(seen) {}
  std::string_view name() const override { return "recording"; }
  Result<std::unique_ptr<jobs::Mapper>> NewMapper() const override {
    class M final : public jobs::Mapper {
     public:
      explicit M(std::vector<std::pair<uint64_t, std::string>>* seen) : seen_(seen) {}
      void Map(const jobs::InputRecord& r, jobs::Emitter& out) override {
        seen_->emplace_back(r.offset, std::string(r.line));
        out.Emit(r.line, "");
      }

     private:
      std::vector<std::pair<uint64_t, std::string>>* seen_;
    };
    return std::unique_ptr<jobs::Mapper>(std::make_unique<M>(seen_));
  }
  Result<std::unique_ptr<jobs::Reducer>> NewReducer() const override { return Status::Internal("unused"); }

 private:
  std::vector<std::pair<uint64_t, std::string>>* seen_;
};

MapTaskSpec SpecFor(const jobs::Job* job, const jobs::InputSource* source, jobs::Split split,
                    const std::string& work_dir) {
  MapTaskSpec s;
  s.job_id = 4;
  s.map_index = 1;
  s.job = job;
  s.split = std::move(split);
  s.input_source = source;
  s.num_reduces = 1;
  s.work_dir = work_dir;
  return s;
}

// The acceptance: wordcount's maps read splits of files that exist only in memory,
// and the job's output is exactly what it should be, byte for byte.
TEST(MapTaskSourceTest, WordcountRunsFromAFakeSourceWithNoFileOnDisk) {
  jobs::FakeInputSource fake;
  fake.AddFile(std::string(kBooks) + "/a.txt", "the cat sat on the mat\nthe end\n", "hostA");
  fake.AddFile(std::string(kBooks) + "/b.txt", "a cat, a dog;\nThe dog\n", "hostB");
  fake.AddFile(std::string(kBooks) + "/_SUCCESS", "not an input\n");
  ASSERT_FALSE(PathExists("/mrlab-fake"));
  TempDir dir;
  auto run = testing::RunJob("wordcount", {}, {kBooks}, /*reducers=*/1, /*split_bytes=*/10,
                             /*sort_buffer=*/1 << 20, dir.path(), 0, fake);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->parts.size(), 1u);
  EXPECT_EQ(run->parts[0], "The\t1\na\t2\ncat\t2\ndog\t2\nend\t1\nmat\t1\non\t1\nsat\t1\nthe\t3\n");
  EXPECT_GE(fake.reads(), 6) << "the maps did not read through the source";
  EXPECT_FALSE(PathExists("/mrlab-fake"));
}

// The same bytes on disk and in the fake give byte-identical parts: a test on the fake says
// what a run on the local file system produces.
TEST(MapTaskSourceTest, FakeAndLocalRunsWriteIdenticalParts) {
  TempDir dir;
  jobs::FakeInputSource fake;
  const std::string text = testing::Shell("seq 1 3000 | sed 's/$/ lorem ipsum dolor/'");
  ASSERT_FALSE(text.empty());
  const std::string local_input = JoinPath(dir.path(), "in.txt");
  ASSERT_TRUE(WriteStringToFile(local_input, text).ok());
  fake.AddFile("/mrlab-fake/in.txt", text);
  for (const char* job : {"wordcount", "sort"}) {
    SCOPED_TRACE(job);
    auto local = testing::RunJob(job, {}, {local_input}, 3, 4096, 64 << 10,
                                 JoinPath(dir.path(), std::string("l-") + job));
    auto faked = testing::RunJob(job, {}, {"/mrlab-fake/in.txt"}, 3, 4096, 64 << 10,
                                 JoinPath(dir.path(), std::string("f-") + job), 0, fake);
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    ASSERT_TRUE(faked.ok()) << faked.status().ToString();
    EXPECT_EQ(local->parts, faked->parts);
    EXPECT_FALSE(testing::Concat(local->parts).empty());
  }
}

TEST(MapTaskSourceTest, AMapReadsOnlyItsSplit) {
  jobs::FakeInputSource fake;
  fake.AddFile("/mrlab-fake/in", "zero\none\ntwo\nthree\n");
  std::vector<std::pair<uint64_t, std::string>> seen;
  RecordingJob job(&seen);
  TempDir dir;
  auto r = RunMapTask(SpecFor(&job, &fake, jobs::Split{"/mrlab-fake/in", 0, 5, 8, ""}, dir.path()), nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(seen, (std::vector<std::pair<uint64_t, std::string>>{{5, "one"}, {9, "two"}}));
  EXPECT_EQ(r->counters.bytes_in, 8u);
  EXPECT_EQ(fake.reads(), 1);
}

TEST(MapTaskSourceTest, AnInputShorterThanItsSplitFailsWithoutOutput) {
  jobs::FakeInputSource fake;
  fake.AddFile("/mrlab-fake/in", "short\n");
  std::vector<std::pair<uint64_t, std::string>> seen;
  RecordingJob job(&seen);
  TempDir dir;
  auto r = RunMapTask(SpecFor(&job, &fake, jobs::Split{"/mrlab-fake/in", 0, 0, 100, ""}, dir.path()), nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("holds 6 of the 100 bytes"), std::string::npos) << r.status().ToString();
  EXPECT_TRUE(seen.empty());
  EXPECT_FALSE(PathExists(shuffle::MapOutputIndexPath(dir.path(), 4, 1, 0)));
}

TEST(MapTaskSourceTest, AMissingInputIsNotFoundAndASplitNeedsASource) {
  jobs::FakeInputSource fake;
  std::vector<std::pair<uint64_t, std::string>> seen;
  RecordingJob job(&seen);
  TempDir dir;
  auto missing =
      RunMapTask(SpecFor(&job, &fake, jobs::Split{"/mrlab-fake/gone", 0, 0, 10, ""}, dir.path()), nullptr);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto sourceless =
      RunMapTask(SpecFor(&job, nullptr, jobs::Split{"/mrlab-fake/gone", 0, 0, 10, ""}, dir.path()), nullptr);
  EXPECT_EQ(sourceless.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::worker
