#include "worker/task/map_task.h"

#include <unistd.h>

#include <memory>
#include <vector>

#include "common/file_util.h"
#include "shuffle/format/mapped_file.h"
#include "worker/task/counting_context.h"
#include "worker/task/map_output_collector.h"

namespace mr::worker {

namespace {

bool Cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

// Feeds every line of the split to the mapper; a last line without '\n' counts.
Status MapSplit(const MapTaskSpec& spec, jobs::Mapper& mapper, MapOutputCollector& out,
                TaskCounters* counters, const std::atomic<bool>* cancel) {
  const jobs::Split& split = spec.split;
  MR_ASSIGN_OR_RETURN(shuffle::MappedFile file,
                      shuffle::MappedFile::Open(split.path, split.offset, split.length));
  std::string_view data = file.data();
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
    if ((++counters->records_in & 1023) == 0) {
      if (Cancelled(cancel)) return Status::Aborted("map task cancelled");
      MR_RETURN_IF_ERROR(out.status());
    }
  }
  counters->bytes_in = data.size();
  return out.status();
}

Result<MapTaskResult> RunMapTaskImpl(const MapTaskSpec& spec, const std::atomic<bool>* cancel) {
  if (spec.job == nullptr) return Status::InvalidArgument("map task without a job");
  if (spec.num_reduces == 0) return Status::InvalidArgument("map task with 0 reducers");
  MapTaskResult result;
  TaskCounters& counters = result.counters;
  CountingContext ctx(&counters, spec.speed);
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
    // Spills are removed by the collector; the index goes first so that a reader
    // never sees an index without its data.
    std::string index =
        shuffle::MapOutputIndexPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt);
    ::unlink(index.c_str());
    ::unlink((index + ".tmp").c_str());
    ::unlink(shuffle::MapOutputDataPath(spec.work_dir, spec.job_id, spec.map_index, spec.attempt)
                 .c_str());
    return r.status().WithContext("map " + std::to_string(spec.map_index) + " attempt " +
                                  std::to_string(spec.attempt));
  }
  return r;
}

}  // namespace mr::worker
