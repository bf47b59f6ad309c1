#include "experiment/band.h"

#include <algorithm>

#include "common/rng.h"

namespace mr::experiment {

bool InsideBand(double measured, const Band& band) {
  return band.lo * (1 - kBandTolerance) <= measured && measured <= band.hi * (1 + kBandTolerance);
}

std::vector<Band> BandsOf(const std::vector<std::vector<double>>& responses) {
  std::vector<Band> out;
  if (responses.empty()) return out;
  for (size_t j = 0; j < responses[0].size(); ++j) {
    Band b{responses[0][j], responses[0][j], 0};
    for (const std::vector<double>& sim : responses) {
      b.lo = std::min(b.lo, sim[j]);
      b.hi = std::max(b.hi, sim[j]);
      b.mean += sim[j];
    }
    b.mean = std::clamp(b.mean / static_cast<double>(responses.size()), b.lo, b.hi);
    out.push_back(b);
  }
  return out;
}

void JitterTaskDurations(double seconds, uint64_t seed, double cluster_map_time_cv, JobList* jobs) {
  if (!(seconds > 0)) return;
  Rng rng(seed);
  auto move = [&](std::vector<double>& durations) {
    for (double& d : durations) d = std::max(0.0, d + seconds * (2 * rng.Uniform() - 1));
  };
  using Kind = model::MapTimeDist::Kind;
  for (model::TaskJob& j : *jobs) {
    const bool fixed_maps = j.map_time.kind == Kind::kFixed ||
                            (j.map_time.kind == Kind::kClusterDefault && cluster_map_time_cv == 0);
    if (j.map_durations.empty() && fixed_maps) j.map_durations.assign(j.maps, j.map_seconds);
    if (j.reduce_durations.empty()) j.reduce_durations.assign(j.reducers, j.reduce_seconds);
    move(j.map_durations);
    move(j.reduce_durations);
  }
}

}  // namespace mr::experiment
