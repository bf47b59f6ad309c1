#include "model/flex/flex_sim.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "model/flex/flex_baselines.h"
#include "model/flex/flex_optimum.h"

namespace mr::model {
namespace {

constexpr const char* kSchemes[] = {"fifo", "fair", "flex"};

struct InstanceOutcome {
  FlexInstanceRow row;
  double slack = 0;
};

Result<double> Value(const flex::FlexProblem& p, const std::vector<double>& completion) {
  std::vector<flex::JobTerms> terms;
  for (const flex::FlexJob& j : p.jobs) terms.push_back(j.terms);
  return flex::Evaluate(p.jobs.front().metric, terms, completion);
}

Result<InstanceOutcome> RunInstance(const FlexSimOptions& o, int index) {
  flex::FlexProblem p = MakeFlexInstance(o.workload, index);
  InstanceOutcome out;
  out.row.index = index;
  MR_ASSIGN_OR_RETURN(std::vector<double> fifo, FifoCompletions(p));
  MR_ASSIGN_OR_RETURN(std::vector<double> fair, FairCompletions(p));
  MR_ASSIGN_OR_RETURN(flex::FlexDecision flex, flex::Allocate(p, o.flex));
  for (const std::vector<double>* c : {&fifo, &fair, &flex.schedule.completion}) {
    MR_ASSIGN_OR_RETURN(double v, Value(p, *c));
    out.row.values.push_back(v);
  }
  out.row.flex_order = flex.order_name;
  out.row.optimum = out.row.values.back();
  if (o.optimum != FlexOptimumMethod::kNone) {
    Result<FlexOptimum> opt = o.optimum == FlexOptimumMethod::kSearch
                                  ? OptimumBySearch(p, flex.order)
                                  : OptimumByEnumeration(p);
    if (!opt.ok()) return opt.status();
    out.row.optimum = opt->value;
    out.row.search_nodes = opt->packings;
  }
  long long minima = std::accumulate(flex.minima.begin(), flex.minima.end(), 0LL);
  out.slack = 1.0 - static_cast<double>(minima) / p.slots;
  return out;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

Result<FlexSimResult> SimulateFlex(const FlexSimOptions& o) {
  MR_RETURN_IF_ERROR(CheckFlexWorkload(o.workload));
  if (o.instances < 1) return Status::InvalidArgument("flex model: --instances must be >= 1");
  const int max_jobs = o.optimum == FlexOptimumMethod::kEnumeration ? 10 : 12;
  if (o.optimum != FlexOptimumMethod::kNone && o.workload.jobs > max_jobs) {
    return Status::InvalidArgument("flex model: the optimum needs --jobs <= " +
                                   std::to_string(max_jobs) + " (or --optimum none)");
  }
  FlexSimResult r;
  for (const char* name : kSchemes) r.schemes.push_back({name, 0, 0, 0});
  double slack = 0;
  for (int i = 0; i < o.instances; ++i) {
    MR_ASSIGN_OR_RETURN(InstanceOutcome out, RunInstance(o, i));
    slack += out.slack;
    r.search_nodes += out.row.search_nodes;
    ++r.flex_orders[out.row.flex_order];
    if (out.row.optimum > 0) {
      ++r.counted;
      for (size_t s = 0; s < r.schemes.size(); ++s) {
        double ratio = out.row.values[s] / out.row.optimum;
        r.schemes[s].mean_ratio += ratio;
        r.schemes[s].worst_ratio = std::max(r.schemes[s].worst_ratio, ratio);
        r.schemes[s].mean_value += out.row.values[s];
      }
    } else {
      ++r.skipped;
    }
    r.rows.push_back(std::move(out.row));
  }
  for (FlexSchemeStats& s : r.schemes) {
    if (r.counted > 0) s.mean_ratio /= r.counted, s.mean_value /= r.counted;
  }
  r.mean_slack = slack / o.instances;
  return r;
}

Status RunFlexSim(const FlexSimOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(FlexSimResult r, SimulateFlex(o));
  const FlexWorkloadOptions& w = o.workload;
  const char* against = o.optimum == FlexOptimumMethod::kNone ? "flex" : "optimum";
  out << "# flex model: " << w.jobs << " jobs, " << w.slots << " slots, " << o.instances
      << " instances, small share " << Fixed(w.small_share, 2) << ", slack " << Fixed(w.slack, 2)
      << ", metric " << flex::MetricName(w.metric) << ", seed " << w.seed << "; ratio to "
      << against << "\n";
  if (o.csv) {
    out << "scheme,mean_ratio,worst_ratio,mean_value,counted\n";
    for (const FlexSchemeStats& s : r.schemes) {
      out << s.scheme << "," << Fixed(s.mean_ratio, 6) << "," << Fixed(s.worst_ratio, 6) << ","
          << Fixed(s.mean_value, 6) << "," << r.counted << "\n";
    }
  } else {
    out << "scheme  mean ratio  worst ratio  mean value\n";
    for (const FlexSchemeStats& s : r.schemes) {
      char line[128];
      std::snprintf(line, sizeof line, "%-6s  %10.4f  %11.4f  %10.4f\n", s.scheme.c_str(),
                    s.mean_ratio, s.worst_ratio, s.mean_value);
      out << line;
    }
  }
  out << "# realised slack " << Fixed(r.mean_slack, 3) << "; instances counted " << r.counted
      << ", skipped (optimum <= 0) " << r.skipped << "; optimum search nodes " << r.search_nodes
      << "\n# flex orders:";
  for (const auto& [name, count] : r.flex_orders) out << " " << name << "=" << count;
  out << "\n";
  if (o.per_instance) {
    out << "instance,optimum,fifo,fair,flex,flex_order,search_nodes\n";
    for (const FlexInstanceRow& row : r.rows) {
      out << row.index << "," << Fixed(row.optimum, 6);
      for (double v : row.values) out << "," << Fixed(v, 6);
      out << "," << row.flex_order << "," << row.search_nodes << "\n";
    }
  }
  return Status::Ok();
}

}  // namespace mr::model
