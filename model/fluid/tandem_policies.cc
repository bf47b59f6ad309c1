// The policies behind MakeTandemPolicy. Each returns rates for the current
// state; the simulator asks again at every event, so "online" behaviour (SRPT
// re-ordering, SplitSRPT's beta updates on arrivals/departures) falls out of
// recomputing from the state.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/fluid/tandem_policy.h"

#include "scheduler/policy_table.h"

namespace mr::model {

double FillInOrder(std::span<const int> idx, double capacity, std::span<const double> caps,
                   std::vector<double>& rates) {
  for (int i : idx) {
    if (capacity <= 0) break;
    double give = std::min(capacity, std::max(0.0, caps[i] - rates[i]));
    rates[i] += give;
    capacity -= give;
  }
  return std::max(0.0, capacity);
}

double FillFair(std::span<const int> idx, double capacity, std::span<const double> caps,
                std::vector<double>& rates) {
  std::vector<int> sorted(idx.begin(), idx.end());
  auto room = [&](int i) { return std::max(0.0, caps[i] - rates[i]); };
  std::sort(sorted.begin(), sorted.end(), [&](int a, int b) { return room(a) < room(b); });
  size_t left = sorted.size();
  for (int i : sorted) {
    double share = capacity / static_cast<double>(left);
    double give = std::min(share, room(i));
    rates[i] += give;
    capacity -= give;
    --left;
  }
  return std::max(0.0, capacity);
}

namespace {

std::vector<int> Indices(size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Gives the whole map station to the first job in `order` that still has map work.
std::vector<double> MapToFirst(std::span<const JobState> jobs, std::span<const int> order) {
  std::vector<double> rates(jobs.size(), 0.0);
  for (int i : order) {
    if (!jobs[i].MapDone()) {
      rates[i] = 1.0;
      break;
    }
  }
  return rates;
}

struct KeySlope {
  double key;
  double slope;  // d key / dt under the current rates (<= 0)
};

// Earliest time at which a job behind overtakes the one ahead of it in key order.
// Pairs already tied are ignored: whichever wins the tie, the order stays
// consistent, and re-deciding a tie would only produce zero-length steps.
double CrossingHorizon(std::vector<KeySlope> ks) {
  std::sort(ks.begin(), ks.end(), [](const KeySlope& a, const KeySlope& b) { return a.key < b.key; });
  double dt = kInf;
  for (size_t i = 1; i < ks.size(); ++i) {
    double gap = ks[i].key - ks[i - 1].key;
    if (gap > 1e-9 * std::max(1.0, std::abs(ks[i].key)) && ks[i].slope < ks[i - 1].slope) {
      dt = std::min(dt, gap / (ks[i - 1].slope - ks[i].slope));
    }
  }
  return dt;
}

// One order at both stations; the shuffle is work-conserving in that order.
class PriorityPolicy : public TandemPolicy {
 public:
  std::vector<double> MapRates(std::span<const JobState> jobs) const override {
    return MapToFirst(jobs, Order(jobs));
  }
  std::vector<double> ShuffleRates(std::span<const JobState> jobs,
                                   std::span<const double> caps) const override {
    std::vector<double> rates(jobs.size(), 0.0);
    FillInOrder(Order(jobs), 1.0, caps, rates);
    return rates;
  }

 protected:
  virtual std::vector<int> Order(std::span<const JobState> jobs) const = 0;
};

class FifoPolicy : public PriorityPolicy {
 public:

 protected:
  std::vector<int> Order(std::span<const JobState> jobs) const override { return Indices(jobs.size()); }
};

class FixedOrderPolicy final : public PriorityPolicy {
 public:
  explicit FixedOrderPolicy(std::vector<int> rank) : rank_(std::move(rank)) {}
  std::string_view name() const override { return "fixed-order"; }

 protected:
  std::vector<int> Order(std::span<const JobState> jobs) const override {
    std::vector<int> order = Indices(jobs.size());
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return rank_.at(jobs[a].id) < rank_.at(jobs[b].id); });
    return order;
  }

 private:
  std::vector<int> rank_;
};

// Algorithm 1: smallest max(x_i(t), y_i(t)) first at both stations, ties by arrival.
class MaxSrptPolicy : public PriorityPolicy {
 public:

  double Horizon(std::span<const JobState> jobs, const Rates& r) const override {
    std::vector<KeySlope> ks;
    ks.reserve(jobs.size());
    double dt = kInf;
    for (size_t i = 0; i < jobs.size(); ++i) {
      double x = jobs[i].x_rem, y = jobs[i].y_rem, p = r.map[i], q = r.shuffle[i];
      // The key max(x, y) is linear until the smaller side overtakes: a kink.
      if (x > y && p > q) dt = std::min(dt, (x - y) / (p - q));
      if (y > x && q > p) dt = std::min(dt, (y - x) / (q - p));
      double slope = x > y ? -p : (y > x ? -q : -std::min(p, q));
      ks.push_back({std::max(x, y), slope});
    }
    return std::min(dt, CrossingHorizon(std::move(ks)));
  }

