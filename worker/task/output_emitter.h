// OutputEmitter: the Emitter a task's final records go to — a reducer's, or a map-only job's
// mapper's — writing each as the job's OutputFormat says (jobs/job.h) to a FileWriter.
// Single-threaded.
#pragma once

#include <cstdint>

#include "jobs/job.h"
#include "worker/task/file_writer.h"

namespace mr::worker {

class OutputEmitter final : public jobs::Emitter {
 public:
  OutputEmitter(FileWriter* out, jobs::OutputFormat format) : out_(out), format_(format) {}
  void Emit(std::string_view key, std::string_view value) override {
    switch (format_) {
      case jobs::OutputFormat::kKeyTabValue:
        out_->Append(key);
        out_->Append("\t");
        out_->Append(value);
        break;
      case jobs::OutputFormat::kKeyOnly:
        out_->Append(key);
        break;
      case jobs::OutputFormat::kValueOnly:
        out_->Append(value);
        break;
    }
    out_->Append("\n");
    ++records_;
  }
  uint64_t records() const { return records_; }

 private:
  FileWriter* out_;
  jobs::OutputFormat format_;
  uint64_t records_ = 0;
};

}  // namespace mr::worker
