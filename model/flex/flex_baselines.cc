#include "model/flex/flex_baselines.h"

#include <algorithm>
#include <numeric>

#include "scheduler/flex/mps.h"

namespace mr::model {
namespace {

double SharesAt(std::span<const double> min, std::span<const double> max, double level) {
  double sum = 0;
  for (size_t j = 0; j < min.size(); ++j) sum += std::clamp(level, min[j], max[j]);
  return sum;
}

std::vector<flex::PackJob> PackJobs(const flex::FlexProblem& p) {
  std::vector<flex::PackJob> pack;
  for (const flex::FlexJob& j : p.jobs) pack.push_back({j.work, j.min_slots, j.max_slots});
  return pack;
}

}  // namespace

std::vector<double> WaterLevelShares(std::span<const double> min, std::span<const double> max,
                                     double capacity) {
  std::vector<double> out(max.begin(), max.end());
  if (std::accumulate(max.begin(), max.end(), 0.0) <= capacity) return out;
  // The level lies between two consecutive breakpoints (a minimum or a maximum), where the
  // sum of shares grows linearly with slope = the jobs strictly between their two bounds.
  std::vector<double> points(min.begin(), min.end());
  points.insert(points.end(), max.begin(), max.end());
  std::sort(points.begin(), points.end());
  double lo = points.front();
  for (double hi : points) {
    if (SharesAt(min, max, hi) < capacity) {
      lo = hi;
      continue;
    }
    int slope = 0;
    for (size_t j = 0; j < min.size(); ++j)
      slope += min[j] <= lo && max[j] >= hi && min[j] < max[j];
    double level = slope > 0 && hi > lo ? lo + (capacity - SharesAt(min, max, lo)) / slope : lo;
    for (size_t j = 0; j < min.size(); ++j) out[j] = std::clamp(level, min[j], max[j]);
    return out;
  }
  return out;
}

Result<std::vector<double>> FifoCompletions(const flex::FlexProblem& p) {
  MR_RETURN_IF_ERROR(flex::CheckProblem(p));
  std::vector<flex::PackJob> pack = PackJobs(p);
  for (flex::PackJob& j : pack) j.min = 0;
  std::vector<int> arrival(pack.size());
  std::iota(arrival.begin(), arrival.end(), 0);
  MR_ASSIGN_OR_RETURN(flex::PackedSchedule s, flex::PackMalleable(p.slots, p.now, pack, arrival));
  return s.completion;
}

Result<std::vector<double>> FairCompletions(const flex::FlexProblem& p) {
  MR_RETURN_IF_ERROR(flex::CheckProblem(p));
  std::vector<flex::PackJob> pack = PackJobs(p);
  std::vector<int> minima;
  for (const flex::PackJob& j : pack) minima.push_back(j.work > 0 ? j.min : 0);
  minima = flex::NormalizeMinima(minima, p.slots);
  for (size_t j = 0; j < pack.size(); ++j) pack[j].min = minima[j];
  flex::PackState state = flex::StartPack(pack, p.now);
  std::vector<double> lo(pack.size()), hi(pack.size());
  while (state.unfinished > 0) {
    for (size_t j = 0; j < pack.size(); ++j) {
      const bool open = !state.Finished(static_cast<int>(j));
      lo[j] = open ? pack[j].min : 0;
      hi[j] = open ? pack[j].max : 0;
    }
    std::vector<double> rate = WaterLevelShares(lo, hi, p.slots);
    MR_RETURN_IF_ERROR(flex::Advance(pack, rate, &state).status());
  }
  return state.completion;
}

}  // namespace mr::model
