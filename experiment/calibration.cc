#include "experiment/calibration.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <map>
#include <utility>
#include <tuple>

#include <sched.h>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/stats.h"
#include "experiment/trace_replay.h"
#include "trace/attempts.h"

namespace mr::experiment {

namespace {

using nlohmann::json;

// Slots that run maps: map slots and unified slots.
int MapCapableSlots(const WorkerGroup& g) { return g.map_slots + g.unified_slots; }

int TotalMapSlots(const ClusterShape& shape) {
  int slots = 0;
  for (const WorkerGroup& g : shape.groups) slots += g.count * MapCapableSlots(g);
  return slots;
}

int TotalWorkers(const ClusterShape& shape) {
  int workers = 0;
  for (const WorkerGroup& g : shape.groups) workers += g.count;
  return workers;
}

// Slot-weighted mean of the map-capable slots' nominal speeds.
double MeanSlotSpeed(const ClusterShape& shape) {
  double sum = 0;
  int slots = 0;
  for (const WorkerGroup& g : shape.groups) {
    sum += g.count * MapCapableSlots(g) * g.speed;
    slots += g.count * MapCapableSlots(g);
  }
  return slots > 0 ? sum / slots : 1.0;
}

double Num(const json& e, const char* key, double fallback = 0) {
  auto it = e.find(key);
  return it != e.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string Str(const json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// One finished attempt of a task: its assignment (master's attempt_start), when it began
// to run (the worker-measured "start" of attempt_end; the assignment when absent) and its
// end. The master writes attempt_start when it learns of the assignment, which on a busy
// machine can be long after the map began, so run times use the worker's start.
struct Run {
  int worker = 0;
  std::string slot;
  double assigned = 0;
  double start = 0;
  double end = 0;
};

// The map attempts that ended ok and whose assignment is traced, in the order they ended.
std::vector<Run> OkMapRuns(const std::vector<trace::Event>& events) {
  std::vector<Run> out;
  for (const trace::Attempt& a : trace::CollectAttempts(events)) {
    if (a.task.empty() || a.task[0] != 'm' || !a.started || !a.ended || a.ended->status != "ok") continue;
    const trace::AttemptEnd& e = *a.ended;
    const double assigned = a.started->t;
    out.push_back({static_cast<int>(e.worker.value_or(0)), e.slot.value_or(""), assigned, e.start.value_or(assigned),
                   e.t});
  }
  return out;
}

// Mean gap between an attempt's end and the next assignment on the same worker and slot
// kind; 0 when no slot ran two attempts.
double MeanReassignGap(std::vector<Run> attempts) {
  std::sort(attempts.begin(), attempts.end(), [](const Run& a, const Run& b) {
    return std::tie(a.worker, a.slot, a.assigned) < std::tie(b.worker, b.slot, b.assigned);
  });
  double sum = 0;
  int n = 0;
  for (size_t i = 1; i < attempts.size(); ++i) {
    const Run& prev = attempts[i - 1];
    const Run& next = attempts[i];
    if (prev.worker != next.worker || prev.slot != next.slot || next.assigned < prev.end) continue;
    sum += next.assigned - prev.end;
    ++n;
  }
  return n > 0 ? sum / n : 0;
}

double MeanDuration(const std::vector<Run>& attempts) {
  std::vector<double> durations;
  for (const Run& a : attempts) durations.push_back(a.end - a.start);
  return Mean(durations);
}

// The rate-job maps' mean rate with a core to itself: sum of work over the sum of each
// map's busy seconds times its mean share of a core while it ran. n(t) counts the job's
// maps running at t (their worker-measured runs); a map's share is min(1, cores / n(t)).
double CoreSpeed(const std::vector<Run>& maps, double work_per_map, double task_start, double slot_speed,
                 int cores) {
  auto running_at = [&](double t) {
    int n = 0;
    for (const Run& b : maps) n += b.start <= t && t < b.end;
    return n;
  };
  double weighted = 0;
  for (const Run& a : maps) {
    const double run = a.end - a.start;
    if (!(run > 0)) continue;
    std::vector<double> cuts = {a.start, a.end};
    for (const Run& b : maps) {
      for (double t : {b.start, b.end}) {
        if (t > a.start && t < a.end) cuts.push_back(t);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    double integral = 0;  // of its share of a core over its run
    for (size_t i = 1; i < cuts.size(); ++i) {
      const int n = std::max(1, running_at((cuts[i - 1] + cuts[i]) / 2));
      integral += (cuts[i] - cuts[i - 1]) * std::min(1.0, cores / static_cast<double>(n));
    }
    weighted += std::max(1e-3, run - task_start) * (integral / run);
  }
  return weighted > 0 ? work_per_map * static_cast<double>(maps.size()) / (slot_speed * weighted) : 1.0;
}

std::string UtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string ShapeHash(const ClusterShape& shape) {
  std::string canon = "hb=" + std::to_string(shape.heartbeat_ms);
  for (const WorkerGroup& g : shape.groups) {
    char buf[160];
    std::snprintf(buf, sizeof buf, ";%d,%d,%d,%.9g,%.9g", g.count, g.map_slots, g.reduce_slots, g.speed,
                  g.shuffle_bandwidth);
    canon += buf;
    // Appended only when used, so that shapes without them keep their stored calibrations.
    if (g.unified_slots > 0) canon += ",u" + std::to_string(g.unified_slots);
  }
  if (shape.work != WorkMode::kBurn) canon += std::string(";work=") + WorkModeName(shape.work);
  uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
  for (unsigned char c : canon) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, h);
  return hex;
}

std::string DefaultCalibrationPath(const std::string& results_root, const ClusterShape& shape) {
  return JoinPath(results_root, "calibration-" + ShapeHash(shape) + ".json");
}

std::string CalibrationJson(const Calibration& c) {
  json j = {{"shape_hash", c.shape_hash},
            {"task_start_seconds", c.task_start_seconds},
            {"map_speed_factor", c.map_speed_factor},
            {"link_rate", c.link_rate},
            {"decision_latency", c.decision_latency},
            {"host_cores", c.host_cores},
            {"core_speed", c.core_speed},
            {"shuffle_cpu_per_byte", c.shuffle_cpu_per_byte},
            {"measured_at", c.measured_at}};
  return j.dump(2) + "\n";
}

Result<Calibration> ParseCalibration(std::string_view json_text) {
  json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::InvalidArgument("calibration: not a JSON object");
  Calibration c;
  auto number = [&](const char* key, double* out) -> Status {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
      return Status::InvalidArgument(std::string("calibration: '") + key + "' is missing or not a number");
    }
    *out = it->get<double>();
    return Status::Ok();
  };
  MR_RETURN_IF_ERROR(number("task_start_seconds", &c.task_start_seconds));
  MR_RETURN_IF_ERROR(number("map_speed_factor", &c.map_speed_factor));
  MR_RETURN_IF_ERROR(number("link_rate", &c.link_rate));
  MR_RETURN_IF_ERROR(number("decision_latency", &c.decision_latency));
  // Optional: calibrations stored before processor sharing was modelled have neither.
  c.host_cores = static_cast<int>(Num(j, "host_cores", 0));
  c.core_speed = Num(j, "core_speed", c.map_speed_factor);
  if (c.host_cores < 0 || c.host_cores > 4096 || !(c.core_speed > 0)) {
    return Status::InvalidArgument("calibration: host_cores must be in [0, 4096] and core_speed positive");
  }
  c.shuffle_cpu_per_byte = Num(j, "shuffle_cpu_per_byte", 0);  // optional, as above
  if (!(c.shuffle_cpu_per_byte >= 0 && c.shuffle_cpu_per_byte < 1e-3)) {
    return Status::InvalidArgument("calibration: shuffle_cpu_per_byte must be in [0, 1e-3) core-seconds per byte");
  }
  c.shape_hash = Str(j, "shape_hash");
  c.measured_at = Str(j, "measured_at");
  if (!(c.map_speed_factor > 0) || !(c.link_rate > 0)) {
    return Status::InvalidArgument("calibration: map_speed_factor and link_rate must be positive");
  }
  return c;
}

std::vector<model::TaskJob> CalibrationJobs(const ClusterShape& shape) {
  const int slots = std::max(1, TotalMapSlots(shape));
  const int workers = std::max(1, TotalWorkers(shape));
  model::TaskJob empty;
  empty.maps = 2 * slots;  // two waves: the second shows the reassignment gap
  empty.reducers = 1;
  model::TaskJob rate = empty;
  rate.map_seconds = 1.0;
  model::TaskJob link;
  link.maps = slots;
  link.reducers = workers;  // every worker's link carries bytes
  // About two seconds of sending per worker at its cap; 16 MiB per map when uncapped.
  const WorkerGroup& g = shape.groups.empty() ? WorkerGroup{} : shape.groups.front();
  double per_map = g.shuffle_bandwidth > 0 ? 2 * g.shuffle_bandwidth / std::max(1, MapCapableSlots(g)) : 16.0 * (1 << 20);
  link.map_bytes = std::min(per_map, 64.0 * (1 << 20));
  return {empty, rate, link};
}

int AvailableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

Result<Calibration> DeriveCalibration(const ClusterShape& shape, const std::vector<std::vector<trace::Event>>& traces,
                                      int host_cores, double link_cpu_seconds) {
  if (traces.size() != 3) return Status::InvalidArgument("calibration needs the traces of the 3 standard jobs");
  Calibration c;
  c.shape_hash = ShapeHash(shape);
  c.measured_at = UtcNow();
  std::vector<Run> empty = OkMapRuns(traces[0]);
  if (empty.empty()) return Status::InvalidArgument("calibration: the zero-work job has no finished map");
  c.task_start_seconds = MeanDuration(empty);
  c.decision_latency = MeanReassignGap(empty);
  std::vector<Run> rate = OkMapRuns(traces[1]);
  if (rate.empty()) return Status::InvalidArgument("calibration: the 1-second job has no finished map");
  const double work = CalibrationJobs(shape)[1].map_seconds;
  const double busy = std::max(1e-3, MeanDuration(rate) - c.task_start_seconds);
  c.map_speed_factor = work / (MeanSlotSpeed(shape) * busy);
  c.host_cores = std::max(0, host_cores);
  c.core_speed = c.host_cores > 0 ? CoreSpeed(rate, work, c.task_start_seconds, MeanSlotSpeed(shape), c.host_cores)
                                  : c.map_speed_factor;
  double bytes = 0, seconds = 0;
  for (const trace::Event& ev : traces[2]) {
    const auto* e = std::get_if<trace::Served>(&ev);
    if (e == nullptr) continue;
    bytes += static_cast<double>(e->bytes.value_or(0));
    seconds += std::max(0.0, e->t - e->start.value_or(0));
  }
  if (!(bytes > 0 && seconds > 0)) return Status::InvalidArgument("calibration: the shuffle job served no bytes");
  // The link's rate while it carries data, from the reducers' fetches (per source worker, its
  // bytes over the union of its fetches' intervals), as a replay measures it: a `served`
  // report covers a window of up to 250 ms whole even when the link sent for part of it,
  // which read a 20 MB/s cap as 17-19 MB/s. Traces without fetches fall back to it.
  c.link_rate = bytes / seconds;
  if (Result<RecordedRun> run = RecordedRunFromTraces({traces[2]}); run.ok()) {
    if (const double fetched = MeasuredShuffleRate(*run); fetched > 0) c.link_rate = fetched;
  }
  c.shuffle_cpu_per_byte = std::max(0.0, link_cpu_seconds) / bytes;
  return c;
}

Calibration MedianCalibration(const std::vector<Calibration>& rounds) {
  Calibration c = rounds.front();
  auto median = [&](double Calibration::*field) {
    std::vector<double> v;
    for (const Calibration& r : rounds) v.push_back(r.*field);
    c.*field = Median(std::move(v));
  };
  median(&Calibration::task_start_seconds);
  median(&Calibration::map_speed_factor);
  median(&Calibration::link_rate);
  median(&Calibration::decision_latency);
  median(&Calibration::core_speed);
  median(&Calibration::shuffle_cpu_per_byte);
  return c;
}

Result<model::ClusterSpec> CalibratedCluster(const ClusterShape& shape, const Calibration& c) {
  ClusterShape s = shape;
  for (WorkerGroup& g : s.groups) {
    g.speed *= c.host_cores > 0 ? c.core_speed : c.map_speed_factor;
    g.shuffle_bandwidth = g.shuffle_bandwidth > 0 ? std::min(g.shuffle_bandwidth, c.link_rate) : c.link_rate;
  }
  MR_ASSIGN_OR_RETURN(model::ClusterSpec spec, ToClusterSpec(s));
  spec.decision_latency = c.decision_latency;
  spec.host_cores = c.host_cores;
  if (c.host_cores > 0) spec.shuffle_cpu_per_byte = c.shuffle_cpu_per_byte;
  return spec;
}

JobList CalibratedJobs(const JobList& jobs, const ClusterShape& shape, const Calibration& c) {
  const double start_work =
      c.task_start_seconds * MeanSlotSpeed(shape) * (c.host_cores > 0 ? c.core_speed : c.map_speed_factor);
  JobList out = jobs;
  for (model::TaskJob& j : out) {
    j.map_seconds += start_work;
    j.reduce_seconds += start_work;
  }
  return out;
}

}  // namespace mr::experiment
