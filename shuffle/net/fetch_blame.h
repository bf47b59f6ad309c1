// Blame for a failed fetch (docs/reliability.md, "Blame and bounds"): what the fetcher's
// error proves, and how long a reducer waits before it tries an unproven failure again.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "mr.pb.h"

namespace mr::shuffle {

// The fetcher's error codes (shuffle/net/fetcher.h) mapped to who is at fault:
// DataLoss (the source's bytes failed their checksum) and NotFound (the source has no
// such output) -> FETCH_SOURCE_CORRUPT; IoError (this side's own file: open, reserve,
// write, rename; ENOSPC) -> FETCH_LOCAL; anything else (refused, timed out, reset, a
// server error) -> FETCH_UNREACHABLE. REQUIRES: !s.ok().
proto::FetchCause FetchCauseOf(const Status& s);

// Seconds a reducer waits before fetching a map output again after its `failures`-th
// (>= 1) unproven failure: 0.5 s, doubling, at most kMaxFetchRetryDelay.
inline constexpr double kFirstFetchRetryDelay = 0.5;
inline constexpr double kMaxFetchRetryDelay = 8.0;
double FetchRetryDelay(uint32_t failures);

}  // namespace mr::shuffle
