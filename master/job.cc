#include "master/job.h"

#include <algorithm>
#include <cstdio>

namespace mr::master {

const char* JobStateName(JobState s) {
  switch (s) {
    case JobState::kRunning: return "RUNNING";
    case JobState::kSucceeded: return "SUCCEEDED";
    case JobState::kFailed: return "FAILED";
  }
  return "?";
}

std::string JobIdString(uint64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "job-%06llu", static_cast<unsigned long long>(id));
  return buf;
}

std::string TaskIdString(sched::TaskKind kind, int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s-%05d", kind == sched::TaskKind::kMap ? "m" : "r", index);
  return buf;
}

std::string JobRecord::TaskName(sched::TaskKind kind, int index) const {
  return TaskIdString(kind, index);
}

void JobRecord::AddCounters(const std::vector<proto::Counter>& c, int64_t sign) {
  for (const auto& x : c) counters[x.name()] += sign * x.value();
}

const char* JobRecord::phase() const {
  if (state != JobState::kRunning) return "done";
  if (maps_done < static_cast<int>(maps.size())) return "map";
  if (reduces_running > 0) return "reduce";
  for (const auto& r : reduces) {
    if (r.state == ReduceTask::State::kFetching || r.state == ReduceTask::State::kUnplaced) return "shuffle";
  }
  return "reduce";
}

// Sizes per ALGORITHMS.md: x in slot-seconds, y in bytes.
sched::SizeEstimate JobRecord::Estimate(double now) const {
  sched::SizeEstimate e;
  const int n = static_cast<int>(maps.size());
  const int left = n - maps_done;
  double mean_time = 0;
  if (maps_done >= std::min(n, kOnlineAfterMaps) && maps_done > 0) {
    e.source = sched::EstimateSource::kOnline;
    mean_time = map_seconds_done / maps_done;
    double out_per_map = static_cast<double>(map_output_bytes) / maps_done;
    e.map_seconds_total = mean_time * n;
    // Map output is linear in map input where there is input (splits differ in size).
    if (map_input_bytes > 0 && input_bytes > 0) {
      e.shuffle_bytes_total = static_cast<double>(map_output_bytes) / static_cast<double>(map_input_bytes) *
                              static_cast<double>(input_bytes);
    } else {
      e.shuffle_bytes_total = out_per_map * n;
    }
  } else if (spec.hint_map_seconds() > 0 || spec.hint_shuffle_bytes() > 0) {
    e.source = sched::EstimateSource::kHint;
    e.map_seconds_total = spec.hint_map_seconds();
    e.shuffle_bytes_total = spec.hint_shuffle_bytes();
    mean_time = n > 0 ? e.map_seconds_total / n : 0;
  } else if (profile) {
    e.source = sched::EstimateSource::kProfile;
    mean_time = profile->map_seconds_per_task();
    e.map_seconds_total = mean_time * n;
    e.shuffle_bytes_total = input_bytes > 0 ? profile->output_per_input_byte() * static_cast<double>(input_bytes)
                                            : profile->output_bytes_per_task() * n;
  } else {
    return e;
  }
  double running_elapsed = 0;
  for (const auto& m : maps) {
    if (m.state == MapTask::State::kRunning) running_elapsed += std::min(mean_time, std::max(0.0, now - m.start_time));
  }
  e.map_seconds_remaining = std::max(0.0, mean_time * left - running_elapsed);
  e.shuffle_bytes_remaining =
      std::max(0.0, e.shuffle_bytes_total - static_cast<double>(shuffle_bytes_fetched));
  return e;
}

}  // namespace mr::master