 protected:
  std::vector<int> Order(std::span<const JobState> jobs) const override {
    std::vector<int> order = Indices(jobs.size());
    auto key = [&](int i) { return std::max(jobs[i].x_rem, jobs[i].y_rem); };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    return order;
  }
};

class PsPolicy : public TandemPolicy {
 public:
  std::vector<double> MapRates(std::span<const JobState> jobs) const override {
    std::vector<double> rates(jobs.size(), 0.0);
    std::vector<double> caps(jobs.size(), kInf);
    std::vector<int> mapping;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (!jobs[i].MapDone()) mapping.push_back(static_cast<int>(i));
    }
    FillFair(mapping, 1.0, caps, rates);
    return rates;
  }
  std::vector<double> ShuffleRates(std::span<const JobState> jobs,
                                   std::span<const double> caps) const override {
    std::vector<double> rates(jobs.size(), 0.0);
    FillFair(Indices(jobs.size()), 1.0, caps, rates);
    return rates;
  }
};

// k-LPS: limited processor sharing at the map station, as in the paper: the first
// k jobs by arrival that still have map work share it equally; a job leaves the map
// station (freeing its place for the next) when its map work ends, not when it
// departs, exactly as the live klps policy does. Shuffle: PS among all jobs with data.
class KLpsPolicy : public TandemPolicy {
 public:
  explicit KLpsPolicy(int k) : k_(k) {}
  std::vector<double> MapRates(std::span<const JobState> jobs) const override {
    std::vector<double> rates(jobs.size(), 0.0);
    std::vector<double> caps(jobs.size(), kInf);
    std::vector<int> mapping;
    for (size_t i = 0; i < jobs.size() && static_cast<int>(mapping.size()) < k_; ++i) {
      if (!jobs[i].MapDone()) mapping.push_back(static_cast<int>(i));
    }
    FillFair(mapping, 1.0, caps, rates);
    return rates;
  }
  std::vector<double> ShuffleRates(std::span<const JobState> jobs,
                                   std::span<const double> caps) const override {
    std::vector<double> rates(jobs.size(), 0.0);
    FillFair(Indices(jobs.size()), 1.0, caps, rates);
    return rates;
  }

 private:
  int k_;
};

// Algorithm 2. beta = min over present jobs of max(x/y, y/x) on original sizes;
// it only changes when the job set does, so recomputing it at every event is
// the same as updating it on arrivals and departures. S1 (x >= y) gets map
// mu2 = beta/(1+beta) and shuffle mu1 = 1/(1+beta), SRPT on remaining map size;
// S2 (x < y) gets map mu1 and shuffle mu2, SRPT on remaining shuffle size.
// Capacity one class cannot use (empty class, no mappable job, no shuffle data)
// goes to the other class, so both stations stay work-conserving.
class SplitSrptPolicy : public TandemPolicy {
 public:

  std::vector<double> MapRates(std::span<const JobState> jobs) const override {
    Split s = Classify(jobs);
    std::vector<double> rates(jobs.size(), 0.0);
    int h1 = FirstMappable(jobs, s.s1), h2 = FirstMappable(jobs, s.s2);
    if (h1 >= 0 && h2 >= 0) {
      rates[h1] = s.mu2;
      rates[h2] = s.mu1;
    } else if (h1 >= 0 || h2 >= 0) {
      rates[std::max(h1, h2)] = 1.0;
    }
    return rates;
  }

  std::vector<double> ShuffleRates(std::span<const JobState> jobs,
                                   std::span<const double> caps) const override {
    Split s = Classify(jobs);
    std::vector<double> rates(jobs.size(), 0.0);
    double share1 = s.s1.empty() ? 0.0 : (s.s2.empty() ? 1.0 : s.mu1);
    double share2 = s.s1.empty() ? 1.0 : (s.s2.empty() ? 0.0 : s.mu2);
    double left = FillInOrder(s.s1, share1, caps, rates) + FillInOrder(s.s2, share2, caps, rates);
    left = FillInOrder(s.s2, left, caps, rates);
    FillInOrder(s.s1, left, caps, rates);
    return rates;
  }

