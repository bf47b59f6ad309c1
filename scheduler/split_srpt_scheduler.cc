#include "scheduler/split_srpt_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/policy_util.h"
#include "scheduler/slot_filler.h"

namespace mr::sched {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double Imbalance(const JobSize& s) {
  if (s.x <= 0 && s.y <= 0) return 1;
  if (s.x <= 0 || s.y <= 0) return kInf;
  return std::max(s.x / s.y, s.y / s.x);
}

struct Classes {
  std::vector<int> map_heavy;      // S1, SRPT on remaining map size
  std::vector<int> shuffle_heavy;  // S2, SRPT on remaining shuffle size
  std::vector<int> unknown;        // no estimate, arrival order
  std::vector<int> all;            // every job by its class key (reduce order)
};

Classes Classify(const Snapshot& snap, std::span<const JobSize> sizes) {
  std::vector<int> arrival = ArrivalOrder(snap);
  std::vector<double> key(sizes.size(), kInf);
  Classes c;
  std::vector<int> s1, s2;
  for (int j : arrival) {
    const JobSize& s = sizes[j];
    if (!s.known) {
      c.unknown.push_back(j);
    } else if (s.x >= s.y) {
      s1.push_back(j);
      key[j] = s.x_remaining;
    } else {
      s2.push_back(j);
      key[j] = s.y_remaining;
    }
  }
  c.map_heavy = OrderByKey(s1, key);
  c.shuffle_heavy = OrderByKey(s2, key);
  c.all = OrderByKey(arrival, key);
  return c;
}

int RunningMaps(const SlotFiller& f, std::span<const int> jobs) {
  int n = 0;
  for (int j : jobs) n += f.running_maps(j);
  return n;
}

// Each job in `order` takes what it can until `budget` slots are used.
void FillBudget(SlotFiller& f, std::span<const int> order, int budget) {
  for (int j : order) {
    if (budget <= 0) return;
    budget -= f.AssignMaps(j, std::min(budget, f.pending_maps(j)));
  }
}

// Class target slot counts spread SRPT over the class's jobs, for the trace.
void RecordTargets(const Snapshot& snap, const SlotFiller& f, std::span<const int> order,
                   int target, Decision* d) {
  for (int j : order) {
    int take = std::min(target, f.running_maps(j) + f.pending_maps(j));
    if (take > 0) d->map_shares[snap.jobs[j].id] = take;
    target -= take;
  }
}

void ShuffleShares(const Snapshot& snap, const Classes& c, double mu1, double mu2, Decision* d) {
  int h1 = FirstWithShuffleData(snap, c.map_heavy);
  int h2 = FirstWithShuffleData(snap, c.shuffle_heavy);
  if (h1 >= 0 && h2 >= 0) {
    if (mu1 > 0) d->shuffle_shares[snap.jobs[h1].id] = mu1;
    if (mu2 > 0) d->shuffle_shares[snap.jobs[h2].id] = mu2;
    return;
  }
  int head = h1 >= 0 ? h1 : h2 >= 0 ? h2 : FirstWithShuffleData(snap, c.unknown);
  if (head >= 0) d->shuffle_shares[snap.jobs[head].id] = 1.0;
}

}  // namespace

double SplitSrptScheduler::Beta(std::span<const JobSize> sizes) {
  double beta = kInf;
  bool any = false;
  for (const JobSize& s : sizes) {
    if (!s.known) continue;
    any = true;
    beta = std::min(beta, Imbalance(s));
  }
  return any ? beta : 1;
}

Decision SplitSrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  Capacity cap = CapacityOf(snap);
  std::vector<JobSize> sizes;
  sizes.reserve(snap.jobs.size());
  for (const JobView& job : snap.jobs) sizes.push_back(SizeOf(job, cap));
  double beta = Beta(sizes);
  double mu1 = std::isinf(beta) ? 0 : 1 / (1 + beta);
  double mu2 = 1 - mu1;
  Classes c = Classify(snap, sizes);

  SlotFiller filler(snap, &d);
  filler.PlaceReduces(c.all);
  int probes = GiveProbes(filler, c.unknown, sizes);
  int free = filler.free_map_slots();
  int r1 = RunningMaps(filler, c.map_heavy), r2 = RunningMaps(filler, c.shuffle_heavy);
  int slots = free + r1 + r2 + RunningMaps(filler, c.unknown);
  int t1 = static_cast<int>(std::lround(mu2 * slots));
  if (c.shuffle_heavy.empty()) t1 = slots;
  if (c.map_heavy.empty()) t1 = 0;
  int t2 = slots - t1;
  RecordTargets(snap, filler, c.map_heavy, t1, &d);
  RecordTargets(snap, filler, c.shuffle_heavy, t2, &d);

  // Running tasks are never preempted, so a class over its target just gets no
  // new slot; if both are under, split the free slots in proportion to deficit.
  int d1 = std::max(0, t1 - r1), d2 = std::max(0, t2 - r2);
  int a1 = d1 + d2 > free ? static_cast<int>(std::lround(double(free) * d1 / (d1 + d2))) : d1;
  FillBudget(filler, c.map_heavy, a1);
  FillBudget(filler, c.shuffle_heavy, std::max(0, std::min(d2, free - a1)));
  // No idling: what a class cannot use goes to the other, then to unknown jobs.
  filler.FillInOrder(c.map_heavy);
  filler.FillInOrder(c.shuffle_heavy);
  filler.FillInOrder(c.unknown);
  ShuffleShares(snap, c, mu1, mu2, &d);
  d.note = Format("splitsrpt: beta=%.3g map-heavy %zu jobs %d/%d slots share %.3g, "
                  "shuffle-heavy %zu jobs %d/%d slots share %.3g, %d probes",
                  beta, c.map_heavy.size(), t1, slots, mu1, c.shuffle_heavy.size(), t2, slots,
                  mu2, probes);
  return d;
}

}  // namespace mr::sched
