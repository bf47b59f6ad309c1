#include "worker/task/map_output_collector.h"

#include <unistd.h>

#include "common/mapped_file.h"
#include "shuffle/format/merger.h"
#include "worker/task/record_sink.h"

namespace mr::worker {

MapOutputCollector::MapOutputCollector(std::string data_path, uint32_t num_partitions,
                                       uint64_t buffer_bytes, const jobs::Partitioner* partitioner,
                                       jobs::Reducer* combiner, TaskCounters* counters,
                                       const std::atomic<bool>* cancel)
    : data_path_(std::move(data_path)),
      num_partitions_(num_partitions),
      partitioner_(partitioner),
      combiner_(combiner),
      counters_(counters),
      cancel_(cancel),
      buffer_(buffer_bytes) {}

MapOutputCollector::~MapOutputCollector() {
  for (const auto& s : spills_) ::unlink(s.path.c_str());
}

void MapOutputCollector::Emit(std::string_view key, std::string_view value) {
  if (!status_.ok()) return;
  uint32_t p = partitioner_->Partition(key, num_partitions_);
  if (p >= num_partitions_) {
    status_ = Status::Internal("partitioner returned " + std::to_string(p) + " of " +
                               std::to_string(num_partitions_));
    return;
  }
  buffer_.Add(p, key, value);
  if (buffer_.full()) status_ = SpillBuffer();
}

Status MapOutputCollector::SpillBuffer() {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    return Status::Aborted("map task cancelled");
  }
  std::string path = data_path_ + ".spill" + std::to_string(spills_.size());
  spills_.push_back(Spill{path, {}});  // registered first so it is removed on failure
  FileWriter w;
  MR_RETURN_IF_ERROR(w.Open(path, /*checksum=*/true, FileWriter::kMappedWriteBytes));  // the spill merge maps it
  MR_RETURN_IF_ERROR(
      buffer_.WriteSorted(num_partitions_, combiner_, &w, &spills_.back().extents, counters_));
  MR_RETURN_IF_ERROR(w.Close());
  counters_->spills = spills_.size();
  return Status::Ok();
}

Result<shuffle::MapOutputIndex> MapOutputCollector::Finish() {
  MR_RETURN_IF_ERROR(status_);
  shuffle::MapOutputIndex index;
  FileWriter out;
  MR_RETURN_IF_ERROR(out.Open(data_path_, /*checksum=*/true, FileWriter::kMappedWriteBytes));  // reducers map it
  if (spills_.empty()) {
    // Everything fit in memory: the one sorted run is the output.
    MR_RETURN_IF_ERROR(
        buffer_.WriteSorted(num_partitions_, combiner_, &out, &index.partitions, counters_));
  } else {
    if (!buffer_.empty()) MR_RETURN_IF_ERROR(SpillBuffer());
    MR_RETURN_IF_ERROR(MergeSpills(&out, &index.partitions));
  }
  MR_RETURN_IF_ERROR(out.Close());
  for (const auto& s : spills_) ::unlink(s.path.c_str());
  spills_.clear();
  return index;
}

Status MapOutputCollector::MergeSpills(FileWriter* out,
                                       std::vector<shuffle::PartitionExtent>* extents) {
  std::vector<MappedFile> files;
  std::vector<std::string_view> views;
  for (const auto& s : spills_) {
    MR_ASSIGN_OR_RETURN(MappedFile f, MappedFile::Open(s.path));
    views.push_back(f.data());
    files.push_back(std::move(f));
  }
  extents->assign(num_partitions_, {});
  for (uint32_t p = 0; p < num_partitions_; ++p) {
    if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
      return Status::Aborted("map task cancelled");
    }
    MR_RETURN_IF_ERROR(MergePartition(p, views, out, &(*extents)[p]));
  }
  return out->status();
}

Status MapOutputCollector::MergePartition(uint32_t p, const std::vector<std::string_view>& files,
                                          FileWriter* out, shuffle::PartitionExtent* extent) {
  std::vector<std::string_view> runs;
  std::vector<uint32_t> crcs;
  for (size_t s = 0; s < spills_.size(); ++s) {
    const auto& e = spills_[s].extents[p];
    if (e.offset + e.length > files[s].size()) {
      return Status::Internal("spill extent past end of " + spills_[s].path);
    }
    runs.push_back(files[s].substr(e.offset, e.length));
    crcs.push_back(e.crc32c);
  }
  extent->offset = out->size();
  (void)out->TakeCrc();  // the partition's segment starts here
  // The merger checks each spill's bytes as it reads them: a spill that went bad on disk
  // fails the attempt (the map runs again; its output is removed) instead of being merged
  // into output that would then carry a checksum vouching for it.
  shuffle::RunMerger merger(std::move(runs), std::move(crcs));
  RecordSink sink(out);
  while (merger.NextKey()) {
    if (combiner_ != nullptr) {
      MergerValues values(&merger, &counters_->combine_in);
      combiner_->Reduce(merger.key(), values, sink);
    } else {
      std::string_view v;
      while (merger.NextValue(&v)) sink.Emit(merger.key(), v);
    }
  }
  if (combiner_ != nullptr && merger.status().ok()) MR_RETURN_IF_ERROR(combiner_->FinishRun(sink));
  if (!merger.corrupt_runs().empty()) {
    return Status::DataLoss("spill " + spills_[merger.corrupt_runs().front()].path + " partition " + std::to_string(p) +
                            ": " + merger.status().message());
  }
  MR_RETURN_IF_ERROR(merger.status());
  if (combiner_ != nullptr) counters_->combine_out += sink.records();
  extent->records = sink.records();
  extent->length = out->size() - extent->offset;
  extent->crc32c = out->TakeCrc();
  return Status::Ok();
}

}  // namespace mr::worker