  double Horizon(std::span<const JobState> jobs, const Rates& r) const override {
    std::vector<KeySlope> k1, k2;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].x >= jobs[i].y) {
        k1.push_back({jobs[i].x_rem, -r.map[i]});
      } else {
        k2.push_back({jobs[i].y_rem, -r.shuffle[i]});
      }
    }
    return std::min(CrossingHorizon(std::move(k1)), CrossingHorizon(std::move(k2)));
  }

 private:
  struct Split {
    std::vector<int> s1, s2;  // each in SRPT order
    double mu1 = 0.5, mu2 = 0.5;
  };

  static Split Classify(std::span<const JobState> jobs) {
    Split s;
    double beta = kInf;
    for (size_t i = 0; i < jobs.size(); ++i) {
      const JobState& j = jobs[i];
      beta = std::min(beta, std::max(j.x / j.y, j.y / j.x));
      (j.x >= j.y ? s.s1 : s.s2).push_back(static_cast<int>(i));
    }
    if (beta < kInf) {
      s.mu1 = 1.0 / (1.0 + beta);
      s.mu2 = beta / (1.0 + beta);
    }
    // Stable sorts keep arrival order among equal remaining sizes.
    // Map-done S1 jobs all have remaining map size 0; among them the smallest
    // remaining shuffle goes first (SRPT), rather than the oldest, which would
    // park a tiny job's last shuffle behind an old large one.
    std::stable_sort(s.s1.begin(), s.s1.end(), [&](int a, int b) {
      if (jobs[a].x_rem != jobs[b].x_rem) return jobs[a].x_rem < jobs[b].x_rem;
      return jobs[a].y_rem < jobs[b].y_rem;
    });
    std::stable_sort(s.s2.begin(), s.s2.end(),
                     [&](int a, int b) { return jobs[a].y_rem < jobs[b].y_rem; });
    return s;
  }

  static int FirstMappable(std::span<const JobState> jobs, const std::vector<int>& cls) {
    for (int i : cls) {
      if (!jobs[i].MapDone()) return i;
    }
    return -1;
  }
};

// A fluid policy named by its table row.
template <typename P>
class Named final : public P {
 public:
  template <typename... Args>
  explicit Named(std::string_view name, Args&&... args) : P(std::forward<Args>(args)...), name_(name) {}
  std::string_view name() const override { return name_; }

 private:
  std::string_view name_;
};

template <typename P>
Result<std::unique_ptr<TandemPolicy>> MakePlain(std::string_view name, int) {
  return std::unique_ptr<TandemPolicy>(std::make_unique<Named<P>>(name));
}

Result<std::unique_ptr<TandemPolicy>> MakeKlps(std::string_view name, int k) {
  if (k < 1) return Status::InvalidArgument(std::string(name) + " needs k >= 1, got " + std::to_string(k));
  return std::unique_ptr<TandemPolicy>(std::make_unique<Named<KLpsPolicy>>(name, k));
}

// The fluid policies. A live policy names the one that models it in its row's
// PolicyTraits::fluid (scheduler/policy_table.h); `k_option` is the live option that gives
// the fluid k when the counterpart is made from a live policy's options.
struct FluidRow {
  const char* name;
  const char* k_option;
  Result<std::unique_ptr<TandemPolicy>> (*create)(std::string_view name, int k);
};

constexpr FluidRow kFluidPolicies[] = {
    {"fifo", nullptr, MakePlain<FifoPolicy>},
    {"ps", nullptr, MakePlain<PsPolicy>},
    {"klps", "klps-k", MakeKlps},
    {"maxsrpt", nullptr, MakePlain<MaxSrptPolicy>},
    {"splitsrpt", nullptr, MakePlain<SplitSrptPolicy>},
};

}  // namespace

const std::vector<std::string>& TandemPolicyNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const FluidRow& row : kFluidPolicies) names.emplace_back(row.name);
    return names;
  }();
  return kNames;
}

Result<std::unique_ptr<TandemPolicy>> MakeTandemPolicy(std::string_view name, int k) {
  for (const FluidRow& row : kFluidPolicies) {
    if (name == row.name) return row.create(row.name, k);
  }
  std::string known;
  for (const std::string& n : TandemPolicyNames()) known += (known.empty() ? "" : ", ") + n;
  return Status::NotFound("unknown policy '" + std::string(name) + "' (known: " + known + ")");
}

Result<std::unique_ptr<TandemPolicy>> MakeFluidCounterpart(std::string_view live_policy,
                                                           const sched::PolicyOptions& live_options) {
  const sched::PolicyRow* live = sched::FindPolicy(live_policy);
  if (live == nullptr) return sched::UnknownPolicy(live_policy);
  const char* fluid = live->traits.fluid;
  if (fluid == nullptr) {
    return Status::NotFound("policy '" + std::string(live_policy) + "' has no fluid-model counterpart");
  }
  for (const FluidRow& row : kFluidPolicies) {
    if (std::string_view(fluid) != row.name) continue;
    int k = row.k_option != nullptr && live_options.Has(row.k_option)
                ? static_cast<int>(live_options.Int(row.k_option))
                : 100;
    return row.create(row.name, k);
  }
  return Status::Internal("policy '" + std::string(live_policy) + "' names fluid policy '" + fluid +
                          "', which the fluid table does not have");
}

std::unique_ptr<TandemPolicy> MakeFixedOrderPolicy(std::vector<int> rank) {
  return std::make_unique<FixedOrderPolicy>(std::move(rank));
}

}  // namespace mr::model
