// Small pieces every policy shares: the arrival order, "first job with shuffle
// data", the probe rule for jobs without a size estimate, and note formatting.
// Pure functions over a Snapshot (indices into snap.jobs); thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "scheduler/job_sizes.h"
#include "scheduler/slot_filler.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

// Job indices by (submit_time, position): the snapshot is meant to be in
// arrival order already, this only guards against a caller that is not.
std::vector<int> ArrivalOrder(const Snapshot& snap);

// `arrival` re-sorted by ascending key[j] (indexed by job), ties kept in
// arrival order. Use +infinity to put a job last.
std::vector<int> OrderByKey(std::span<const int> arrival, std::span<const double> key);

// First job in `order` with shuffle bytes waiting to be fetched, or -1.
int FirstWithShuffleData(const Snapshot& snap, std::span<const int> order);

// Gives one map slot to every job in `order` whose size is unknown and that has
// no map running or done yet, so it gets measured (FLEX's "each new phase gets
// at least one slot"). Returns how many probes were placed.
int GiveProbes(SlotFiller& filler, std::span<const int> order, std::span<const JobSize> sizes);

// printf-style formatting for Decision::note.
std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace mr::sched
