// Event-driven fluid simulator of the overlapping tandem queue (Lin et al.,
// the overlapping-phases paper §2, docs/model.md): a map station and a shuffle station of
// capacity 1; job i's shuffle work becomes available in proportion to its map
// progress. Rates are piecewise constant, so the simulator jumps from event to
// event (arrival, map end, shuffle end, backlog drained, policy re-ordering) and
// never time-steps. Pure computation, no shared state: thread-compatible.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// One job of an instance: release time r_i, map size x_i, shuffle size y_i
// (both in seconds of the normalised station capacity). REQUIRES x, y > 0.
struct TandemJob {
  double arrival = 0;
  double x = 0;
  double y = 0;
};

// A job in the system as a policy sees it.
struct JobState {
  int id = 0;  // index in the instance
  double arrival = 0, x = 0, y = 0;
  double x_rem = 0, y_rem = 0;

  bool MapDone() const { return x_rem <= 0; }
  // Shuffle work that has arrived at the shuffle station and is not yet served:
  // y·(1 − x(t)/x) − (y − y(t)).
  double Backlog() const { return MapDone() ? y_rem : y_rem - y * x_rem / x; }
  // Rate at which the map produces shuffle work when mapped at `map_rate`.
  double FeedRate(double map_rate) const { return MapDone() ? 0.0 : map_rate * y / x; }
};

struct Rates {
  std::vector<double> map;
  std::vector<double> shuffle;
};

// A scheduling policy: given the jobs in the system (ordered by arrival, ties by
// id), return rates per job. Stateless between calls; the simulator calls it at
// every event. Map rates must sum to <= 1; shuffle rates to <= 1 with
// shuffle[i] <= caps[i].
class TandemPolicy {
 public:
  virtual ~TandemPolicy() = default;
  virtual std::string_view name() const = 0;
  virtual std::vector<double> MapRates(std::span<const JobState> jobs) const = 0;
  // caps[i] is the most shuffle rate job i can use now: kInf while it has a
  // backlog, else its feed rate (y/x)·map rate.
  virtual std::vector<double> ShuffleRates(std::span<const JobState> jobs,
                                           std::span<const double> caps) const = 0;
  // Time until the policy's own priority order could change if `rates` were held
  // (e.g. one job's remaining size overtaking another's); kInf if never.
  virtual double Horizon(std::span<const JobState> jobs, const Rates& rates) const { return kInf; }
};

struct SimResult {
  std::vector<double> completion;  // per job, in instance order
  std::vector<double> response;    // completion − arrival
  double total_response = 0;
  double mean_response = 0;
  double makespan = 0;  // last completion
  int64_t events = 0;
};

struct SimOptions {
  // Remaining work below rel_eps·(job size) counts as done; a backlog below it
  // counts as drained. Guards float drift without distorting the sample path.
  double rel_eps = 1e-9;
};

// Simulates `jobs` (any arrival order) under `policy` until every job departs.
// Errors: InvalidArgument for a non-positive/non-finite size or arrival;
// Internal if the policy breaks the capacity contract or makes no progress.
Result<SimResult> SimulateTandem(std::span<const TandemJob> jobs, const TandemPolicy& policy,
                                 const SimOptions& options = {});

}  // namespace mr::model
