#include "scheduler/policies/fair_scheduler.h"

#include <algorithm>
#include <span>

#include "scheduler/util/policy_util.h"

namespace mr::sched {
namespace {

// Distinct pool names remembered; jobs may name any pool, so the cache is
// dropped (and rebuilt from the jobs at hand) rather than allowed to grow.
constexpr size_t kMaxCachedPools = 1024;

void ShuffleShares(const Snapshot& snap, std::vector<std::pair<JobId, double>>* pairs,
                   Decision* d) {
  double total = 0;
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) total += std::max(j.params.weight, 1e-9);
  }
  if (total <= 0) return;
  pairs->clear();
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) pairs->emplace_back(j.id, std::max(j.params.weight, 1e-9) / total);
  }
  AddShares(*pairs, &d->shuffle_shares);
}

}  // namespace

// The config is looked up once per pool name, not once per pool per decision.
int FairScheduler::SlotOf(std::string_view pool_name) {
  bool added = false;
  const int slot = slot_of_name_.Intern(pool_name, &added);
  if (added) AddSlot(pool_name);
  return slot;
}

void FairScheduler::AddSlot(std::string_view pool_name) {
  slot_config_.push_back(pools_.Lookup(pool_name));
  group_of_slot_.push_back(-1);
}

// Groups jobs by pool name ("" is "default"), pools in order of first arrival.
void FairScheduler::GroupByPool(const Snapshot& snap) {
  for (size_t g = 0; g < group_count_; ++g) {
    group_of_slot_[groups_[g].slot] = -1;
    groups_[g].jobs.clear();
  }
  group_count_ = 0;
  if (slot_of_name_.size() > kMaxCachedPools) {
    slot_of_name_.Clear();
    slot_config_.clear();
    group_of_slot_.clear();
  }
  pool_of_.assign(snap.jobs.size(), 0);
  for (int j : arrival_) {
    const JobView& job = snap.jobs[j];
    // Both arms are views: a std::string arm would make the view dangle.
    const std::string& pool = job.params.pool;
    const int slot = SlotOf(pool.empty() ? std::string_view("default") : std::string_view(pool));
    int g = group_of_slot_[slot];
    if (g < 0) {
      g = group_of_slot_[slot] = static_cast<int>(group_count_++);
      if (groups_.size() < group_count_) groups_.emplace_back();
      groups_[g].slot = slot;
      groups_[g].reduces_running = 0;
    }
    groups_[g].jobs.push_back(j);
    groups_[g].reduces_running += job.reduces_running;
    pool_of_[j] = g;
  }
}

// Needy pools (below min_reduces) first, then fewest running reduces per
// weight. Only jobs with a ready reduce that has a free slot on its worker take
// part, and only the head that the free reduce slots reach gets sorted.
void FairScheduler::ReduceOrder(const Snapshot& snap, SlotFiller& f) {
  reduce_order_.Clear();
  for (int j : arrival_) {
    const JobView& job = snap.jobs[j];
    if (!f.CanPlaceReduce(j)) continue;
    const PoolGroup& g = groups_[pool_of_[j]];
    bool needy = g.reduces_running < slot_config_[g.slot].min_reduces;
    double w = std::max(job.params.weight, 1e-9);
    reduce_order_.Add(j, needy ? 0 : 1, job.reduces_running / w);
  }
}

// Splits the pool's share among its jobs: first the pool's minimum, then the
// share, each max-min fair by job weight and capped by demand.
void FairScheduler::PoolTargets(const Snapshot& snap, const SlotFiller& f, const PoolGroup& g,
                                double pool_min, double pool_share) {
  job_items_.clear();
  for (int j : g.jobs) {
    job_items_.push_back({snap.jobs[j].params.weight, 0, double(f.running_maps(j) + f.pending_maps(j))});
  }
  mins_.assign(job_items_.size(), 0.0);
  if (pool_min > 0) {
    WaterFill(job_items_, pool_min, &mins_, &water_);
    for (size_t i = 0; i < job_items_.size(); ++i) job_items_[i].min = mins_[i];
  }
  WaterFill(job_items_, pool_share, &shares_, &water_);
  for (size_t i = 0; i < job_items_.size(); ++i) targets_.push_back({g.jobs[i], shares_[i], mins_[i]});
}

// Fills targets_; returns the map slots being shared (free + running).
double FairScheduler::MapTargets(const Snapshot& snap, SlotFiller& f) {
  double capacity = f.free_map_slots();
  pool_items_.clear();
  for (size_t p = 0; p < group_count_; ++p) {
    const PoolGroup& g = groups_[p];
    double demand = 0;
    for (int j : g.jobs) demand += f.running_maps(j) + f.pending_maps(j);
    for (int j : g.jobs) capacity += snap.jobs[j].maps_running;
    const PoolConfig& config = slot_config_[g.slot];
    pool_items_.push_back({config.weight, double(config.min_maps), demand});
  }
  WaterFill(pool_items_, capacity, &pool_share_, &water_);
  targets_.clear();
  for (size_t p = 0; p < group_count_; ++p) {
    double pool_min = std::min({pool_items_[p].min, pool_items_[p].cap, pool_share_[p]});
    PoolTargets(snap, f, groups_[p], pool_min, pool_share_[p]);
  }
  return capacity;
}

Decision FairScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  ArrivalOrder(snap, &arrival_);
  GroupByPool(snap);
  SlotFiller filler(snap, &d, &buffers_);
  ReduceOrder(snap, filler);
  PlaceReduces(filler, reduce_order_);
  double capacity = MapTargets(snap, filler);
  // map_shares stays empty: with a thousand jobs the map would cost more than
  // the decision; the fair share is implied by the pools and weights.
  memory_.Apply(snap, targets_);
  FillTowardTargets(filler, targets_, &fill_);
  memory_.Record(snap, d);
  ShuffleShares(snap, &share_pairs_, &d);
  d.note = Format("fair: %zu jobs in %zu pools share %.0f map slots", snap.jobs.size(),
                  group_count_, capacity);
  return d;
}

}  // namespace mr::sched
