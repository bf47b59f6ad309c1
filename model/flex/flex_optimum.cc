#include "model/flex/flex_optimum.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "scheduler/flex/mps.h"

namespace mr::model {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The problem in the shapes the packer and the objective read, minima normalised.
struct Packed {
  int slots = 0;
  double now = 0;
  double origin = 0;
  std::vector<flex::PackJob> jobs;
  std::vector<flex::Metric> metrics;
  std::vector<flex::JobTerms> terms;

  double Objective(const std::vector<double>& completion) const {
    return flex::CombinedObjective(metrics, terms, completion, origin);
  }
};

Result<Packed> Prepare(const flex::FlexProblem& p, int max_jobs) {
  MR_RETURN_IF_ERROR(flex::CheckProblem(p));
  if (static_cast<int>(p.jobs.size()) > max_jobs) {
    return Status::InvalidArgument("flex optimum: " + std::to_string(p.jobs.size()) +
                                   " jobs, at most " + std::to_string(max_jobs));
  }
  Packed k;
  k.slots = p.slots;
  k.now = p.now;
  k.origin = p.jobs.empty() ? p.now : kInf;
  std::vector<int> minima;
  for (const flex::FlexJob& j : p.jobs) {
    k.jobs.push_back({j.work, j.min_slots, j.max_slots});
    minima.push_back(j.work > 0 ? j.min_slots : 0);
    k.metrics.push_back(j.metric);
    k.terms.push_back(j.terms);
    k.origin = std::min(k.origin, j.terms.arrival);
  }
  minima = flex::NormalizeMinima(minima, p.slots);
  for (size_t j = 0; j < minima.size(); ++j) k.jobs[j].min = minima[j];
  return k;
}

Result<double> PackOrder(const Packed& k, const std::vector<int>& order) {
  MR_ASSIGN_OR_RETURN(flex::PackedSchedule s, flex::PackMalleable(k.slots, k.now, k.jobs, order));
  return k.Objective(s.completion);
}

class OrderSearch {
 public:
  explicit OrderSearch(const Packed& k) : k_(k), chosen_(k.jobs.size(), 0), bound_(k.jobs.size()) {}

  Status Run(const std::vector<int>& incumbent, FlexOptimum* out) {
    best_ = kInf;
    if (!incumbent.empty()) {
      MR_ASSIGN_OR_RETURN(best_, PackOrder(k_, incumbent));
      best_order_ = incumbent;
    }
    Dfs(flex::StartPack(k_.jobs, k_.now));
    MR_RETURN_IF_ERROR(status_);
    out->value = best_;
    out->order = best_order_;
    out->packings = nodes_;
    return Status::Ok();
  }

 private:
  // Every unfinished job at its maximum from now on; the last of them no earlier than the
  // remaining work spread over the slots the unfinished jobs can use. The objective is
  // non-decreasing in every completion, so the best way to place "the last one" is a minimum
  // over which job it is.
  double LowerBound(const flex::PackState& st) {
    double work = 0;
    long long cap = 0;
    for (size_t j = 0; j < k_.jobs.size(); ++j) {
      if (st.Finished(static_cast<int>(j))) {
        bound_[j] = st.completion[j];
        continue;
      }
      bound_[j] = st.time + st.remaining[j] / k_.jobs[j].max;
      work += st.remaining[j];
      cap += k_.jobs[j].max;
    }
    const double last = st.time + work / static_cast<double>(std::min<long long>(cap, k_.slots));
    for (size_t j = 0; j < k_.jobs.size(); ++j) {
      // A job already bounded at or after `last` may be the last one: nothing to raise.
      if (!st.Finished(static_cast<int>(j)) && bound_[j] >= last) return k_.Objective(bound_);
    }
    double best = kInf;
    for (size_t j = 0; j < k_.jobs.size(); ++j) {
      if (st.Finished(static_cast<int>(j))) continue;
      const double keep = bound_[j];
      bound_[j] = last;
      best = std::min(best, k_.Objective(bound_));
      bound_[j] = keep;
    }
    return best;
  }

  void Dfs(const flex::PackState& st) {
    if (!status_.ok()) return;
    ++nodes_;
    if (st.unfinished == 0) return Leaf(st);
    if (LowerBound(st) >= best_) return;
    std::vector<int> alloc(k_.jobs.size());
    int slack = flex::FillByPriority(k_.jobs, st, prefix_, k_.slots, alloc);
    if (slack > 0 && Branch(st)) return;
    flex::PackState next = st;
    std::vector<double> rate(alloc.begin(), alloc.end());
    Result<double> t = flex::Advance(k_.jobs, rate, &next);
    if (!t.ok()) {
      status_ = t.status();
      return;
    }
    if (next.unfinished > 0) return Dfs(next);
    Leaf(next);
  }

  void Leaf(const flex::PackState& st) {
    double value = k_.Objective(st.completion);
    if (value < best_) {
      best_ = value;
      best_order_ = prefix_;
      for (size_t j = 0; j < k_.jobs.size(); ++j) {
        if (!chosen_[j]) best_order_.push_back(static_cast<int>(j));
      }
    }
  }

  // Extends the prefix by each unfinished job not in it that can take slack. False when there
  // is none (every such job is at its maximum already): the packing is then fixed.
  bool Branch(const flex::PackState& st) {
    bool any = false;
    for (size_t j = 0; j < k_.jobs.size(); ++j) {
      const int job = static_cast<int>(j);
      if (chosen_[j] || st.Finished(job) || k_.jobs[j].max == k_.jobs[j].min) continue;
      any = true;
      chosen_[j] = 1;
      prefix_.push_back(job);
      Dfs(st);
      prefix_.pop_back();
      chosen_[j] = 0;
    }
    return any;
  }

  const Packed& k_;
  std::vector<char> chosen_;
  std::vector<int> prefix_;
  std::vector<double> bound_;
  double best_ = kInf;
  std::vector<int> best_order_;
  int64_t nodes_ = 0;
  Status status_;
};

}  // namespace

Result<FlexOptimum> OptimumByEnumeration(const flex::FlexProblem& problem, int max_jobs) {
  MR_ASSIGN_OR_RETURN(Packed k, Prepare(problem, max_jobs));
  std::vector<int> order(k.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  FlexOptimum out;
  out.value = kInf;
  do {
    MR_ASSIGN_OR_RETURN(double v, PackOrder(k, order));
    ++out.packings;
    if (v < out.value) out.value = v, out.order = order;
  } while (std::next_permutation(order.begin(), order.end()));
  return out;
}

Result<FlexOptimum> OptimumBySearch(const flex::FlexProblem& problem,
                                    const std::vector<int>& incumbent, int max_jobs) {
  MR_ASSIGN_OR_RETURN(Packed k, Prepare(problem, max_jobs));
  FlexOptimum out;
  OrderSearch search(k);
  MR_RETURN_IF_ERROR(search.Run(incumbent, &out));
  return out;
}

}  // namespace mr::model
