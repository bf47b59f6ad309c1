// How a fetched run reaches its run file (FetchScheduler's ReducerRunPath) when two fetches
// of one map for one reducer overlap (issue 29): a newer attempt of a map, from another
// source, may be fetched while the older attempt's fetch is still in flight, into the same
// destination; and a re-placed reducer, or a newer location arriving just as a fetch ends,
// may fetch a run that is already there.
//
// Each fetch receives (or links) its run under a temporary name of its own (RunTempPath:
// the destination, the attempt and a counter unique in the process), so no fetch ever writes
// into another's file. CommitRun then moves it onto the destination by one rule: **the first
// run committed at a destination stays there until the destination is removed**
// (FetchScheduler::Refetch removes it before fetching again; a failed reducer or a dropped
// job removes the whole directory). A later commit leaves that run alone, removes its own
// temporary file and returns the run that is there (its extent, records and CRC32C) as its
// result. So every overlapping fetch succeeds, and whichever result the reducer records (the
// first to reach FetchScheduler's lock, which need not be the first to commit) describes the
// bytes at the destination: the CRC the reduce task checks is that run's.
//
// A file at the destination that no commit of this process put there (left by a crashed
// worker, or replaced behind the registry's back) is replaced. The registry keeps, per
// destination, the identity (device, inode) of the run committed there and its result;
// ForgetRunsUnder drops a removed directory's entries (memory only: a stale entry whose file
// is gone or replaced is never obeyed). Thread-safe: one process-wide registry; its mutex is
// held for the stat and the rename of a commit (metadata operations, no data).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

// dest + ".a<attempt>.<n>.tmp", n unique in this process.
std::string RunTempPath(const std::string& dest, uint32_t attempt);

// Moves `temp` (a complete, verified run described by `mine`; REQUIRES: on dest's file
// system) onto `dest` unless dest holds a run an earlier commit put there; then `temp` is
// removed and that run's result returned. Only `mine`'s bytes, records, crc32c and offset are
// kept. IoError (the reducer's own directory) if the rename fails; temp is then removed.
Result<FetchResult> CommitRun(const std::string& temp, const std::string& dest, const FetchResult& mine);

// Forgets the commits of destinations under `dir` (the caller removed it).
void ForgetRunsUnder(const std::string& dir);

// Destinations with a recorded commit (for tests).
size_t CommittedRunCount();

}  // namespace mr::shuffle
