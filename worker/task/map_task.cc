#include "worker/task/map_task.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "common/file_util.h"
#include "worker/task/counting_context.h"
#include "worker/task/map_output_collector.h"
#include "worker/task/slot_hold.h"

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

// Block-mode mappers get the split in chunks of whole lines this large: big enough
// that the per-call cost vanishes, small enough that cancellation and a failed
// emission (sticky in out.status()) are noticed within a few milliseconds.
constexpr size_t kBlockBytes = 4u << 20;

// End of the chunk starting at `pos`: just after the last '\n' within kBlockBytes,
// or after the first '\n' beyond it when a line is longer, or the end of data.
size_t ChunkEnd(std::string_view data, size_t pos) {
  if (data.size() - pos <= kBlockBytes) return data.size();
  const char* base = data.data() + pos;
  const void* nl = ::memrchr(base, '\n', kBlockBytes);
  if (nl != nullptr) return pos + static_cast<size_t>(static_cast<const char*>(nl) - base) + 1;
  size_t next = data.find('\n', pos + kBlockBytes);
  return next == std::string_view::npos ? data.size() : next + 1;
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

// Offers the split to the mapper's block fast path; *used = false if it declines
// (it then has seen nothing and the caller goes line by line).
Status MapSplitBlocks(const jobs::Split& split, std::string_view data, jobs::Mapper& mapper,
                      MapOutputCollector& out, TaskCounters* counters,
                      const std::atomic<bool>* cancel, std::atomic<uint64_t>* progress,
                      std::atomic<double>* fraction, double scale, bool* used) {
  jobs::InputBlock block;
  block.path = split.path;
  block.file_index = split.file_index;
  *used = false;
  for (size_t pos = 0; pos < data.size();) {
    size_t end = ChunkEnd(data, pos);
    block.data = data.substr(pos, end - pos);
    block.offset = split.offset + pos;
    if (!mapper.MapBlock(block, out)) {
      if (pos == 0) return Status::Ok();
      return Status::Internal("mapper declined a block after accepting the first");
    }
    *used = true;
    // Lines, as the line-by-line path counts them (a last line without '\n' too).
    counters->records_in += CountLines(block.data);
    Tick(progress);
    SetFraction(fraction, end, data.size(), scale);
    pos = end;
    if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
    MR_RETURN_IF_ERROR(out.status());
  }
  return Status::Ok();
}

// Feeds every line of the split to the mapper; a last line without '\n' counts.
Status MapSplit(const MapTaskSpec& spec, jobs::Mapper& mapper, MapOutputCollector& out,
                TaskCounters* counters, const std::atomic<bool>* cancel) {
  const jobs::Split& split = spec.split;
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::InputBytes> bytes,
                      spec.input_source->Read(split.path, split.offset, split.length));
  std::string_view data = bytes->data();
  if (data.size() != split.length) {
    return Status::IoError("input " + split.path + " holds " + std::to_string(data.size()) + " of the " +
                           std::to_string(split.length) + " bytes of its split at offset " +
                           std::to_string(split.offset) + " (changed since it was split)");
  }
  counters->bytes_in = data.size();
  bool block_mode = false;
  const double scale = WorkFractionScale(spec.speed, true);
  // A mapper that works in Finish reports its own fraction; reading is not its progress.
  std::atomic<double>* fraction = mapper.ReportsFraction() ? nullptr : spec.fraction;
  MR_RETURN_IF_ERROR(MapSplitBlocks(split, data, mapper, out, counters, cancel, spec.progress, fraction, scale,
                                    &block_mode));
  if (block_mode) return out.status();
  jobs::InputRecord rec;
  rec.path = split.path;
  rec.file_index = split.file_index;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    size_t end = nl == std::string_view::npos ? data.size() : nl;
    rec.line = data.substr(pos, end - pos);
    rec.offset = split.offset + pos;
    mapper.Map(rec, out);
    pos = end + 1;
    if ((++counters->records_in & 1023) == 0 || rec.line.size() > (1u << 20)) {
      Tick(spec.progress);
      SetFraction(fraction, pos, data.size(), scale);
      if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
      MR_RETURN_IF_ERROR(out.status());
    }
  }
  SetFraction(fraction, data.size(), data.size(), scale);
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

Result<MapTaskResult> RunMapTaskImpl(const MapTaskSpec& spec, const std::atomic<bool>* cancel) {
  const double started = MonotonicSeconds();
  if (spec.job == nullptr) return Status::InvalidArgument("map task without a job");
  if (spec.num_reduces == 0) return Status::InvalidArgument("map task with 0 reducers");
  if (!spec.split.path.empty() && spec.input_source == nullptr) {
    return Status::InvalidArgument("map task with a split but no input source");
  }
  MapTaskResult result;
  TaskCounters& counters = result.counters;
  CountingContext ctx(&counters, spec.speed, spec.progress, cancel, spec.fraction,
                      WorkFractionScale(spec.speed, !spec.split.path.empty()), spec.stderr_tail);
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Mapper> mapper, spec.job->NewMapper());
  std::unique_ptr<jobs::Reducer> combiner = spec.job->NewCombiner();
  MR_RETURN_IF_ERROR(mapper->Setup(ctx));
  if (combiner) MR_RETURN_IF_ERROR(combiner->Setup(ctx));
  MR_RETURN_IF_ERROR(MakeDirs(shuffle::MapOutputDir(spec.work_dir, spec.job_id)));
  const std::string data_path =
      shuffle::MapOutputDataPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt);
  std::unique_ptr<jobs::Partitioner> partitioner = spec.job->NewPartitioner();
  MapOutputCollector out(data_path, spec.num_reduces, spec.sort_buffer_bytes, partitioner.get(),
                         combiner.get(), &counters, cancel);
  if (!spec.split.path.empty()) MR_RETURN_IF_ERROR(MapSplit(spec, *mapper, out, &counters, cancel));
  MR_RETURN_IF_ERROR(mapper->Finish(out));
  MR_RETURN_IF_ERROR(out.status());
  if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
  MR_ASSIGN_OR_RETURN(result.index, out.Finish());
  MR_RETURN_IF_ERROR(HoldForWorker(spec, MonotonicSeconds() - started, cancel, &result));
  for (const auto& e : result.index.partitions) {
    counters.records_out += e.records;
    counters.bytes_out += e.length;
  }
  MR_RETURN_IF_ERROR(result.index.WriteTo(
      shuffle::MapOutputIndexPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt)));
  return result;
}

}  // namespace

Result<MapTaskResult> RunMapTask(const MapTaskSpec& spec, const std::atomic<bool>* cancel) {
  auto r = RunMapTaskImpl(spec, cancel);
  if (!r.ok()) {
    // Spills are removed by the collector.
    (void)shuffle::RemoveMapOutput(spec.work_dir, spec.job_id, spec.map_index, spec.attempt);
    return r.status().WithContext("map " + std::to_string(spec.map_index) + " attempt " +
                                  std::to_string(spec.attempt));
  }
  return r;
}

}  // namespace mr::worker
