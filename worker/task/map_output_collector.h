// MapOutputCollector: the Emitter a map task's mapper writes to. Partitions each
// record, collects it in a SortBuffer and spills a sorted (combined) run file
// when the buffer is full; Finish() merges the spills per partition (combining
// again) into the map output data file and returns its index, with each partition's
// CRC32C computed as it is written. A spill partition that no longer matches the CRC it
// was written with fails Finish() with DataLoss. Spill files are removed on destruction.
// Single-threaded; emission errors are sticky in status().
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "jobs/job.h"
#include "shuffle/map_output.h"
#include "worker/task/sort_buffer.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class MapOutputCollector final : public jobs::Emitter {
 public:
  // Pointers are not owned and must outlive the collector; combiner may be null.
  MapOutputCollector(std::string data_path, uint32_t num_partitions, uint64_t buffer_bytes,
                     const jobs::Partitioner* partitioner, jobs::Reducer* combiner,
                     TaskCounters* counters, const std::atomic<bool>* cancel);
  ~MapOutputCollector() override;
  MapOutputCollector(const MapOutputCollector&) = delete;
  MapOutputCollector& operator=(const MapOutputCollector&) = delete;

  void Emit(std::string_view key, std::string_view value) override;
  const Status& status() const { return status_; }
  // Writes the data file (not the index). Call once, after the last Emit.
  Result<shuffle::MapOutputIndex> Finish();

 private:
  struct Spill {
    std::string path;
    std::vector<shuffle::PartitionExtent> extents;
  };
  Status SpillBuffer();
  Status MergeSpills(FileWriter* out, std::vector<shuffle::PartitionExtent>* extents);
  Status MergePartition(uint32_t p, const std::vector<std::string_view>& files, FileWriter* out,
                        shuffle::PartitionExtent* extent);

  std::string data_path_;
  uint32_t num_partitions_;
  const jobs::Partitioner* partitioner_;
  jobs::Reducer* combiner_;
  TaskCounters* counters_;
  const std::atomic<bool>* cancel_;
  SortBuffer buffer_;
  std::vector<Spill> spills_;
  Status status_;
};

}  // namespace mr::worker
