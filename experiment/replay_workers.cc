#include "experiment/replay_workers.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

#include "common/job_id.h"
#include "common/straggler.h"
#include "common/text_lines.h"

namespace mr::experiment {

namespace {

// The text after `key` up to the next space ("" when absent).
std::string Field(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return "";
  const size_t from = at + key.size();
  return std::string(line.substr(from, line.find(' ', from) - from));
}

bool Matches(const RegisteredWorker& r, const model::WorkerSpec& w) {
  if (std::abs(r.speed - w.speed) > 1e-9 || r.straggler != w.straggler.enabled) return false;
  return !r.straggler || r.straggler_seed == w.straggler.seed;
}

void ToWork(const model::WorkerSpec& w, uint64_t job, uint32_t index, const TaskPlace& place, bool map,
            double* duration) {
  double hold = 0;
  if (map && w.straggler.enabled) hold = StragglerDelay(w.straggler, job, index, static_cast<uint32_t>(place.attempt));
  *duration = std::max(0.0, *duration - hold) * w.speed;
}

}  // namespace

std::map<int64_t, RegisteredWorker> ParseRegistrations(std::string_view master_log) {
  std::map<int64_t, RegisteredWorker> out;
  LineCursor lines(master_log);
  std::string_view l;
  while (lines.Next(&l)) {
    const size_t at = l.find("] worker ");
    if (at == std::string_view::npos || l.find(" registered: ") == std::string_view::npos) continue;
    char* end = nullptr;
    const std::string rest(l.substr(at + 9));
    const long long id = std::strtoll(rest.c_str(), &end, 10);
    if (end == rest.c_str()) continue;
    RegisteredWorker r;
    const std::string speed = Field(l, " speed=");
    if (!speed.empty()) r.speed = std::strtod(speed.c_str(), nullptr);
    const std::string straggler = Field(l, " straggler=");
    r.straggler = !straggler.empty() && straggler != "off";
    if (r.straggler) r.straggler_seed = std::strtoull(Field(l, " seed=").c_str(), nullptr, 10);
    out[id] = r;
  }
  return out;
}

bool NeedsAlignment(const model::ClusterSpec& cluster) {
  for (const model::WorkerSpec& w : cluster.worker_specs) {
    if (w.speed != 1 || w.straggler.enabled) return true;
  }
  return false;
}

Status AlignReplayWorkers(const std::map<int64_t, RegisteredWorker>& registered, model::ClusterSpec* cluster,
                          RecordedRun* run) {
  const size_t n = cluster->worker_specs.size();
  if (registered.size() != n || registered.begin()->first != 1 || registered.rbegin()->first != static_cast<int64_t>(n)) {
    return Status::FailedPrecondition("the master log does not register workers 1 .. " + std::to_string(n));
  }
  std::vector<model::WorkerSpec> free = cluster->worker_specs, ordered;
  for (const auto& [id, r] : registered) {
    auto it = std::find_if(free.begin(), free.end(), [&](const model::WorkerSpec& w) { return Matches(r, w); });
    if (it == free.end()) {
      return Status::FailedPrecondition("worker " + std::to_string(id) + " matches none of the shape's workers");
    }
    ordered.push_back(*it);
    free.erase(it);
  }
  cluster->worker_specs = std::move(ordered);
  for (size_t i = 0; i < run->jobs.size() && i < run->measured.size(); ++i) {
    model::TaskJob& job = run->jobs[i];
    const RecordedJob& m = run->measured[i];
    const uint64_t id = ParseJobId(m.id).value_or(0);
    auto convert = [&](std::vector<double>& durations, const std::vector<TaskPlace>& places, bool map) {
      for (size_t k = 0; k < durations.size() && k < places.size(); ++k) {
        const int64_t w = places[k].worker;
        if (w < 1 || w > static_cast<int64_t>(n)) continue;  // unknown: left as recorded
        ToWork(cluster->worker_specs[w - 1], id, static_cast<uint32_t>(k), places[k], map, &durations[k]);
      }
    };
    convert(job.map_durations, m.maps_ran, true);
    convert(job.reduce_durations, m.reduces_ran, false);
  }
  return Status::Ok();
}

}  // namespace mr::experiment
