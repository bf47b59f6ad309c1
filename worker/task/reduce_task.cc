#include "worker/task/reduce_task.h"

#include <unistd.h>

#include <memory>

#include "common/file_util.h"
#include "shuffle/format/mapped_file.h"
#include "shuffle/format/merger.h"
#include "worker/task/counting_context.h"
#include "worker/task/file_writer.h"
#include "worker/task/record_sink.h"

namespace mr::worker {

namespace {

// Formats reducer output per the job's OutputFormat.
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

std::string ParentDir(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? std::string() : path.substr(0, slash);
}

Status ReduceRuns(const ReduceTaskSpec& spec, const std::vector<std::string_view>& runs,
                  FileWriter* out, TaskCounters* counters, const std::atomic<bool>* cancel) {
  CountingContext ctx(counters, spec.speed, cancel);
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Reducer> reducer, spec.job->NewReducer());
  MR_RETURN_IF_ERROR(reducer->Setup(ctx));
  OutputEmitter emitter(out, spec.job->output_format());
  shuffle::RunMerger merger(runs);
  uint64_t keys = 0;
  while (merger.NextKey()) {
    MergerValues values(&merger, &counters->records_in);
    reducer->Reduce(merger.key(), values, emitter);
    if ((++keys & 1023) == 0) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        return Status::Aborted("reduce task cancelled");
      }
      MR_RETURN_IF_ERROR(out->status());
    }
  }
  MR_RETURN_IF_ERROR(merger.status());
  MR_RETURN_IF_ERROR(reducer->Finish(emitter));
  counters->records_out = emitter.records();
  return out->status();
}

Result<ReduceTaskResult> RunReduceTaskImpl(const ReduceTaskSpec& spec,
                                           const std::atomic<bool>* cancel) {
  if (spec.job == nullptr) return Status::InvalidArgument("reduce task without a job");
  ReduceTaskResult result;
  std::vector<shuffle::MappedFile> files;
  std::vector<std::string_view> runs;
  for (const auto& path : spec.run_files) {
    MR_ASSIGN_OR_RETURN(shuffle::MappedFile f, shuffle::MappedFile::Open(path));
    result.counters.bytes_in += f.data().size();
    runs.push_back(f.data());
    files.push_back(std::move(f));
  }
  std::string parent = ParentDir(spec.output_path);
  if (!parent.empty()) MR_RETURN_IF_ERROR(MakeDirs(parent));
  FileWriter out;
  MR_RETURN_IF_ERROR(out.Open(spec.output_path));
  MR_RETURN_IF_ERROR(ReduceRuns(spec, runs, &out, &result.counters, cancel));
  MR_RETURN_IF_ERROR(out.Close());
  result.counters.bytes_out = out.size();
  return result;
}

}  // namespace

Result<ReduceTaskResult> RunReduceTask(const ReduceTaskSpec& spec, const std::atomic<bool>* cancel) {
  auto r = RunReduceTaskImpl(spec, cancel);
  if (!r.ok()) {
    ::unlink(spec.output_path.c_str());
    return r.status().WithContext("reduce " + std::to_string(spec.reduce_index));
  }
  return r;
}

}  // namespace mr::worker
