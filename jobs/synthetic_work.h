// How a synthetic task spends its seconds of work (`mr submit synthetic --work`): burning
// thread CPU (the default: real work, a slot needs a core), or holding its thread for the
// same wall time without CPU (an emulation of a cluster with more slots than cores; the
// results of an experiment say which mode ran). Both stop early once the task's cancel
// flag is set and report the share done through TaskContext::SetFraction.
// Pure functions apart from the time they take; thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

enum class SyntheticWork { kBurn, kSleep };

// "burn" or "sleep"; InvalidArgument naming the parameter otherwise.
Result<SyntheticWork> ParseSyntheticWork(std::string_view text);

// Spends `seconds` of work in `mode`: kBurn spins a PRNG seeded with `state` until the
// calling thread has used that much CPU; kSleep waits that long on the monotonic clock,
// waking at least every 10 ms to see `cancel`. Returns early when `cancel` (may be null)
// is set. Returns the PRNG state (kSleep: `state` unchanged) so the burn cannot be
// optimised away. `ctx` (may be null) is told the share done.
uint64_t DoSyntheticWork(SyntheticWork mode, double seconds, uint64_t state,
                         const std::atomic<bool>* cancel, TaskContext* ctx = nullptr);

// One step of the SplitMix64 generator the burn spins and the map's keys come from.
uint64_t SplitMix64(uint64_t* state);

}  // namespace mr::jobs
