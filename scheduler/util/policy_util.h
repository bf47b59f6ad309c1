// Small pieces every policy shares: the arrival order, "first job with shuffle
// data", the probe rule for jobs without a size estimate, consuming a lazily
// sorted order only while slots are left, and note formatting. Functions over a
// Snapshot (indices into snap.jobs); thread-safe apart from the objects passed.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/util/incremental_order.h"
#include "scheduler/util/job_sizes.h"
#include "scheduler/util/slot_filler.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

// Job indices by (submit_time, position) into `out` (its memory is reused): the
// snapshot is meant to be in arrival order already, this only guards against a
// caller that is not.
void ArrivalOrder(const Snapshot& snap, std::vector<int>* out);

// First job in `order` with shuffle bytes waiting to be fetched, or -1.
int FirstWithShuffleData(const Snapshot& snap, std::span<const int> order);
// The same over a lazily sorted order; sorts only up to the job found.
int FirstWithShuffleData(const Snapshot& snap, IncrementalOrder& order);

// filler.PlaceReduces / filler.FillInOrder over `order`, sorting only the
// prefix the filler gets to before the slots run out.
void PlaceReduces(SlotFiller& filler, IncrementalOrder& order);
void FillInOrder(SlotFiller& filler, IncrementalOrder& order);

// Gives one map slot to every job in `order` whose size is unknown and that has
// no map running or done yet, so it gets measured (FLEX's "each new phase gets
// at least one slot"). Returns how many probes were placed.
int GiveProbes(SlotFiller& filler, std::span<const int> order, std::span<const JobSize> sizes);

// Adds the (job id, share) pairs of `pairs` to `out`; as with std::map::emplace
// the first pair of an id wins. Pairs in increasing id order past the map's
// last key (ids grow with arrival, so the usual case) are appended in one
// step; otherwise they are stably sorted first, so no order makes the
// insertion quadratic. May reorder `pairs`.
void AddShares(std::vector<std::pair<JobId, double>>& pairs, ShareMap* out);

// printf-style formatting for Decision::note.
std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace mr::sched
