// The papers' job sizes in this cluster's units: x = map work divided by the
// cluster's map capacity, y = shuffle bytes divided by the shuffle capacity, so
// both are seconds at full capacity and directly comparable (docs/policies.md).
// Pure functions of a Snapshot; thread-safe.
#pragma once

#include <algorithm>

#include "scheduler/snapshot.h"

namespace mr::sched {

struct Capacity {
  double map_slot_speed = 1;         // sum over workers of (map + unified slots) * speed
  double shuffle_bytes_per_sec = 1;  // +infinity when a link is uncapped and no rate is given
};
// The cluster's capacities. Shuffle: the snapshot's (the sum of the workers' caps) when
// every link is capped; otherwise each uncapped link counts at `uncapped_link_rate`
// (bytes/s, the policy's link-rate option: e.g. a calibrated rate) and, when that is 0
// (not given), the shuffle station is unlimited, as in the paper with infinite shuffle
// capacity: every y is 0 (docs/policies.md, "Size units").
Capacity CapacityOf(const Snapshot& snap, double uncapped_link_rate = 0);

struct JobSize {
  bool known = false;  // false when the estimate source is kNone
  double x = 0, y = 0;                  // original (total) sizes, seconds
  double x_remaining = 0, y_remaining = 0;
};
JobSize SizeOf(const JobView& job, const Capacity& cap);

// True once the job has left the overlapping-phases paper's system: every map is done and
// every reducer holds all of its data (ready, running or done), so nothing is left to map
// or to shuffle and only reduce work remains. The paper's Q(t) (SplitSRPT's beta and
// classes) no longer contains such a job; it still needs reduce slots.
inline bool ShuffleDone(const JobView& job) {
  return job.maps_done >= job.maps_total && job.pending_maps.empty() && job.queued_maps.empty() &&
         job.maps_running <= 0 && job.reduces_fetching == 0 &&
         job.shuffle_bytes_available <= 0 &&
         static_cast<int>(job.ready_reduces.size()) + job.reduces_running + job.reduces_done >=
             job.reduces_total;
}

// What a job's size estimate is made of (docs/policies.md). The master fills it from
// its job records, the task-level simulator (model/) from its simulated jobs, so both
// rank jobs on the same numbers.
struct EstimateInputs {
  int maps_total = 0;
  int maps_done = 0;
  double map_seconds_done = 0;  // slot-seconds of the done maps
  double map_output_bytes = 0;  // of the done maps
  double map_input_bytes = 0;   // of the done maps (0: no input files)
  // Maps done before a master restart whose outputs await re-adoption (docs/reliability.md):
  // not done (they run again if no worker offers them), but their stored completions are
  // measurements, so they size the job as done maps do.
  int maps_awaiting = 0;
  double map_seconds_awaiting = 0;
  double map_output_bytes_awaiting = 0;
  double map_input_bytes_awaiting = 0;
  double input_bytes = 0;       // of the whole job (0: no input files)
  double hint_map_seconds = 0;  // --hint-map-seconds (0: none)
  double hint_shuffle_bytes = 0;
  // An earlier run's profile of this job name, if any.
  bool has_profile = false;
  double profile_map_seconds_per_task = 0;
  double profile_output_per_input_byte = 0;
  double profile_output_bytes_per_task = 0;
  double shuffle_bytes_fetched = 0;
  // Reduce work (SizeEstimate.reduce_*): the same three sources, chosen on their own.
  int reduces_total = 0;
  int reduces_done = 0;
  int reduces_measured = 0;          // done reduces whose duration is known (not from
                                     // before a master restart)
  double reduce_seconds_done = 0;    // slot-seconds of the measured done reduces
  double hint_reduce_seconds = 0;    // --hint-reduce-seconds (0: none)
  bool has_reduce_profile = false;
  double profile_reduce_seconds_per_task = 0;
};

// Online (measured) once this many maps are done (or all of them).
inline constexpr int kOnlineAfterMaps = 2;
// The reduce estimate is online from the first measured done reduce: jobs have few
// reducers, and waiting for a second would leave most jobs without one.
inline constexpr int kOnlineAfterReduces = 1;

// The reduce half of EstimateSize: online (mean of the measured done reduces), else the
// hint, else the profile, else reduce_source kNone. `running_elapsed(mean)` is as for maps,
// over the running reduces. Sets e's reduce_* fields only.
template <typename RunningElapsed>
void EstimateReduce(const EstimateInputs& in, RunningElapsed running_elapsed, SizeEstimate& e) {
  const int n = in.reduces_total;
  double mean_time = 0;
  if (in.reduces_measured >= kOnlineAfterReduces) {
    e.reduce_source = EstimateSource::kOnline;
    mean_time = in.reduce_seconds_done / in.reduces_measured;
  } else if (in.hint_reduce_seconds > 0) {
    e.reduce_source = EstimateSource::kHint;
    mean_time = n > 0 ? in.hint_reduce_seconds / n : 0;
  } else if (in.has_reduce_profile) {
    e.reduce_source = EstimateSource::kProfile;
    mean_time = in.profile_reduce_seconds_per_task;
  } else {
    return;
  }
  e.reduce_seconds_total = mean_time * n;
  e.reduce_seconds_remaining =
      std::max(0.0, mean_time * (n - in.reduces_done) - running_elapsed(mean_time));
}

// The estimate: online from the done maps (and those awaiting re-adoption) once
// kOnlineAfterMaps are measured, else the
// hint, else the profile, else none (source kNone). `running_elapsed(mean)` returns the
// sum over running maps of min(mean, time since the map started): the part of their
// work taken as done. The reduce work is estimated alongside (EstimateReduce, with
// `reduce_elapsed` over the running reduces), whatever the map source is.
template <typename RunningElapsed, typename ReduceElapsed>
SizeEstimate EstimateSize(const EstimateInputs& in, RunningElapsed running_elapsed,
                          ReduceElapsed reduce_elapsed) {
  SizeEstimate e;
  EstimateReduce(in, reduce_elapsed, e);
  const int n = in.maps_total;
  double mean_time = 0;
  // Measured maps: the done ones and those awaiting re-adoption after a restart.
  const int measured = in.maps_done + in.maps_awaiting;
  if (measured >= std::min(n, kOnlineAfterMaps) && measured > 0) {
    e.source = EstimateSource::kOnline;
    mean_time = (in.map_seconds_done + in.map_seconds_awaiting) / measured;
    e.map_seconds_total = mean_time * n;
    // Map output is linear in map input where there is input (splits differ in size).
    const double output = in.map_output_bytes + in.map_output_bytes_awaiting;
    const double input = in.map_input_bytes + in.map_input_bytes_awaiting;
    e.shuffle_bytes_total = input > 0 && in.input_bytes > 0 ? output / input * in.input_bytes : output / measured * n;
  } else if (in.hint_map_seconds > 0 || in.hint_shuffle_bytes > 0) {
    e.source = EstimateSource::kHint;
    e.map_seconds_total = in.hint_map_seconds;
    e.shuffle_bytes_total = in.hint_shuffle_bytes;
    mean_time = n > 0 ? e.map_seconds_total / n : 0;
  } else if (in.has_profile) {
    e.source = EstimateSource::kProfile;
    mean_time = in.profile_map_seconds_per_task;
    e.map_seconds_total = mean_time * n;
    e.shuffle_bytes_total = in.input_bytes > 0 ? in.profile_output_per_input_byte * in.input_bytes
                                               : in.profile_output_bytes_per_task * n;
  } else {
    return e;
  }
  e.map_seconds_remaining = std::max(0.0, mean_time * (n - in.maps_done) - running_elapsed(mean_time));
  e.shuffle_bytes_remaining = std::max(0.0, e.shuffle_bytes_total - in.shuffle_bytes_fetched);
  return e;
}

}  // namespace mr::sched
