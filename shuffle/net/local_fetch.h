// FetchLocalPartition: a reducer's "fetch" of a map output held by its own worker
// (docs/shuffle.md, "Reducer side"; docs/performance.md, issue 30). LinkPartition, the same
// link for a map output another worker on this host holds, once that worker's shuffle server
// has answered the fetch request with the file and the extent (shuffle/net/fetcher.h,
// FetchTarget::link): the bytes travel through the file system, the fetch does not. Instead of going
// through the loopback shuffle server into a run file (a read, a transfer and a write of
// every byte), the map output's data file is hard-linked as the run file and the reducer
// merges the partition's extent in place: no byte is written. The link, not the map
// output's name, keeps the bytes alive while the reducer needs them, so removing the map
// output (job end, a re-executed map) never pulls a run from under a merge, and removing the
// reducer's run directory removes the link as it removed the copy.
// The extent's CRC32C is verified against the index before the run counts as fetched (as a
// network fetch verifies the bytes it receives), and the merge checks it again as it reads.
// Thread-safe (one call per destination at a time).
#pragma once

#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

// Links the data file of target's map output (under work_dir, shuffle/map_output.h) as
// dest_path: under a name of its own, checked, then committed by shuffle/net/run_commit.h's
// rule (a run an earlier fetch committed at dest_path stays, and its result is returned; a
// file no commit put there is replaced). On success FetchResult::offset and bytes give the
// partition's extent in dest_path, crc32c its index CRC (verified). Errors, as a network fetch's
// (shuffle/net/fetch_blame.h): NotFound (no such map output here), DataLoss (its index is
// corrupt or the extent fails its CRC; nothing is left at dest_path), IoError (the
// reducer's directory); FailedPrecondition when the file system refuses the link (EXDEV, EPERM,
// EMLINK, ENOTSUP): the caller fetches over the network instead.
Result<FetchResult> FetchLocalPartition(const std::string& work_dir, const FetchTarget& target,
                                        const std::string& dest_path, const Clock* clock = SystemClock::Get());

// Links data_path (a map output's data file, as its shuffle server named it) as dest_path and
// checks the partition's extent against its CRC32C, as above (the same commit rule). Errors: NotFound (data_path is
// not there: gone, or not visible from here), FailedPrecondition (the link is refused),
// DataLoss (the extent fails its checksum or is not in the file; nothing is left at
// dest_path), IoError (the reducer's directory). FetchResult's times are left 0.
Result<FetchResult> LinkPartition(const std::string& data_path, const PartitionExtent& extent,
                                  const FetchTarget& target, const std::string& dest_path);

}  // namespace mr::shuffle
