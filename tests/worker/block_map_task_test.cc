// RunMapTask's block path: a mapper with MapBlock sees the split exactly once, in
// order, as chunks of whole lines with correct file offsets, and the task still
// counts lines as the line-by-line path does.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "worker/task/map_task.h"

namespace mr::worker {
namespace {

struct SeenBlock {
  std::string data;
  uint64_t offset;
};

class RecordingJob final : public jobs::Job {
 public:
  explicit RecordingJob(std::vector<SeenBlock>* seen) : seen_(seen) {}
  std::string_view name() const override { return "recording"; }
  Result<std::unique_ptr<jobs::Mapper>> NewMapper() const override {
    class M final : public jobs::Mapper {
     public:
      explicit M(std::vector<SeenBlock>* seen) : seen_(seen) {}
      void Map(const jobs::InputRecord&, jobs::Emitter&) override { ADD_FAILURE() << "Map() called"; }
      bool MapBlock(const jobs::InputBlock& b, jobs::Emitter& out) override {
        seen_->push_back({std::string(b.data), b.offset});
        out.Emit("blocks", "1");
        return true;
      }

     private:
      std::vector<SeenBlock>* seen_;
    };
    return std::unique_ptr<jobs::Mapper>(std::make_unique<M>(seen_));
  }
  Result<std::unique_ptr<jobs::Reducer>> NewReducer() const override { return Status::Internal("unused"); }

 private:
  std::vector<SeenBlock>* seen_;
};

TEST(BlockMapTaskTest, ChunksAreWholeLinesCoveringTheSplitInOrder) {
  TempDir dir;
  std::string text = "skipped first line\n";
  const uint64_t split_offset = text.size();
  uint64_t lines = 0;
  for (int i = 0; i < 3000; ++i, ++lines) text += std::string(1000 + i % 7, 'a' + i % 26) + "\n";
  text += std::string(5u << 20, 'L') + "\n";  // one line longer than a chunk
  ++lines;
  for (int i = 0; i < 6000; ++i, ++lines) text += std::string(900, 'b') + "\n";
  text += "last line without newline";
  ++lines;
  const std::string input = JoinPath(dir.path(), "input");
  ASSERT_TRUE(WriteStringToFile(input, text).ok());

  std::vector<SeenBlock> seen;
  RecordingJob job(&seen);
  MapTaskSpec spec;
  spec.job_id = 1;
  spec.job = &job;
  spec.split = jobs::Split{input, 0, split_offset, text.size() - split_offset, ""};
  spec.input_source = &jobs::LocalInputs();
  spec.num_reduces = 1;
  spec.work_dir = dir.path();
  auto r = RunMapTask(spec, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();

  ASSERT_GE(seen.size(), 4u);
  std::string joined;
  for (size_t i = 0; i < seen.size(); ++i) {
    const SeenBlock& b = seen[i];
    EXPECT_EQ(b.offset, split_offset + joined.size()) << "block " << i;
    ASSERT_FALSE(b.data.empty());
    if (i + 1 < seen.size()) {
      EXPECT_EQ(b.data.back(), '\n') << "block " << i << " cuts a line";
    }
    const bool one_long_line = b.data.find('\n') == b.data.size() - 1;
    EXPECT_TRUE(b.data.size() <= (4u << 20) || one_long_line) << "block " << i << " is " << b.data.size();
    joined += b.data;
  }
  EXPECT_EQ(joined, text.substr(split_offset));
  EXPECT_EQ(r->counters.records_in, lines);
  EXPECT_EQ(r->counters.bytes_in, text.size() - split_offset);
}

}  // namespace
}  // namespace mr::worker
