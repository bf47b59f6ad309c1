#include "scheduler/policies/split_srpt_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/util/policy_util.h"

namespace mr::sched {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double Imbalance(const JobSize& s) {
  if (s.x <= 0 && s.y <= 0) return 1;
  if (s.x <= 0 || s.y <= 0) return kInf;
  return std::max(s.x / s.y, s.y / s.x);
}

int RunningMaps(const SlotFiller& f, std::span<const int> jobs) {
  int n = 0;
  for (int j : jobs) n += f.running_maps(j);
  return n;
}

// Each job in `order` takes what it can until `budget` slots are used, on
// workers not in `avoid`.
void FillBudget(SlotFiller& f, IncrementalOrder& order, int budget, std::span<const WorkerId> avoid) {
  order.ForEachBlock([&] { return budget > 0 && f.free_map_slots() > 0; },
                     [&](std::span<const int> block) {
                       for (int j : block) {
                         if (budget <= 0) return;
                         int got = f.AssignMaps(j, std::min(budget, f.pending_maps(j)), avoid);
                         budget -= got;
                         if (got == 0 && f.pending_maps(j) > 0) return;  // only avoided slots left
                       }
                     });
}

int MapCapableWorkers(const Snapshot& snap) {
  int n = 0;
  for (const WorkerView& w : snap.workers) n += w.map_slots + w.unified_slots > 0 ? 1 : 0;
  return n;
}

// Class target slot counts spread SRPT over the class's jobs, for the trace.
// With valid counts every take is >= 0, so nothing is recorded once the target
// is used up and the rest of the order need not be sorted.
void RecordTargets(const Snapshot& snap, const SlotFiller& f, IncrementalOrder& order,
                   int target, bool counts_valid, Decision* d) {
  order.ForEachBlock([&] { return target > 0 || !counts_valid; },
                     [&](std::span<const int> block) {
                       for (int j : block) {
                         int take = std::min(target, f.running_maps(j) + f.pending_maps(j));
                         if (take > 0) d->map_shares[snap.jobs[j].id] = take;
                         target -= take;
                       }
                     });
}

void ShuffleShares(const Snapshot& snap, IncrementalOrder& map_order,
                   IncrementalOrder& shuffle_order, std::span<const int> unknown, double mu1,
                   double mu2, Decision* d) {
  int h1 = FirstWithShuffleData(snap, map_order);
  int h2 = FirstWithShuffleData(snap, shuffle_order);
  if (h1 >= 0 && h2 >= 0) {
    if (mu1 > 0) d->shuffle_shares[snap.jobs[h1].id] = mu1;
    if (mu2 > 0) d->shuffle_shares[snap.jobs[h2].id] = mu2;
    return;
  }
  int head = h1 >= 0 ? h1 : h2 >= 0 ? h2 : FirstWithShuffleData(snap, unknown);
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

void SplitSrptScheduler::Classify(const Snapshot& snap) {
  Classes& c = c_;
  c.map_heavy.clear();
  c.shuffle_heavy.clear();
  c.unknown.clear();
  c.map_order.Clear();
  c.shuffle_order.Clear();
  c.key.assign(snap.jobs.size(), kInf);
  c.counts_valid = true;
  ArrivalOrder(snap, &arrival_);
  c.minor.assign(snap.jobs.size(), 0);
  for (int j : arrival_) {
    const JobSize& s = sizes_[j];
    // A job whose shuffle is over has left the paper's Q(t): it is in no class and
    // ranks only for its reduces, by the key it had.
    const bool present = !ShuffleDone(snap.jobs[j]);
    double key = kInf;
    if (!s.known) {
      if (present) c.unknown.push_back(j);
    } else if (s.x >= s.y) {
      // SRPT on remaining map size; jobs whose maps are done all have x(t) = 0,
      // and among them the smallest remaining shuffle goes first (as in the fluid
      // model) rather than the oldest.
      key = s.x_remaining;
      c.minor[j] = s.y_remaining;
      if (present) {
        c.map_heavy.push_back(j);
        c.map_order.Add(j, key, c.minor[j]);
      }
    } else {
      key = s.y_remaining;
      if (present) {
        c.shuffle_heavy.push_back(j);
        c.shuffle_order.Add(j, key);
      }
    }
    c.key[j] = key;
    c.counts_valid = c.counts_valid && snap.jobs[j].maps_running >= 0;
  }
}

std::span<const WorkerId> SplitSrptScheduler::Avoid(int k, int target, int workers) {
  const std::vector<WorkerId>& r = recent_[k];
  if (target >= workers || target <= 0) return {};
  size_t n = std::min(r.size(), static_cast<size_t>(target));
  return std::span<const WorkerId>(r).last(n);
}

void SplitSrptScheduler::NoteStarts(int k, const Decision& d, size_t from) {
  constexpr size_t kMaxRemembered = 256;
  std::vector<WorkerId>& r = recent_[k];
  for (size_t i = from; i < d.assignments.size(); ++i) {
    const Assignment& a = d.assignments[i];
    if (a.kind != TaskKind::kMap) continue;
    auto it = std::find(r.begin(), r.end(), a.worker);
    if (it != r.end()) r.erase(it);
    r.push_back(a.worker);
  }
  if (r.size() > kMaxRemembered) r.erase(r.begin(), r.end() - kMaxRemembered);
}

Decision SplitSrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  Capacity cap = CapacityOf(snap, uncapped_link_rate_);
  sizes_.clear();
  present_sizes_.clear();
  for (const JobView& job : snap.jobs) {
    sizes_.push_back(SizeOf(job, cap));
    if (!ShuffleDone(job)) present_sizes_.push_back(sizes_.back());
  }
  double beta = Beta(present_sizes_);
  double mu1 = std::isinf(beta) ? 0 : 1 / (1 + beta);
  double mu2 = 1 - mu1;
  Classify(snap);
  Classes& c = c_;

  SlotFiller filler(snap, &d, &buffers_);
  c.reduce_order.Clear();
  for (int j : arrival_) {
    if (filler.CanPlaceReduce(j)) c.reduce_order.Add(j, c.key[j], c.minor[j]);
  }
  PlaceReduces(filler, c.reduce_order);
  int probes = GiveProbes(filler, c.unknown, sizes_);
  int free = filler.free_map_slots();
  int r1 = RunningMaps(filler, c.map_heavy), r2 = RunningMaps(filler, c.shuffle_heavy);
  int slots = free + r1 + r2 + RunningMaps(filler, c.unknown);
  int t1 = static_cast<int>(std::lround(mu2 * slots));
  if (c.shuffle_heavy.empty()) t1 = slots;
  if (c.map_heavy.empty()) t1 = 0;
  int t2 = slots - t1;
  RecordTargets(snap, filler, c.map_order, t1, c.counts_valid, &d);
  RecordTargets(snap, filler, c.shuffle_order, t2, c.counts_valid, &d);

  // Running tasks are never preempted, so a class over its target just gets no
  // new slot; if both are under, split the free slots in proportion to deficit.
  int d1 = std::max(0, t1 - r1), d2 = std::max(0, t2 - r2);
  int a1 = d1 + d2 > free ? static_cast<int>(std::lround(double(free) * d1 / (d1 + d2))) : d1;
  const int workers = MapCapableWorkers(snap);
  size_t from = d.assignments.size();
  FillBudget(filler, c.map_order, a1, Avoid(0, t1, workers));
  NoteStarts(0, d, from);
  from = d.assignments.size();
  FillBudget(filler, c.shuffle_order, std::max(0, std::min(d2, free - a1)), Avoid(1, t2, workers));
  NoteStarts(1, d, from);
  // No idling: what a class cannot use (or avoids) goes to the other, then to
  // unknown jobs.
  from = d.assignments.size();
  FillInOrder(filler, c.map_order);
  NoteStarts(0, d, from);
  from = d.assignments.size();
  FillInOrder(filler, c.shuffle_order);
  NoteStarts(1, d, from);
  filler.FillInOrder(c.unknown);
  ShuffleShares(snap, c.map_order, c.shuffle_order, c.unknown, mu1, mu2, &d);
  d.note = Format("splitsrpt: beta=%.3g map-heavy %zu jobs %d/%d slots share %.3g, "
                  "shuffle-heavy %zu jobs %d/%d slots share %.3g, %d probes",
                  beta, c.map_heavy.size(), t1, slots, mu1, c.shuffle_heavy.size(), t2, slots,
                  mu2, probes);
  return d;
}

}  // namespace mr::sched
