#include "scheduler/flex/allocator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace mr::flex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The problem with its minima normalised, in the shapes the packer and the objective read.
struct Context {
  int slots = 0;
  double now = 0;
  double origin = 0;
  std::span<const FlexJob> jobs;  // minima as given
  std::vector<FlexJob> norm;      // minima normalised
  std::vector<PackJob> pack;
  std::vector<Metric> metrics;
  std::vector<JobTerms> terms;
};

struct Candidate {
  std::vector<int> order;
  std::string name;
  PackedSchedule schedule;
  double value = kInf;
};

Result<Candidate> Pack(const Context& ctx, std::vector<int> order, std::string name) {
  Candidate c{std::move(order), std::move(name), {}, 0};
  MR_ASSIGN_OR_RETURN(c.schedule, PackMalleable(ctx.slots, ctx.now, ctx.pack, c.order));
  c.value = CombinedObjective(ctx.metrics, ctx.terms, c.schedule.completion, ctx.origin);
  return c;
}

double FirstDeadline(const JobTerms& t) {
  if (t.deadline) return *t.deadline;
  return t.sla.empty() ? kInf : t.sla.front().deadline;
}

size_t FirstTardy(const Context& ctx, const std::vector<int>& front, const Candidate& c) {
  for (size_t k = 0; k < front.size(); ++k) {
    if (c.schedule.completion[front[k]] > FirstDeadline(ctx.terms[front[k]])) return k;
  }
  return front.size();
}

// Moore-Hodgson through the packer: start from EDF; while a job of the front list is tardy,
// move one job among those up to the first tardy one to the end. Which one: each of three
// candidates is packed and the best kept - the job with the most work per unit weight (the
// classic rule), the one of least weight, and the tardy job itself (the classic rule alone
// drops a heavy job to save a light one). Returns the best order seen.
Result<Candidate> EdfTardyLast(const Context& ctx) {
  std::vector<int> front = StaticOrder(OrderKind::kEarliestDeadline, ctx.norm), tail;
  MR_ASSIGN_OR_RETURN(Candidate current, Pack(ctx, front, ""));
  Candidate best = current;
  for (size_t k = FirstTardy(ctx, front, current); k < front.size();
       k = FirstTardy(ctx, front, current)) {
    size_t most_work = 0, least_weight = 0;
    for (size_t i = 0; i <= k; ++i) {
      const FlexJob& j = ctx.norm[front[i]];
      const FlexJob& a = ctx.norm[front[most_work]];
      const FlexJob& b = ctx.norm[front[least_weight]];
      const double w = EffectiveWeight(j.metric, j.terms);
      if (j.work / w > a.work / EffectiveWeight(a.metric, a.terms)) most_work = i;
      if (w < EffectiveWeight(b.metric, b.terms)) least_weight = i;
    }
    Candidate next;
    size_t moved = k;
    for (size_t drop : {most_work, least_weight, k}) {
      std::vector<int> order = front;
      order.erase(order.begin() + static_cast<long>(drop));
      order.insert(order.end(), tail.begin(), tail.end());
      order.push_back(front[drop]);
      MR_ASSIGN_OR_RETURN(Candidate c, Pack(ctx, std::move(order), ""));
      if (c.value < next.value) next = std::move(c), moved = drop;
    }
    tail.push_back(front[moved]);
    front.erase(front.begin() + static_cast<long>(moved));
    current = std::move(next);
    if (current.value < best.value) best = current;
  }
  best.name = OrderName(OrderKind::kEdfTardyLast);
  return best;
}

// Adjacent swaps on best.order, each kept when it lowers the objective.
Status ImproveBySwaps(const Context& ctx, int rounds, Candidate* best,
                      std::vector<OrderTrial>* trials) {
  bool changed = false;
  for (int r = 0; r < rounds; ++r) {
    bool improved = false;
    for (size_t i = 0; i + 1 < best->order.size(); ++i) {
      std::vector<int> order = best->order;
      std::swap(order[i], order[i + 1]);
      MR_ASSIGN_OR_RETURN(Candidate c, Pack(ctx, std::move(order), best->name));
      if (c.value < best->value) {
        *best = std::move(c);
        improved = changed = true;
      }
    }
    if (!improved) break;
  }
  if (changed) {
    best->name += "+swaps";
    trials->push_back({best->name, best->value});
  }
  return Status::Ok();
}

