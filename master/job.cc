#include "master/job.h"

#include <algorithm>
#include <cstdio>

#include "common/units.h"
#include "scheduler/util/job_sizes.h"

namespace mr::master {

const char* JobStateName(JobState s) {
  switch (s) {
    case JobState::kRunning: return "RUNNING";
    case JobState::kSucceeded: return "SUCCEEDED";
    case JobState::kFailed: return "FAILED";
    case JobState::kKilled: return "KILLED";
  }
  return "?";
}

std::optional<JobState> ParseJobState(const std::string& name) {
  for (JobState s : {JobState::kRunning, JobState::kSucceeded, JobState::kFailed, JobState::kKilled}) {
    if (name == JobStateName(s)) return s;
  }
  return std::nullopt;
}

std::string TaskIdString(sched::TaskKind kind, int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s-%05d", kind == sched::TaskKind::kMap ? "m" : "r", index);
  return buf;
}

std::string JobRecord::TaskName(sched::TaskKind kind, int index) const {
  return TaskIdString(kind, index);
}

void JobRecord::AddCounters(const google::protobuf::RepeatedPtrField<proto::Counter>& c, int64_t sign) {
  for (const auto& x : c) counters[x.name()] += sign * x.value();
}

// The phases the job is in now, like Hadoop's: a job's state (RUNNING, SUCCEEDED, ...)
// says whether it ended, its phases what runs, and they overlap (reducers fetch while maps
// run), so this is a list. Ended jobs have no phase: their state and the three progress
// numbers say how far they got.
std::string JobRecord::phase() const {
  if (finished()) return "";
  const bool maps_left = maps_done < static_cast<int>(maps.size());
  bool fetching = false, reducing = false;
  for (const auto& r : reduces) {
    if (r.state == ReduceTask::State::kFetching || (!maps_left && r.state == ReduceTask::State::kUnplaced)) {
      fetching = true;
    }
    if (r.state == ReduceTask::State::kReady || r.state == ReduceTask::State::kRunning) reducing = true;
  }
  std::string p;
  for (auto [active, name] : {std::pair{maps_left, "map"}, {fetching, "shuffle"}, {reducing, "reduce"}}) {
    if (active) p += (p.empty() ? "" : "+") + std::string(name);
  }
  return p.empty() ? "reduce" : p;  // all reduces committed, the job ends in this round
}

namespace {
double Fraction(double done, double total) { return total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0; }
}  // namespace

PhaseProgress JobRecord::Progress() const {
  if (final_progress) return *final_progress;
  PhaseProgress p;
  p.input_bytes = input_bytes;
  double maps_progress = 0;  // in tasks: done ones 1, running ones their reported progress
  for (const MapTask& m : maps) {
    const double f = m.state == MapTask::State::kDone ? 1.0 : m.RunningShare();
    maps_progress += f;
    p.input_bytes_read += f * static_cast<double>(m.split.length);
  }
  const bool maps_all_done = maps_done == static_cast<int>(maps.size());
  p.map = input_bytes > 0 ? Fraction(p.input_bytes_read, static_cast<double>(input_bytes))
                          : Fraction(maps_progress, static_cast<double>(maps.size()));
  if (maps_all_done) p.map = 1;
  // Expected map output: what the done maps wrote, scaled up by the input (or the maps) they
  // have not read yet.
  double out = static_cast<double>(map_output_bytes);
  if (maps_all_done) {
    p.shuffle_bytes_expected = out;
  } else if (map_input_bytes > 0 && input_bytes > 0) {
    p.shuffle_bytes_expected = out * static_cast<double>(input_bytes) / static_cast<double>(map_input_bytes);
  } else if (maps_done > 0) {
    p.shuffle_bytes_expected = out * static_cast<double>(maps.size()) / maps_done;
  }
  p.shuffle_bytes_expected = std::max(p.shuffle_bytes_expected, out);
  double reduces_progress = 0;
  for (const ReduceTask& r : reduces) {
    const double f = r.state == ReduceTask::State::kDone ? 1.0 : r.RunningShare();
    reduces_progress += f;
    p.reduce_bytes_merged += f * static_cast<double>(r.shuffle_bytes);
  }
  if (maps_all_done && out == 0) {
    p.shuffle = 1;  // nothing to fetch
  } else if (p.shuffle_bytes_expected > 0) {
    p.shuffle = Fraction(static_cast<double>(ShuffleBytesReceived()), p.shuffle_bytes_expected);
  }
  if (maps_all_done && out > 0) {
    p.reduce = Fraction(p.reduce_bytes_merged, out);
  } else {
    p.reduce = Fraction(reduces_progress, static_cast<double>(reduces.size()));
  }
  if (reduces_done == static_cast<int>(reduces.size())) p.reduce = 1;
  if (state == JobState::kSucceeded) {
    // Whole by definition: a finished job restored after a master restart has its totals
    // but not its tasks' states, so the sums above would read 0.
    p.map = p.shuffle = p.reduce = 1;
    p.input_bytes_read = static_cast<double>(input_bytes);
    p.reduce_bytes_merged = static_cast<double>(map_output_bytes);
  }
  return p;
}

// Sizes as in docs/policies.md ("Size units"): x in slot-seconds, y in bytes (sched::EstimateSize).
const std::shared_ptr<const sched::MapLocality>& JobRecord::Locality() const {
  if (locality_built) return locality;
  locality_built = true;
  auto loc = std::make_shared<sched::MapLocality>();
  loc->host_of_map.assign(maps.size(), -1);
  bool any = false;
  for (size_t i = 0; i < maps.size(); ++i) {
    const std::string& server = maps[i].split.host;
    if (server.empty()) continue;  // a shared path: every host alike
    auto hp = ParseHostPort(server);
    const std::string host = hp.ok() ? hp->host : server;
    auto it = std::find(loc->hosts.begin(), loc->hosts.end(), host);
    if (it == loc->hosts.end()) it = loc->hosts.insert(loc->hosts.end(), host);
    loc->host_of_map[i] = static_cast<int>(it - loc->hosts.begin());
    any = true;
  }
  if (any) locality = std::move(loc);
  return locality;
}

sched::SizeEstimate JobRecord::Estimate(double now) const {
  sched::EstimateInputs in;
  in.maps_total = static_cast<int>(maps.size());
  in.maps_done = maps_done;
  in.map_seconds_done = map_seconds_done;
  in.map_output_bytes = static_cast<double>(map_output_bytes);
  in.map_input_bytes = static_cast<double>(map_input_bytes);
  for (const auto& m : maps) {  // done before a restart, awaiting re-adoption: measured
    if (!m.awaiting) continue;
    const proto::MapDone& done = m.awaiting->map_done();
    in.maps_awaiting++;
    in.map_seconds_awaiting += std::max(0.0, done.end_time() - done.start_time());
    in.map_output_bytes_awaiting += static_cast<double>(done.bytes_out());
    in.map_input_bytes_awaiting += static_cast<double>(done.bytes_in());
  }
  in.input_bytes = static_cast<double>(input_bytes);
  in.hint_map_seconds = spec.hint_map_seconds();
  in.hint_shuffle_bytes = spec.hint_shuffle_bytes();
  if (profile) {
    in.has_profile = true;
    in.profile_map_seconds_per_task = profile->map_seconds_per_task();
    in.profile_output_per_input_byte = profile->output_per_input_byte();
    in.profile_output_bytes_per_task = profile->output_bytes_per_task();
  }
  in.shuffle_bytes_fetched = static_cast<double>(shuffle_bytes_fetched);
  in.reduces_total = static_cast<int>(reduces.size());
  in.reduces_done = reduces_done;
  in.reduces_measured = reduces_measured;
  in.reduce_seconds_done = reduce_seconds_done;
  in.hint_reduce_seconds = spec.hint_reduce_seconds();
  if (profile && profile->reduce_runs() > 0) {
    in.has_reduce_profile = true;
    in.profile_reduce_seconds_per_task = profile->reduce_seconds_per_task();
  }
  auto map_elapsed = [&](double mean_time) {
    double elapsed = 0;
    for (const auto& m : maps) {
      if (m.state == MapTask::State::kRunning && !m.awaiting) elapsed += std::min(mean_time, std::max(0.0, now - m.start_time));
    }
    return elapsed;
  };
  auto reduce_elapsed = [&](double mean_time) {
    double elapsed = 0;
    for (const auto& r : reduces) {
      if (r.state == ReduceTask::State::kRunning) elapsed += std::min(mean_time, std::max(0.0, now - r.start_time));
    }
    return elapsed;
  };
  return sched::EstimateSize(in, map_elapsed, reduce_elapsed);
}

uint64_t JobRecord::ShuffleBytesReceived() const {
  uint64_t bytes = shuffle_bytes_fetched;
  for (const ReduceTask& r : reduces) {
    if (r.state == ReduceTask::State::kFetching) bytes += r.shuffle_bytes_in_flight;
  }
  return bytes;
}

void JobRecord::RecordFetch(double start, double end, uint64_t bytes) {
  if (fetch_bytes == 0 || start < shuffle_first_start) shuffle_first_start = start;
  shuffle_last_end = std::max(shuffle_last_end, end);
  fetch_bytes += bytes;
}

void JobRecord::RecordServed(double start, double end, uint64_t bytes) {
  if (served_first_start == 0 || start < served_first_start) served_first_start = start;
  recent_served.push_back({start, end, bytes});
  // Reports arrive about in end order; one that ended before the window cannot count again.
  while (!recent_served.empty() && recent_served.front().end < end - kShuffleRateWindow) recent_served.pop_front();
}

double JobRecord::RecentShuffleRate(double now) const {
  if (recent_served.empty()) return 0;
  // A shuffle younger than the window is measured over its own age, not diluted.
  double from = std::max(now - kShuffleRateWindow, served_first_start);
  double span = now - from;
  if (span <= 1e-3) return 0;
  double bytes = 0;
  for (const Served& f : recent_served) {
    if (f.end <= f.start) {  // an instant interval counts whole
      if (f.end >= from && f.end <= now) bytes += static_cast<double>(f.bytes);
      continue;
    }
    double lo = std::max(f.start, from), hi = std::min(f.end, now);
    if (hi > lo) bytes += static_cast<double>(f.bytes) * (hi - lo) / (f.end - f.start);
  }
  return bytes / span;
}

double JobRecord::MeanShuffleRate() const {
  double span = shuffle_last_end - shuffle_first_start;
  return span > 1e-6 ? static_cast<double>(fetch_bytes) / span : 0;
}

}  // namespace mr::master
