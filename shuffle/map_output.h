// The on-disk form of one map attempt's output (docs/map-output-format.md):
//   <dir>/j<job>/m<map>-a<attempt>.data   partitions 0..R-1 back to back; each
//                                         partition is a run of records sorted by key
//   <dir>/j<job>/m<map>-a<attempt>.index  R entries, see MapOutputIndex
// A record is varint32 key length, varint32 value length, key bytes, value bytes.
// The index is written (atomically) after the data file is complete, so a present
// index means a complete output. Each partition carries the CRC32C of its bytes, computed
// while the data was written; fetchers and reducers verify it (docs/reliability.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::shuffle {

struct PartitionExtent {
  uint64_t offset = 0;   // byte offset in the data file
  uint64_t length = 0;   // bytes
  uint64_t records = 0;
  uint32_t crc32c = 0;   // of the partition's `length` bytes (common/crc32c.h); 0 if empty
};

struct MapOutputIndex {
  std::vector<PartitionExtent> partitions;

  // Index file (version 2): magic "MRIX", u32 version=2, u32 R, then R x (u64 offset,
  // u64 length, u64 records, u32 crc32c), all little-endian, then the u32 CRC32C of all
  // preceding bytes. Decode: InvalidArgument for a corrupt index, an extent gap, or a
  // version-1 index (no data checksums: its map must run again); validates every extent.
  std::string Encode() const;
  static Result<MapOutputIndex> Decode(std::string_view bytes);
  // Atomic (written beside, renamed into place); fsynced before the rename unless !sync.
  Status WriteTo(const std::string& path, bool sync = true) const;
  static Result<MapOutputIndex> ReadFrom(const std::string& path);
};

std::string MapOutputDir(const std::string& work_dir, uint64_t job_id);
std::string MapOutputDataPath(const std::string& work_dir, uint64_t job_id, uint32_t map_index,
                              uint32_t attempt);
std::string MapOutputIndexPath(const std::string& work_dir, uint64_t job_id, uint32_t map_index,
                               uint32_t attempt);
// Removes one attempt's output: its index first (and a leftover index .tmp), so a reader
// never sees an index without its data, then the data file. Missing files are fine;
// returns the first other error.
Status RemoveMapOutput(const std::string& work_dir, uint64_t job_id, uint32_t map_index, uint32_t attempt);
// The inverses, for a worker listing what it holds: a job directory's name ("j<id>") and
// an index file's name ("m<map>-a<attempt>.index", attempt > 0). False for anything else.
bool ParseMapOutputDirName(std::string_view name, uint64_t* job_id);
bool ParseMapOutputIndexName(std::string_view name, uint32_t* map_index, uint32_t* attempt);

// Record encoding shared by map output, spills and fetched runs.
void AppendRecord(std::string_view key, std::string_view value, std::string* out);
// Parses one record at *pos; advances *pos. False if the bytes are malformed or
// truncated (then key/value are unspecified).
bool ParseRecord(std::string_view buf, size_t* pos, std::string_view* key, std::string_view* value);

}  // namespace mr::shuffle
