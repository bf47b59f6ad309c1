#include "worker/task/map_task.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "common/file_util.h"
#include "jobs/split_reader.h"
#include "worker/task/counting_context.h"
#include "worker/task/map_output_collector.h"
#include "worker/task/output_emitter.h"
#include "worker/task/slot_hold.h"
#include "worker/task/task_dir.h"

namespace mr::worker {

namespace {

bool Cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

void Tick(std::atomic<uint64_t>* progress) {
  if (progress != nullptr) progress->fetch_add(1, std::memory_order_relaxed);
}

// The share of the split consumed once `pos` of its `size` bytes are read, times `scale`
// (a slow worker's work is only that share of its run: slot_hold.h).
void SetFraction(std::atomic<double>* fraction, size_t pos, size_t size, double scale) {
  if (fraction != nullptr && size > 0) {
    fraction->store(scale * std::min(1.0, static_cast<double>(pos) / static_cast<double>(size)),
                    std::memory_order_relaxed);
  }
}

// Lines in `data`, a last one without '\n' included. memchr, not std::count:
// GCC does not vectorise the latter at -O2 and it showed up at 16% of a profile.
uint64_t CountLines(std::string_view data) {
  uint64_t n = 0;
  const char* p = data.data();
  const char* end = p + data.size();
  while (p < end) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
    ++n;
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
  }
  return n;
}

// Where a map's records go and whether that has failed: the collector (to the shuffle) or,
// for a map-only job, the output file.
struct MapOut {
  jobs::Emitter* emitter;
  std::function<Status()> status;
};

// Feeds the lines of one run of whole lines to the mapper one by one; a last line without
// '\n' counts.
// `fraction_at(pos)` sets the task's fraction when `pos` bytes of the run are done.
Status MapLines(std::string_view data, uint64_t offset, jobs::Mapper& mapper, jobs::InputRecord* rec,
                const MapOut& out, TaskCounters* counters, const std::atomic<bool>* cancel,
                std::atomic<uint64_t>* progress, const std::function<void(size_t)>& fraction_at) {
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    size_t end = nl == std::string_view::npos ? data.size() : nl;
    rec->line = data.substr(pos, end - pos);
    rec->offset = offset + pos;
    mapper.Map(*rec, *out.emitter);
    pos = end + 1;
    if ((++counters->records_in & 1023) == 0 || rec->line.size() > (1u << 20)) {
      Tick(progress);
      fraction_at(std::min(pos, data.size()));
      if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
      MR_RETURN_IF_ERROR(out.status());
    }
  }
  return Status::Ok();
}

// Feeds the split to the mapper run by run (jobs/split_reader.h): to its MapBlock fast path
// when it takes the first run, else line by line.
Status MapSplit(const MapTaskSpec& spec, jobs::Mapper& mapper, const MapOut& out, TaskCounters* counters,
                const std::atomic<bool>* cancel) {
  const jobs::Split& split = spec.split;
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::SplitReader> reader, jobs::SplitReader::Open(*spec.input_source, split));
  const double scale = WorkFractionScale(spec.speed, true);
  // A mapper that works in Finish reports its own fraction; reading is not its progress.
  std::atomic<double>* fraction = mapper.ReportsFraction() ? nullptr : spec.fraction;
  jobs::InputBlock block;
  block.path = split.path;
  block.file_index = split.file_index;
  jobs::InputRecord rec;
  rec.path = split.path;
  rec.file_index = split.file_index;
  bool decided = false, block_mode = false;
  for (;;) {
    uint64_t offset = 0;
    MR_ASSIGN_OR_RETURN(std::string_view data, reader->Next(&offset));
    if (data.empty()) break;
    if (!decided || block_mode) {
      block.data = data;
      block.offset = offset;
      const bool took = mapper.MapBlock(block, *out.emitter);
      if (decided && !took) return Status::Internal("mapper declined a block after accepting the first");
      if (!decided) block_mode = took;
      decided = true;
    }
    if (block_mode) {
      // Lines, as the line-by-line path counts them (a last line without '\n' too).
      counters->records_in += CountLines(data);
    } else {
      // A plain file's run starts `offset - split.offset` into the split; a gzip file's
      // offsets are in the inflated stream, so its fraction moves by window only.
      const uint64_t run_start = offset - split.offset;
      auto fraction_at = [&](size_t pos) {
        if (jobs::CodecOf(split.path) == jobs::Codec::kNone) SetFraction(fraction, run_start + pos, split.length, scale);
      };
      MR_RETURN_IF_ERROR(MapLines(data, offset, mapper, &rec, out, counters, cancel, spec.progress, fraction_at));
    }
    Tick(spec.progress);
    SetFraction(fraction, reader->consumed(), split.length, scale);
    if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
    MR_RETURN_IF_ERROR(out.status());
  }
  counters->bytes_in = reader->consumed();
  SetFraction(fraction, split.length, split.length, scale);
  return out.status();
}

// After the real work: the slot is held for the worker's speed and the attempt's
// straggler delay (slot_hold.h), both recorded in `result`.
Status HoldForWorker(const MapTaskSpec& spec, double work_seconds, const std::atomic<bool>* cancel,
                     MapTaskResult* result) {
  result->work_seconds = work_seconds;
  result->speed_hold_seconds = SpeedHoldSeconds(spec.speed, work_seconds, !spec.split.path.empty());
  result->straggler_delay_seconds = StragglerDelay(spec.straggler, spec.job_id, spec.map_index, spec.attempt);
  return HoldSlot(result->speed_hold_seconds + result->straggler_delay_seconds, cancel, spec.progress,
                  spec.fraction);
}

