// SortBuffer: the map side's bounded in-memory collection of emitted records.
// Keys and values go to an arena of fixed 1 MiB chunks (never moved: filling the buffer
// copies each record once, with no regrowth copies and no page touched twice) and each
// record is a fixed 32-byte entry (partition, 8-byte key prefix, pointer, insertion
// number), so collecting costs no per-record allocation and sorting mostly compares
// integers. Chunks come from and go back to a process-wide pool (at most kPoolBytes kept),
// so the next task's buffer reuses pages already mapped instead of faulting fresh ones.
// The caller spills when full(). Single-threaded (the pool is thread-safe).
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
  static constexpr size_t kChunkBytes = size_t{1} << 20;
  static constexpr size_t kPoolBytes = size_t{256} << 20;

  explicit SortBuffer(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}
  ~SortBuffer();
  SortBuffer(const SortBuffer&) = delete;
  SortBuffer& operator=(const SortBuffer&) = delete;

  void Add(uint32_t partition, std::string_view key, std::string_view value);
  // Memory in use (record bytes + entries) has reached the capacity.
  bool full() const { return arena_bytes_ + entries_.size() * sizeof(Entry) >= capacity_; }
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
    uint64_t prefix;    // first 8 key bytes, big-endian, zero padded
    const char* data;   // key bytes, value right after (in one chunk)
    uint32_t partition;
    uint32_t key_len;
    uint32_t value_len;
    uint32_t seq;       // insertion number: equal keys keep their order
  };
  struct Chunk {
    char* bytes;
    size_t size;  // kChunkBytes (pooled) or larger (one oversized record, freed directly)
  };
  static std::string_view KeyOf(const Entry& e) { return {e.data, e.key_len}; }
  static std::string_view ValueOf(const Entry& e) { return {e.data + e.key_len, e.value_len}; }
  // n contiguous arena bytes.
  char* Reserve(size_t n);
  void ReleaseChunks();
  void Sort();
  // Writes entries_[begin, end) (one partition) to out; returns the records written, or
  // the combiner's error (its FinishRun).
  Result<uint64_t> WritePartition(size_t begin, size_t end, jobs::Reducer* combiner, FileWriter* out,
                                  TaskCounters* counters);

  uint64_t capacity_;
  std::vector<Chunk> chunks_;
  size_t chunk_used_ = 0;     // bytes used of chunks_.back()
  uint64_t arena_bytes_ = 0;  // record bytes held
  std::vector<Entry> entries_;
};

}  // namespace mr::worker
