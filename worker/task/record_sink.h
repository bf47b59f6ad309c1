// Adapters between the job API and the task's files: RecordSink is an Emitter
// that appends records (map_output.h encoding) to a FileWriter; MergerValues is
// the ValueIterator over the current key of a RunMerger. Single-threaded.
#pragma once

#include <cstdint>

#include "jobs/job.h"
#include "shuffle/format/merger.h"
#include "worker/task/file_writer.h"

namespace mr::worker {

class RecordSink final : public jobs::Emitter {
 public:
  explicit RecordSink(FileWriter* out) : out_(out) {}
  void Emit(std::string_view key, std::string_view value) override {
    out_->AppendRecord(key, value);
    ++records_;
  }
  uint64_t records() const { return records_; }

 private:
  FileWriter* out_;
  uint64_t records_ = 0;
};

class MergerValues final : public jobs::ValueIterator {
 public:
  MergerValues(shuffle::RunMerger* merger, uint64_t* count) : merger_(merger), count_(count) {}
  bool Next(std::string_view* value) override {
    if (!merger_->NextValue(value)) return false;
    ++*count_;
    return true;
  }

 private:
  shuffle::RunMerger* merger_;
  uint64_t* count_;
};

}  // namespace mr::worker
