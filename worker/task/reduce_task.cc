#include "worker/task/reduce_task.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "common/file_util.h"
#include "common/log.h"
#include "common/mapped_file.h"
#include "shuffle/format/merger.h"
#include "shuffle/map_output.h"
#include "worker/task/counting_context.h"
#include "worker/task/file_writer.h"
#include "worker/task/output_emitter.h"
#include "worker/task/record_sink.h"
#include "worker/task/task_dir.h"

namespace mr::worker {

namespace {

std::string ParentDir(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? std::string() : path.substr(0, slash);
}

std::string Hex(uint32_t v) {
  char b[11];
  std::snprintf(b, sizeof(b), "0x%08x", v);
  return b;
}

// Every this many merged bytes, the pages of the runs the merge is done with are released.
constexpr uint64_t kReleaseEveryBytes = uint64_t{32} << 20;

// Drops the mapped pages of each run's prefix the merger is done with (shuffle/format/
// merger.h done_bytes): the runs are file mappings, so the pages stay in the page cache and a
// read would fault them back in, but the reducer's RSS is the merge's window, not every byte
// fetched (a 4 GiB sort with one reducer peaked at 4.2 GB RSS).
void ReleaseDone(const shuffle::RunMerger& merger, const std::vector<std::string_view>& runs) {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (uint32_t i = 0; i < merger.num_runs() && i < runs.size(); ++i) {
    const uintptr_t start = reinterpret_cast<uintptr_t>(runs[i].data());
    const uintptr_t begin = (start + page - 1) / page * page;
    const uintptr_t end = (start + merger.done_bytes(i)) / page * page;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  }
}

// The merge checks each run's bytes against the CRC it was fetched with as it reads them
// (shuffle/format/merger.h): a run whose local copy went bad ends the task in DataLoss
// naming the run's file, with the run in *corrupt, and whatever was written is discarded.
Status MergeStatus(const ReduceTaskSpec& spec, const shuffle::RunMerger& merger, std::vector<uint32_t>* corrupt) {
  const Status& s = merger.status();
  if (s.code() != StatusCode::kDataLoss || merger.corrupt_runs().empty()) return s;
  const uint32_t first = merger.corrupt_runs().front();
  if (corrupt != nullptr) *corrupt = merger.corrupt_runs();
  return Status::DataLoss("local copy of run " + spec.run_files[first] + " failed its checksum: expected crc32c " +
                          Hex(spec.run_crcs[first]) + " (" + s.message() + ")");
}

// REQUIRES: every run is a read-only file mapping (MappedFile): ReleaseDone drops its pages.
Status ReduceRuns(const ReduceTaskSpec& spec, const std::vector<std::string_view>& runs,
                  FileWriter* out, TaskCounters* counters, const std::atomic<bool>* cancel,
                  std::vector<uint32_t>* corrupt) {
  CountingContext ctx(counters, spec.speed, spec.progress, cancel, spec.fraction, 1.0, spec.stderr_tail);
  jobs::TaskIdentity task = spec.identity;
  std::unique_ptr<TaskDir> dir;  // declared before the reducer: it outlives the reducer's program
  if (spec.job->NeedsWorkingDir()) {
    MR_ASSIGN_OR_RETURN(dir, TaskDir::Create(shuffle::MapOutputDir(spec.work_dir, spec.job_id),
                                             AttemptDirName(false, spec.reduce_index, task.attempt),
                                             spec.job->ShippedFiles()));
    task.working_dir = dir->path();
  }
  ctx.set_task(&task);
  ctx.set_status_sink(spec.status_sink);
  ctx.set_log(spec.log);
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Reducer> reducer, spec.job->NewReducer());
  // A reducer that works in Finish reports its own fraction; the merge is not its progress.
  std::atomic<double>* fraction = reducer->ReportsFraction() ? nullptr : spec.fraction;
  MR_RETURN_IF_ERROR(reducer->Setup(ctx));
  OutputEmitter emitter(out, spec.job->output_format());
  shuffle::RunMerger merger(runs, spec.run_crcs);
  uint64_t total = 0;
  for (const auto& r : runs) total += r.size();
  uint64_t keys = 0;
  uint64_t released_at = 0;  // merger.bytes_consumed() when pages were last released
  while (merger.NextKey()) {
    MergerValues values(&merger, &counters->records_in);
    reducer->Reduce(merger.key(), values, emitter);
    if ((++keys & 1023) == 0) {
      ctx.Progress();
      if (fraction != nullptr && total > 0) {
        fraction->store(static_cast<double>(merger.bytes_consumed()) / static_cast<double>(total),
                             std::memory_order_relaxed);
      }
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        return Status::Aborted("reduce task cancelled");
      }
      MR_RETURN_IF_ERROR(out->status());
      if (const uint64_t consumed = merger.bytes_consumed(); consumed - released_at >= kReleaseEveryBytes) {
        ReleaseDone(merger, runs);
        released_at = consumed;
      }
    }
  }
  MR_RETURN_IF_ERROR(MergeStatus(spec, merger, corrupt));
  if (fraction != nullptr) fraction->store(1.0, std::memory_order_relaxed);  // every run consumed
  MR_RETURN_IF_ERROR(reducer->Finish(emitter));
  counters->records_out = emitter.records();
  return out->status();
}

