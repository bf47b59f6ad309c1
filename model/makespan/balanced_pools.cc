#include "model/makespan/balanced_pools.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace mr::model {

namespace {

// One split's pools at a given size, simulated once each.
class SplitSearch {
 public:
  SplitSearch(std::span<const BatchJob> jobs, std::span<const JobProfile> profiles, std::vector<int> small,
              std::vector<int> large, SlotShape cluster, const BatchSimOptions& sim, int64_t* simulations)
      : jobs_(jobs), profiles_(profiles), small_(std::move(small)), large_(std::move(large)), cluster_(cluster),
        sim_(sim), simulations_(simulations) {}

  // Both pools when the small one has k map slots.
  const std::pair<Pool, Pool>& At(int k) {
    auto it = memo_.find(k);
    if (it != memo_.end()) return it->second;
    const int rk = SmallPoolReduceSlots(k, cluster_);
    std::pair<Pool, Pool> pools{Run(small_, {k, rk}), Run(large_, {cluster_.map_slots - k, cluster_.reduce_slots - rk})};
    return memo_.emplace(k, std::move(pools)).first->second;
  }

  // The best pools around the balance point.
  std::pair<Pool, Pool> Best() {
    int lo = 1, hi = cluster_.map_slots - 1;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      const auto& [a, b] = At(mid);
      if (a.makespan < b.makespan) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    std::pair<Pool, Pool> best = At(lo);
    if (lo > 1 && Worse(best, At(lo - 1))) best = At(lo - 1);
    return best;
  }

  // The pseudocode's loop (PoolSearch::kPaper), ended once end − begin <= 1.
  std::pair<Pool, Pool> Paper() {
    int begin = 1, end = cluster_.map_slots;
    int last = begin;
    while (end - begin > 1) {
      last = (begin + end) / 2;
      const auto& [a, b] = At(last);
      if (a.makespan < b.makespan) {
        end = last;
      } else {
        begin = last;
      }
    }
    return At(last);
  }

  static double Makespan(const std::pair<Pool, Pool>& p) { return std::max(p.first.makespan, p.second.makespan); }

 private:
  static bool Worse(const std::pair<Pool, Pool>& a, const std::pair<Pool, Pool>& b) { return Makespan(b) < Makespan(a); }

  Pool Run(const std::vector<int>& subset, SlotShape slots) {
    Pool pool;
    pool.slots = slots;
    pool.order = JohnsonOrderOn(profiles_, subset, slots);
    pool.makespan = SimulateValidBatch(jobs_, pool.order, slots, sim_).makespan;
    ++*simulations_;
    return pool;
  }

  std::span<const BatchJob> jobs_;
  std::span<const JobProfile> profiles_;
  std::vector<int> small_, large_;
  SlotShape cluster_;
  BatchSimOptions sim_;
  int64_t* simulations_;
  std::map<int, std::pair<Pool, Pool>> memo_;
};

// Job indices in input order, so that Johnson's ties fall as on the whole batch.
std::vector<int> Sorted(std::vector<int>::const_iterator begin, std::vector<int>::const_iterator end) {
  std::vector<int> out(begin, end);
  std::sort(out.begin(), out.end());
  return out;
}

// The slot-seconds of all its tasks.
double JobWork(const BatchJob& j) {
  double w = 0;
  for (double d : j.map_durations) w += d;
  for (double d : j.reduce_durations) w += d;
  return w;
}

}  // namespace

int SmallPoolReduceSlots(int map_slots, SlotShape cluster) {
  if (cluster.reduce_slots == cluster.map_slots) return map_slots;
  const double share = static_cast<double>(map_slots) / cluster.map_slots;
  const int r = static_cast<int>(std::lround(share * cluster.reduce_slots));
  return std::clamp(r, 1, cluster.reduce_slots - 1);
}

Result<PoolsResult> BalancedPools(std::span<const BatchJob> jobs, SlotShape cluster, const PoolsOptions& options) {
  const BatchSimOptions& sim = options.sim;
  if (jobs.empty()) return Status::InvalidArgument("balancedpools: no jobs");
  if (cluster.map_slots < 1 || cluster.reduce_slots < 1) {
    return Status::InvalidArgument("balancedpools: map and reduce slots must be >= 1");
  }
  std::vector<JobProfile> profiles;
  for (const BatchJob& j : jobs) {
    MR_RETURN_IF_ERROR(ValidateBatchJob(j));
    profiles.push_back(ProfileOf(j));
  }
  const int n = static_cast<int>(jobs.size());
  std::vector<int> by_maps(n);
  std::iota(by_maps.begin(), by_maps.end(), 0);
  if (options.key == PoolSplitKey::kWork) {
    std::vector<double> work(n, 0);
    for (int i = 0; i < n; ++i) work[i] = JobWork(jobs[i]);
    std::stable_sort(by_maps.begin(), by_maps.end(), [&](int a, int b) { return work[a] < work[b]; });
  } else {
    std::stable_sort(by_maps.begin(), by_maps.end(),
                     [&](int a, int b) { return jobs[a].map_durations.size() < jobs[b].map_durations.size(); });
  }

  PoolsResult r;
  Pool whole;
  whole.slots = cluster;
  whole.order = JohnsonOrderOn(profiles, ArrivalOrder(n), cluster);
  whole.makespan = SimulateValidBatch(jobs, whole.order, cluster, sim).makespan;
  r.simulations = 1;
  r.johnson_makespan = r.makespan = whole.makespan;
  r.pools = {whole};
  if (cluster.map_slots < 2 || cluster.reduce_slots < 2) return r;
  for (int split = 1; split < n; ++split) {
    SplitSearch search(jobs, profiles, Sorted(by_maps.begin(), by_maps.begin() + split),
                       Sorted(by_maps.begin() + split, by_maps.end()), cluster, sim, &r.simulations);
    std::pair<Pool, Pool> best = options.search == PoolSearch::kPaper ? search.Paper() : search.Best();
    if (SplitSearch::Makespan(best) < r.makespan) {
      r.makespan = SplitSearch::Makespan(best);
      r.split = split;
      r.pools = {std::move(best.first), std::move(best.second)};
    }
  }
  return r;
}

std::string DescribePoolsVariants(const PoolsOptions& options) {
  std::string out;
  auto add = [&](const std::string& v) { out += (out.empty() ? "" : ", ") + v; };
  if (options.key == PoolSplitKey::kWork) add("pools-by work");
  if (options.search == PoolSearch::kPaper) add("pool-search paper");
  if (options.sim.reduce_slow_start != BatchSimOptions{}.reduce_slow_start) {
    char text[64];
    std::snprintf(text, sizeof text, "slow-start %g", options.sim.reduce_slow_start);
    add(text);
  }
  return out;
}

Status ParsePoolsVariants(const std::string& pools_by, const std::string& search, PoolsOptions& options) {
  if (pools_by != "maps" && pools_by != "work") {
    return Status::InvalidArgument("--pools-by: '" + pools_by + "' is not maps or work");
  }
  if (search != "crossing" && search != "paper") {
    return Status::InvalidArgument("--pool-search: '" + search + "' is not crossing or paper");
  }
  options.key = pools_by == "work" ? PoolSplitKey::kWork : PoolSplitKey::kMapTasks;
  options.search = search == "paper" ? PoolSearch::kPaper : PoolSearch::kCrossing;
  return Status::Ok();
}

}  // namespace mr::model