Context MakeContext(const FlexProblem& problem) {
  Context ctx;
  ctx.slots = problem.slots;
  ctx.now = problem.now;
  ctx.jobs = problem.jobs;
  ctx.origin = problem.jobs.empty() ? problem.now : kInf;
  std::vector<int> minima;
  for (const FlexJob& j : problem.jobs) {
    minima.push_back(j.work > 0 ? j.min_slots : 0);
    ctx.origin = std::min(ctx.origin, j.terms.arrival);
  }
  minima = NormalizeMinima(minima, problem.slots);
  ctx.norm = problem.jobs;
  for (size_t j = 0; j < ctx.norm.size(); ++j) {
    FlexJob& n = ctx.norm[j];
    n.min_slots = minima[j];
    ctx.pack.push_back({n.work, n.min_slots, n.max_slots});
    ctx.metrics.push_back(n.metric);
    ctx.terms.push_back(n.terms);
  }
  return ctx;
}

// The specific orders of every metric present, each once, in menu order.
std::vector<OrderKind> SpecificOrders(std::span<const FlexJob> jobs) {
  std::vector<OrderKind> kinds;
  std::vector<char> present(MetricTable().size(), 0);
  for (const FlexJob& j : jobs) present[static_cast<size_t>(j.metric)] = 1;
  for (const MetricInfo& info : MetricTable()) {
    if (!present[static_cast<size_t>(info.metric)]) continue;
    for (OrderKind k : info.orders) {
      if (k != OrderKind::kNone && std::find(kinds.begin(), kinds.end(), k) == kinds.end()) {
        kinds.push_back(k);
      }
    }
  }
  return kinds;
}

// The moldable RAP's completions, solved at most once per decision (the generic order and
// kRapDeadlines both read them).
struct MoldableCache {
  const Context& ctx;
  StepSolver solver;
  std::vector<double> completion;
  bool solved = false;

  Status Solve() {
    if (solved) return Status::Ok();
    std::vector<int> minima;
    for (const FlexJob& j : ctx.norm) minima.push_back(j.min_slots);
    MR_ASSIGN_OR_RETURN(
        completion, MoldableCompletions(ctx.slots, ctx.now, ctx.origin, ctx.norm, minima, solver));
    solved = true;
    return Status::Ok();
  }
};

// Builds the metric-specific order `kind` and packs it.
Result<Candidate> PackKind(const Context& ctx, OrderKind kind, MoldableCache* moldable) {
  std::vector<int> order;
  switch (kind) {
    case OrderKind::kEdfTardyLast:
      return EdfTardyLast(ctx);
    case OrderKind::kRapDeadlines:
      MR_RETURN_IF_ERROR(moldable->Solve());
      order = MetDeadlineOrder(ctx.norm, moldable->completion);
      break;
    case OrderKind::kLawler:
      order = LawlerOrder(ctx.norm, ctx.slots, ctx.now, ctx.origin);
      break;
    default:
      order = StaticOrder(kind, ctx.norm);
      break;
  }
  return Pack(ctx, std::move(order), std::string(OrderName(kind)));
}

}  // namespace

Result<FlexDecision> Allocate(const FlexProblem& problem, const FlexOptions& options) {
  MR_RETURN_IF_ERROR(CheckProblem(problem));
  if (!options.generic_order && !options.specific_orders) {
    return Status::InvalidArgument("FLEX: no priority order enabled");
  }
  const Context ctx = MakeContext(problem);
  FlexDecision out;
  for (size_t j = 0; j < ctx.norm.size(); ++j) {
    out.minima.push_back(ctx.norm[j].min_slots);
    out.minima_normalised |= ctx.norm[j].work > 0 && ctx.norm[j].min_slots != ctx.jobs[j].min_slots;
  }
  if (ctx.norm.empty()) return out;
  Candidate best;
  auto consider = [&](Candidate c) {
    out.trials.push_back({c.name, c.value});
    if (c.value < best.value) best = std::move(c);
  };
  MoldableCache moldable{ctx, options.step_solver, {}, false};
  if (options.generic_order) {
    MR_RETURN_IF_ERROR(moldable.Solve());
    MR_ASSIGN_OR_RETURN(Candidate c, Pack(ctx, CompletionOrder(moldable.completion),
                                          std::string(kGenericOrderName)));
    consider(std::move(c));
  }
  if (options.specific_orders) {
    for (OrderKind kind : SpecificOrders(ctx.norm)) {
      MR_ASSIGN_OR_RETURN(Candidate c, PackKind(ctx, kind, &moldable));
      consider(std::move(c));
    }
  }
  MR_RETURN_IF_ERROR(ImproveBySwaps(ctx, options.swap_rounds, &best, &out.trials));

  out.allocation = best.schedule.intervals.empty() ? std::vector<int>(ctx.norm.size(), 0)
                                                   : best.schedule.intervals.front().slots;
  out.order = std::move(best.order);
  out.order_name = std::move(best.name);
  out.schedule = std::move(best.schedule);
  out.predicted = best.value;
  return out;
}

}  // namespace mr::flex
