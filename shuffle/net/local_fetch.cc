#include "shuffle/net/local_fetch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "common/mapped_file.h"
#include "shuffle/map_output.h"
#include "shuffle/net/run_commit.h"

namespace mr::shuffle {

namespace {

std::string Name(const FetchTarget& t) {
  return "local map output of job " + std::to_string(t.job_id) + " map " + std::to_string(t.map_index) + " attempt " +
         std::to_string(t.attempt) + " partition " + std::to_string(t.partition);
}

}  // namespace

Result<FetchResult> LinkPartition(const std::string& data_path, const PartitionExtent& ext,
                                  const FetchTarget& target, const std::string& dest_path) {
  // Linked under a name of this fetch's own, checked, then committed (shuffle/net/run_commit.h):
  // another attempt's fetch may be filling dest_path at the same time.
  const std::string temp = RunTempPath(dest_path, target.attempt);
  if (::link(data_path.c_str(), temp.c_str()) != 0) {
    const int e = errno;
    if (e == ENOENT && !PathExists(data_path)) {
      return Status::NotFound(Name(target) + ": " + data_path + " is gone");
    }
    if (e == EXDEV || e == EPERM || e == EMLINK || e == ENOTSUP || e == EOPNOTSUPP) {
      return Status::FailedPrecondition(Name(target) + ": link " + data_path + ": " + std::strerror(e));
    }
    return Status::IoError("link " + data_path + " as " + temp + ": " + std::strerror(e));
  }
  // The extent is checked through the link: what the reducer will merge is what was checked.
  auto mapped = MappedFile::Open(temp, ext.offset, ext.length);
  if (!mapped.ok() || crc32c::Value(mapped->data()) != ext.crc32c) {
    ::unlink(temp.c_str());
    return Status::DataLoss(Name(target) + ": " +
                            (mapped.ok() ? "its bytes fail their checksum" : mapped.status().message()));
  }
  if (target.received != nullptr) target.received->store(ext.length, std::memory_order_relaxed);
  FetchResult result;
  result.offset = ext.offset;
  result.bytes = ext.length;
  result.records = ext.records;
  result.crc32c = ext.crc32c;
  return CommitRun(temp, dest_path, result);
}

Result<FetchResult> FetchLocalPartition(const std::string& work_dir, const FetchTarget& target,
                                        const std::string& dest_path, const Clock* clock) {
  FetchResult result;
  result.start_time = clock->Now();
  const std::string index_path = MapOutputIndexPath(work_dir, target.job_id, target.map_index, target.attempt);
  auto index = MapOutputIndex::ReadFrom(index_path);
  if (!index.ok()) {
    if (index.status().code() == StatusCode::kNotFound) return Status::NotFound(Name(target) + ": not held here");
    return Status::DataLoss(Name(target) + ": " + index.status().message());
  }
  if (target.partition >= index->partitions.size()) {
    return Status::DataLoss(Name(target) + ": the index has " + std::to_string(index->partitions.size()) +
                            " partitions");
  }
  const std::string data_path = MapOutputDataPath(work_dir, target.job_id, target.map_index, target.attempt);
  MR_ASSIGN_OR_RETURN(FetchResult linked, LinkPartition(data_path, index->partitions[target.partition], target,
                                                       dest_path));
  linked.start_time = result.start_time;
  result = linked;
  result.end_time = clock->Now();
  return result;
}

}  // namespace mr::shuffle
