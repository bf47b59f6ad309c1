#include "model/fluid/tandem_sim.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace mr::model {
namespace {

Status ValidateJobs(std::span<const TandemJob> jobs) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TandemJob& j = jobs[i];
    bool ok = std::isfinite(j.arrival) && std::isfinite(j.x) && std::isfinite(j.y) &&
              j.arrival >= 0 && j.x > 0 && j.y > 0;
    if (!ok) {
      return Status::InvalidArgument("job " + std::to_string(i) +
                                     ": need arrival >= 0 and finite sizes x, y > 0");
    }
  }
  return Status::Ok();
}

// Tolerance for "rates sum to at most capacity": the fill helpers add many terms.
constexpr double kCapacitySlack = 1e-7;

Status CheckRates(std::span<const JobState> active, const Rates& r, std::span<const double> caps) {
  if (r.map.size() != active.size() || r.shuffle.size() != active.size()) {
    return Status::Internal("policy returned the wrong number of rates");
  }
  double map_sum = 0, shuffle_sum = 0;
  for (size_t i = 0; i < active.size(); ++i) {
    if (r.map[i] < 0 || r.shuffle[i] < 0 || r.shuffle[i] > caps[i] * (1 + 1e-9) + 1e-12) {
      return Status::Internal("policy gave job " + std::to_string(active[i].id) +
                              " a negative rate or more shuffle than it can use");
    }
    map_sum += r.map[i];
    shuffle_sum += r.shuffle[i];
  }
  if (map_sum > 1 + kCapacitySlack || shuffle_sum > 1 + kCapacitySlack) {
    return Status::Internal("policy exceeded a station's capacity");
  }
  return Status::Ok();
}

// Time until the next state change of any active job under `r`.
double NextJobEvent(std::span<const JobState> active, const Rates& r, double rel_eps) {
  double dt = kInf;
  for (size_t i = 0; i < active.size(); ++i) {
    const JobState& j = active[i];
    double p = r.map[i], q = r.shuffle[i];
    if (p > 0 && !j.MapDone()) dt = std::min(dt, j.x_rem / p);
    if (q > 0) dt = std::min(dt, j.y_rem / q);
    double backlog = j.Backlog(), feed = j.FeedRate(p);
    if (!j.MapDone() && backlog > rel_eps * j.y && q > feed) {
      dt = std::min(dt, backlog / (q - feed));
    }
  }
  return dt;
}

// Advances every job by dt; snaps remaining work within rel_eps to zero.
void Advance(std::vector<JobState>& active, const Rates& r, double dt, double rel_eps) {
  for (size_t i = 0; i < active.size(); ++i) {
    JobState& j = active[i];
    j.x_rem -= r.map[i] * dt;
    j.y_rem -= r.shuffle[i] * dt;
    if (j.x_rem <= rel_eps * j.x) j.x_rem = 0;
    if (j.y_rem <= rel_eps * j.y) j.y_rem = 0;
    // The overlap rule y(t)/y >= x(t)/x may be broken by rounding only.
    if (!j.MapDone() && j.y_rem < j.y * j.x_rem / j.x) j.y_rem = j.y * j.x_rem / j.x;
  }
}

std::vector<double> ShuffleCaps(std::span<const JobState> active, std::span<const double> map,
                                double rel_eps) {
  std::vector<double> caps(active.size());
  for (size_t i = 0; i < active.size(); ++i) {
    const JobState& j = active[i];
    caps[i] = j.Backlog() > rel_eps * j.y ? kInf : j.FeedRate(map[i]);
  }
  return caps;
}

Result<Rates> ComputeRates(const TandemPolicy& policy, std::span<const JobState> active,
                           double rel_eps) {
  Rates r;
  r.map = policy.MapRates(active);
  if (r.map.size() != active.size()) return Status::Internal("policy map rates: wrong size");
  std::vector<double> caps = ShuffleCaps(active, r.map, rel_eps);
  r.shuffle = policy.ShuffleRates(active, caps);
  MR_RETURN_IF_ERROR(CheckRates(active, r, caps));
  return r;
}

void Summarise(SimResult& out) {
  for (size_t i = 0; i < out.response.size(); ++i) {
    out.total_response += out.response[i];
    out.makespan = std::max(out.makespan, out.completion[i]);
  }
  size_t n = out.response.size();
  out.mean_response = n == 0 ? 0.0 : out.total_response / static_cast<double>(n);
}

}  // namespace

Result<SimResult> SimulateTandem(std::span<const TandemJob> jobs, const TandemPolicy& policy,
                                 const SimOptions& options) {
  MR_RETURN_IF_ERROR(ValidateJobs(jobs));
  const double eps = options.rel_eps;
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return jobs[a].arrival < jobs[b].arrival; });

  SimResult out;
  out.completion.assign(jobs.size(), 0.0);
  out.response.assign(jobs.size(), 0.0);
  std::vector<JobState> active;
  size_t next = 0;
  double t = 0;
  int64_t stalled = 0;  // consecutive zero-length steps without a departure
  const int64_t max_stalled = 1000 + 10 * static_cast<int64_t>(jobs.size());

  while (next < order.size() || !active.empty()) {
    if (active.empty()) t = std::max(t, jobs[order[next]].arrival);
    while (next < order.size() && jobs[order[next]].arrival <= t) {
      const TandemJob& j = jobs[order[next]];
      active.push_back({order[next], j.arrival, j.x, j.y, j.x, j.y});
      ++next;
    }
    MR_ASSIGN_OR_RETURN(Rates r, ComputeRates(policy, active, eps));
    double dt = NextJobEvent(active, r, eps);
    if (next < order.size()) dt = std::min(dt, jobs[order[next]].arrival - t);
    dt = std::min(dt, policy.Horizon(active, r));
    if (!(dt < kInf)) {
      return Status::Internal(std::string(policy.name()) + ": no job can progress at t=" +
                              std::to_string(t));
    }
    dt = std::max(dt, 0.0);
    Advance(active, r, dt, eps);
    t += dt;
    ++out.events;

    size_t before = active.size();
    std::erase_if(active, [&](const JobState& j) {
      if (j.y_rem > 0) return false;
      out.completion[j.id] = t;
      out.response[j.id] = t - j.arrival;
      return true;
    });
    bool progressed = active.size() != before || dt > 1e-12 * std::max(1.0, t);
    stalled = progressed ? 0 : stalled + 1;
    if (stalled > max_stalled) {
      return Status::Internal(std::string(policy.name()) + ": stuck in zero-length steps at t=" +
                              std::to_string(t));
    }
  }
  Summarise(out);
  return out;
}

}  // namespace mr::model