Result<ReduceTaskResult> RunReduceTaskImpl(const ReduceTaskSpec& spec, const std::atomic<bool>* cancel,
                                           std::vector<uint32_t>* corrupt) {
  if (spec.job == nullptr) return Status::InvalidArgument("reduce task without a job");
  if (spec.run_crcs.size() != spec.run_files.size()) {
    return Status::InvalidArgument("reduce task: " + std::to_string(spec.run_crcs.size()) + " checksums for " +
                                   std::to_string(spec.run_files.size()) + " runs");
  }
  if (!spec.run_ranges.empty() && spec.run_ranges.size() != spec.run_files.size()) {
    return Status::InvalidArgument("reduce task: " + std::to_string(spec.run_ranges.size()) + " ranges for " +
                                   std::to_string(spec.run_files.size()) + " runs");
  }
  ReduceTaskResult result;
  std::vector<MappedFile> files;
  std::vector<std::string_view> runs;
  for (size_t i = 0; i < spec.run_files.size(); ++i) {
    const RunRange range = spec.run_ranges.empty() ? RunRange{} : spec.run_ranges[i];
    MR_ASSIGN_OR_RETURN(MappedFile f, MappedFile::Open(spec.run_files[i], range.offset, range.length));
    result.counters.bytes_in += f.data().size();
    runs.push_back(f.data());
    files.push_back(std::move(f));
  }
  std::string parent = ParentDir(spec.output_path);
  if (!parent.empty()) MR_RETURN_IF_ERROR(MakeDirs(parent));
  FileWriter out;
  MR_RETURN_IF_ERROR(out.Open(spec.output_path));
  MR_RETURN_IF_ERROR(ReduceRuns(spec, runs, &out, &result.counters, cancel, corrupt));
  MR_RETURN_IF_ERROR(out.Close());
  result.counters.bytes_out = out.size();
  return result;
}

}  // namespace

Result<ReduceTaskResult> RunReduceTask(const ReduceTaskSpec& spec, const std::atomic<bool>* cancel,
                                       std::vector<uint32_t>* corrupt_runs) {
  auto r = RunReduceTaskImpl(spec, cancel, corrupt_runs);
  if (!r.ok()) {
    ::unlink(spec.output_path.c_str());
    return r.status().WithContext("reduce " + std::to_string(spec.reduce_index));
  }
  return r;
}

Result<ReduceTaskResult> RunReduceTaskWithRefetch(ReduceTaskSpec spec, const std::atomic<bool>* cancel,
                                                  const RefetchRun& refetch, int max_refetches) {
  std::vector<int> refetches(spec.run_files.size(), 0);
  // Each round either ends the task or spends one refetch of some run: bounded.
  for (;;) {
    std::vector<uint32_t> corrupt;
    auto r = RunReduceTask(spec, cancel, &corrupt);
    if (r.ok() || corrupt.empty()) return r;
    for (uint32_t run : corrupt) {
      if (refetches[run] >= max_refetches) {
        return Status::DataLoss("local copy of map " + std::to_string(run) + "'s run keeps failing its checksum (" +
                                std::to_string(refetches[run]) + " refetches): " + r.status().message());
      }
      ++refetches[run];
      MR_LOG_WARN("reduce {}/{}: run of map {} failed its checksum ({}); refetching it ({}/{})", spec.job_id,
                  spec.reduce_index, run, r.status().message(), refetches[run], max_refetches);
      RunRange range;
      auto crc = refetch(run, &range);
      if (!crc.ok()) {
        return crc.status().WithContext("reduce " + std::to_string(spec.reduce_index) + ": refetching the run of map " +
                                        std::to_string(run));
      }
      spec.run_crcs[run] = *crc;
      if (!spec.run_ranges.empty()) spec.run_ranges[run] = range;
    }
  }
}

}  // namespace mr::worker