// The records of a map-only job's map: straight to its output file.
Status MapToOutput(const MapTaskSpec& spec, jobs::Mapper& mapper, TaskCounters* counters,
                   const std::atomic<bool>* cancel) {
  FileWriter file;
  MR_RETURN_IF_ERROR(file.Open(spec.output_path));
  OutputEmitter emitter(&file, spec.job->output_format());
  MapOut out{&emitter, [&file] { return file.status(); }};
  if (!spec.split.path.empty()) MR_RETURN_IF_ERROR(MapSplit(spec, mapper, out, counters, cancel));
  MR_RETURN_IF_ERROR(mapper.Finish(emitter));
  MR_RETURN_IF_ERROR(file.Close());
  if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
  counters->records_out = emitter.records();
  counters->bytes_out = file.size();
  return Status::Ok();
}

// The records of a map with reducers: partitioned, sorted, combined, written as its map
// output (data file; the index comes last, from the caller).
Result<shuffle::MapOutputIndex> MapToShuffle(const MapTaskSpec& spec, jobs::Mapper& mapper, jobs::Reducer* combiner,
                                             TaskCounters* counters, const std::atomic<bool>* cancel) {
  MR_RETURN_IF_ERROR(MakeDirs(shuffle::MapOutputDir(spec.work_dir, spec.job_id)));
  const std::string data_path =
      shuffle::MapOutputDataPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt);
  std::unique_ptr<jobs::Partitioner> partitioner = spec.job->NewPartitioner();
  MapOutputCollector collector(data_path, spec.num_reduces, spec.sort_buffer_bytes, partitioner.get(), combiner,
                               counters, cancel);
  MapOut out{&collector, [&collector] { return collector.status(); }};
  if (!spec.split.path.empty()) MR_RETURN_IF_ERROR(MapSplit(spec, mapper, out, counters, cancel));
  MR_RETURN_IF_ERROR(mapper.Finish(collector));
  MR_RETURN_IF_ERROR(collector.status());
  if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
  return collector.Finish();
}

Result<MapTaskResult> RunMapTaskImpl(const MapTaskSpec& spec, const std::atomic<bool>* cancel) {
  const double started = MonotonicSeconds();
  if (spec.job == nullptr) return Status::InvalidArgument("map task without a job");
  if (spec.num_reduces == 0 && spec.output_path.empty()) {
    return Status::InvalidArgument("map task of a map-only job without an output file");
  }
  if (!spec.split.path.empty() && spec.input_source == nullptr) {
    return Status::InvalidArgument("map task with a split but no input source");
  }
  MapTaskResult result;
  TaskCounters& counters = result.counters;
  CountingContext ctx(&counters, spec.speed, spec.progress, cancel, spec.fraction,
                      WorkFractionScale(spec.speed, !spec.split.path.empty()), spec.stderr_tail);
  jobs::TaskIdentity task = spec.identity;
  std::unique_ptr<TaskDir> dir;  // declared before the mapper: it outlives the mapper's program
  if (spec.job->NeedsWorkingDir()) {
    MR_ASSIGN_OR_RETURN(dir, TaskDir::Create(shuffle::MapOutputDir(spec.work_dir, spec.job_id),
                                             AttemptDirName(true, spec.map_index, spec.attempt),
                                             spec.job->ShippedFiles()));
    task.working_dir = dir->path();
  }
  ctx.set_task(&task);
  ctx.set_status_sink(spec.status_sink);
  ctx.set_log(spec.log);
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Mapper> mapper, spec.job->NewMapper());
  // A map-only job's map neither sorts nor combines.
  std::unique_ptr<jobs::Reducer> combiner = spec.num_reduces == 0 ? nullptr : spec.job->NewCombiner();
  MR_RETURN_IF_ERROR(mapper->Setup(ctx));
  if (combiner) MR_RETURN_IF_ERROR(combiner->Setup(ctx));
  if (spec.num_reduces == 0) {
    MR_RETURN_IF_ERROR(MapToOutput(spec, *mapper, &counters, cancel));
    MR_RETURN_IF_ERROR(HoldForWorker(spec, MonotonicSeconds() - started, cancel, &result));
    return result;
  }
  MR_ASSIGN_OR_RETURN(result.index, MapToShuffle(spec, *mapper, combiner.get(), &counters, cancel));
  MR_RETURN_IF_ERROR(HoldForWorker(spec, MonotonicSeconds() - started, cancel, &result));
  for (const auto& e : result.index.partitions) {
    counters.records_out += e.records;
    counters.bytes_out += e.length;
  }
  MR_RETURN_IF_ERROR(result.index.WriteTo(
      shuffle::MapOutputIndexPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt), spec.sync_output_index));
  return result;
}

}  // namespace

Result<MapTaskResult> RunMapTask(const MapTaskSpec& spec, const std::atomic<bool>* cancel) {
  auto r = RunMapTaskImpl(spec, cancel);
  if (!r.ok()) {
    // Spills are removed by the collector.
    (void)shuffle::RemoveMapOutput(spec.work_dir, spec.job_id, spec.map_index, spec.attempt);
    if (!spec.output_path.empty()) ::unlink(spec.output_path.c_str());
    return r.status().WithContext("map " + std::to_string(spec.map_index) + " attempt " +
                                  std::to_string(spec.attempt));
  }
  return r;
}

}  // namespace mr::worker
