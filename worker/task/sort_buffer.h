// SortBuffer: the map side's bounded in-memory collection of emitted records.
// Keys and values go to one arena and each record is a fixed 32-byte entry
// (partition, 8-byte key prefix, arena offset), so collecting costs no per-record
// allocation and sorting mostly compares integers. The caller spills when full().
// Single-threaded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/job.h"
#include "shuffle/map_output.h"
#include "worker/task/file_writer.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class SortBuffer {
 public:
  explicit SortBuffer(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  void Add(uint32_t partition, std::string_view key, std::string_view value);
  // Memory in use (arena + entries) has reached the capacity.
  bool full() const { return arena_.size() + entries_.size() * sizeof(Entry) >= capacity_; }
  bool empty() const { return entries_.empty(); }

  // Sorts by (partition, key), equal keys in insertion order, and appends one
  // sorted run per partition to *out (each key group through `combiner` if not
  // null, ending each partition's run with its FinishRun), recording num_partitions
  // extents relative to `base` (out's size at the start) with each partition's CRC32C.
  // Clears the buffer. Returns the combiner's error, else out->status().
  // REQUIRES: out was opened with checksums on.
  Status WriteSorted(uint32_t num_partitions, jobs::Reducer* combiner, FileWriter* out,
                     std::vector<shuffle::PartitionExtent>* extents, TaskCounters* counters);

 private:
  struct Entry {
    uint64_t prefix;  // first 8 key bytes, big-endian, zero padded
    uint64_t offset;  // key bytes at arena_[offset], value right after
    uint32_t partition;
    uint32_t key_len;
    uint32_t value_len;
  };
  std::string_view KeyOf(const Entry& e) const { return {arena_.data() + e.offset, e.key_len}; }
  std::string_view ValueOf(const Entry& e) const {
    return {arena_.data() + e.offset + e.key_len, e.value_len};
  }
  void Sort();
  // Writes entries_[begin, end) (one partition) to out; returns the records written, or
  // the combiner's error (its FinishRun).
  Result<uint64_t> WritePartition(size_t begin, size_t end, jobs::Reducer* combiner, FileWriter* out,
                                  TaskCounters* counters);

  uint64_t capacity_;
  std::string arena_;
  std::vector<Entry> entries_;
};

}  // namespace mr::worker
