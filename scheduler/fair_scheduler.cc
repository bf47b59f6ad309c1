#include "scheduler/fair_scheduler.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>

#include "scheduler/policy_util.h"
#include "scheduler/slot_filler.h"
#include "scheduler/water_fill.h"

namespace mr::sched {
namespace {

struct PoolGroup {
  const PoolConfig* config = nullptr;
  std::vector<int> jobs;  // indices into snap.jobs, arrival order
  int reduces_running = 0;
};

std::vector<PoolGroup> GroupByPool(const Snapshot& snap, const PoolTable& table,
                                   std::span<const int> order, std::vector<int>* pool_of) {
  std::vector<PoolGroup> groups;
  std::unordered_map<std::string_view, int> index;
  pool_of->assign(snap.jobs.size(), 0);
  for (int j : order) {
    // Both arms are views: a std::string arm would make the view dangle.
    std::string_view name =
        snap.jobs[j].pool.empty() ? std::string_view("default") : std::string_view(snap.jobs[j].pool);
    auto [it, inserted] = index.emplace(name, static_cast<int>(groups.size()));
    if (inserted) groups.push_back({&table.Lookup(name), {}, 0});
    PoolGroup& g = groups[it->second];
    g.jobs.push_back(j);
    g.reduces_running += snap.jobs[j].reduces_running;
    (*pool_of)[j] = it->second;
  }
  return groups;
}

// Needy pools (below min_reduces) first, then fewest running reduces per weight.
// Only jobs with a ready reduce take part: the sort runs every round.
std::vector<int> ReduceOrder(const Snapshot& snap, const std::vector<PoolGroup>& groups,
                             const std::vector<int>& pool_of, std::span<const int> arrival) {
  std::vector<int> order;
  for (int j : arrival) {
    if (!snap.jobs[j].ready_reduces.empty()) order.push_back(j);
  }
  auto key = [&](int j) {
    const PoolGroup& g = groups[pool_of[j]];
    bool needy = g.reduces_running < g.config->min_reduces;
    double w = std::max(snap.jobs[j].weight, 1e-9);
    return std::make_pair(needy ? 0 : 1, snap.jobs[j].reduces_running / w);
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  return order;
}

// Splits the pool's share among its jobs: first the pool's minimum, then the
// share, each max-min fair by job weight and capped by demand.
void PoolTargets(const Snapshot& snap, const SlotFiller& f, const PoolGroup& g,
                 double pool_min, double pool_share, std::vector<SlotTarget>* out) {
  std::vector<FairItem> items;
  items.reserve(g.jobs.size());
  for (int j : g.jobs) {
    items.push_back({snap.jobs[j].weight, 0, double(f.running_maps(j) + f.pending_maps(j))});
  }
  std::vector<double> mins(items.size(), 0.0);
  if (pool_min > 0) {
    mins = WaterFill(items, pool_min);
    for (size_t i = 0; i < items.size(); ++i) items[i].min = mins[i];
  }
  std::vector<double> shares = WaterFill(items, pool_share);
  for (size_t i = 0; i < items.size(); ++i) out->push_back({g.jobs[i], shares[i], mins[i]});
}

std::vector<SlotTarget> MapTargets(const Snapshot& snap, SlotFiller& f,
                                   const std::vector<PoolGroup>& groups, double* capacity) {
  *capacity = f.free_map_slots();
  std::vector<FairItem> pools;
  pools.reserve(groups.size());
  for (const PoolGroup& g : groups) {
    double demand = 0;
    for (int j : g.jobs) demand += f.running_maps(j) + f.pending_maps(j);
    for (int j : g.jobs) *capacity += snap.jobs[j].maps_running;
    pools.push_back({g.config->weight, double(g.config->min_maps), demand});
  }
  std::vector<double> pool_share = WaterFill(pools, *capacity);
  std::vector<SlotTarget> targets;
  targets.reserve(snap.jobs.size());
  for (size_t p = 0; p < groups.size(); ++p) {
    double pool_min = std::min({pools[p].min, pools[p].cap, pool_share[p]});
    PoolTargets(snap, f, groups[p], pool_min, pool_share[p], &targets);
  }
  return targets;
}

void ShuffleShares(const Snapshot& snap, Decision* d) {
  double total = 0;
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) total += std::max(j.weight, 1e-9);
  }
  if (total <= 0) return;
  // Ids usually grow with arrival, so the end is the right hint.
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) {
      d->shuffle_shares.emplace_hint(d->shuffle_shares.end(), j.id, std::max(j.weight, 1e-9) / total);
    }
  }
}

}  // namespace

Decision FairScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  std::vector<int> order = ArrivalOrder(snap);
  std::vector<int> pool_of;
  std::vector<PoolGroup> groups = GroupByPool(snap, pools_, order, &pool_of);
  SlotFiller filler(snap, &d);
  filler.PlaceReduces(ReduceOrder(snap, groups, pool_of, order));
  double capacity = 0;
  std::vector<SlotTarget> targets = MapTargets(snap, filler, groups, &capacity);
  // map_shares stays empty: with a thousand jobs the map would cost more than
  // the decision; the fair share is implied by the pools and weights.
  FillTowardTargets(filler, targets);
  ShuffleShares(snap, &d);
  d.note = Format("fair: %zu jobs in %zu pools share %.0f map slots", snap.jobs.size(),
                  groups.size(), capacity);
  return d;
}

}  // namespace mr::sched
