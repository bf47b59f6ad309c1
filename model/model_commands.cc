#include "model/model_commands.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/units.h"
#include "model/cli_args.h"
#include "model/fluid/lower_bound.h"
#include "model/fluid/tandem_policy.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"

namespace mr::model {
namespace {

// Mean response of `policy` on jobs.
Result<double> MeanResponse(std::span<const TandemJob> jobs, const TandemPolicy& policy,
                            std::vector<double>* response = nullptr) {
  MR_ASSIGN_OR_RETURN(SimResult sim, SimulateTandem(jobs, policy));
  if (response != nullptr) *response = std::move(sim.response);
  return sim.mean_response;
}

// Mean response of the fluid policy `policy_name` on jobs.
Result<double> MeanResponse(std::span<const TandemJob> jobs, const std::string& policy_name, int k,
                            std::vector<double>* response = nullptr) {
  MR_ASSIGN_OR_RETURN(std::unique_ptr<TandemPolicy> policy, MakeTandemPolicy(policy_name, k));
  return MeanResponse(jobs, *policy, response);
}

void PrintSweepHeader(const SweepOptions& o, std::ostream& out) {
  if (o.csv) {
    out << "variant,load,lower_bound_mean";
    for (const std::string& p : o.lists.policies) out << "," << p;
    out << "\n";
    return;
  }
  out << "relative E[T] = mean response / lower-bound mean (" << o.jobs << " jobs, seed " << o.seed
      << ")\n";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-11s %5s %9s", "variant", "load", "LB E[T]");
  out << buf;
  for (const std::string& p : o.lists.policies) {
    std::snprintf(buf, sizeof buf, " %10s", p.c_str());
    out << buf;
  }
  out << "\n";
}

Status SweepRow(const SweepOptions& o, const std::string& variant, double load, std::ostream& out) {
  GoogleLikeOptions g{o.jobs, load, o.seed, variant == "rebalanced"};
  MR_ASSIGN_OR_RETURN(std::vector<TandemJob> jobs, GenerateGoogleLike(g));
  MR_ASSIGN_OR_RETURN(LowerBound lb, TandemLowerBound(jobs));
  char buf[96];
  if (o.csv) {
    std::snprintf(buf, sizeof buf, "%s,%.2f,%.6g", variant.c_str(), load, lb.mean_response);
  } else {
    std::snprintf(buf, sizeof buf, "%-11s %5.2f %9.4g", variant.c_str(), load, lb.mean_response);
  }
  std::string row = buf;
  for (const std::string& p : o.lists.policies) {
    MR_ASSIGN_OR_RETURN(double mean, MeanResponse(jobs, p, o.k));
    row += o.csv ? "," + FormatNumber(mean / lb.mean_response, "%.6g") : FormatNumber(mean / lb.mean_response, " %10.3f");
  }
  out << row << "\n" << std::flush;
  return Status::Ok();
}

}  // namespace

int Fail(const Status& status, int exit_code) {
  std::cerr << "mr model: " << status.message() << "\n";
  return exit_code;
}

int ExitCodeFor(const Status& status) {
  bool bad_input = status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kNotFound;
  return bad_input ? 2 : 1;
}

Result<std::vector<TandemJob>> GenerateByKind(const std::string& kind, const GoogleLikeOptions& o) {
  if (o.jobs < 1 || !(o.load > 0 && o.load <= 10)) {
    return Status::InvalidArgument("need --jobs >= 1 and --load in (0, 10]");
  }
  std::vector<TandemJob> jobs;
  if (kind == "google") {
    return GenerateGoogleLike(o);
  } else if (kind == "lognormal") {
    jobs = GenerateLogNormal(o.jobs, o.load, o.seed);
  } else if (kind == "poisson") {
    jobs = GeneratePoisson(o.jobs, o.load, 1.0, 1.0, o.seed);
  } else {
    return Status::InvalidArgument("unknown --kind '" + kind + "' (known: google, lognormal, poisson)");
  }
  if (o.rebalanced) jobs = RebalanceCubeRoot(jobs);
  return jobs;
}

Status ParseSweepLists(const std::string& loads, const std::string& policies,
                       const std::string& variants, SweepLists& out) {
  out = {};
  for (const std::string& l : SplitCommaList(loads)) {
    double v = 0;
    auto [ptr, ec] = std::from_chars(l.data(), l.data() + l.size(), v);
    if (ec != std::errc() || ptr != l.data() + l.size() || !(v > 0 && v <= 10)) {
      return Status::InvalidArgument("bad load '" + l + "' (want a number in (0, 10])");
    }
    out.loads.push_back(v);
  }
  for (const std::string& p : SplitCommaList(policies)) {
    Result<std::unique_ptr<TandemPolicy>> made = MakeTandemPolicy(p);
    if (!made.ok()) return made.status();
    out.policies.push_back(p);
  }
  for (const std::string& v : SplitCommaList(variants)) {
    if (v != "original" && v != "rebalanced") {
      return Status::InvalidArgument("bad variant '" + v + "' (known: original, rebalanced)");
    }
    out.variants.push_back(v);
  }
  if (out.loads.empty() || out.policies.empty() || out.variants.empty()) {
    return Status::InvalidArgument("empty list of loads, policies or variants");
  }
  return Status::Ok();
}

Status RunSweepCommand(const SweepOptions& o, std::ostream& out) {
  if (o.jobs < 1) return Status::InvalidArgument("need --jobs >= 1");
  PrintSweepHeader(o, out);
  for (const std::string& variant : o.lists.variants) {
    for (double load : o.lists.loads) MR_RETURN_IF_ERROR(SweepRow(o, variant, load, out));
  }
  return Status::Ok();
}

Status RunSlowdownCommand(const SlowdownOptions& o, std::ostream& out) {
  const std::vector<TandemJob> jobs = GenerateLogNormal(o.jobs, o.load, o.seed);
  const double lo = 0.01, hi = 100.0, step = std::log(hi / lo) / o.buckets;
  auto bucket_of = [&](const TandemJob& j) {
    double size = std::max(j.x, j.y);
    if (size > hi) return -1;
    return std::clamp(static_cast<int>(std::log(size / lo) / step), 0, o.buckets - 1);
  };
  std::vector<std::vector<double>> sums(o.lists.policies.size(), std::vector<double>(o.buckets, 0));
  std::vector<int64_t> counts(o.buckets, 0);
  for (const TandemJob& j : jobs) {
    if (int b = bucket_of(j); b >= 0) ++counts[b];
  }
  out << "# load=" << o.load << " jobs=" << o.jobs << " seed=" << o.seed;
  for (size_t p = 0; p < o.lists.policies.size(); ++p) {
    std::vector<double> response;
    MR_ASSIGN_OR_RETURN(double mean, MeanResponse(jobs, o.lists.policies[p], o.k, &response));
    out << " " << o.lists.policies[p] << "_mean_response=" << FormatNumber(mean, "%.4g");
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (int b = bucket_of(jobs[i]); b >= 0) {
        sums[p][b] += response[i] / std::max(jobs[i].x, jobs[i].y);
      }
    }
  }
  out << "\nsize_lo,size_hi,jobs";
  for (const std::string& p : o.lists.policies) out << "," << p;
  out << "\n";
  for (int b = 0; b < o.buckets; ++b) {
    if (counts[b] == 0) continue;
    out << FormatNumber(lo * std::exp(step * b), "%.4g") << "," << FormatNumber(lo * std::exp(step * (b + 1)), "%.4g")
        << "," << counts[b];
    for (size_t p = 0; p < sums.size(); ++p) {
      out << "," << FormatNumber(sums[p][b] / static_cast<double>(counts[b]), "%.4g");
    }
    out << "\n";
  }
  return Status::Ok();
}

namespace {

// The fluid model's mean on the same sizes under the live policy's counterpart, or NaN when
// a job has no shuffle (the fluid model needs x, y > 0) or the policy has no counterpart.
Result<double> FluidMean(std::span<const TaskJob> jobs, const TaskSimOptions& o) {
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions resolved, sched::ResolvePolicyOptions(o.policy, o.policy_options));
  Result<std::unique_ptr<TandemPolicy>> policy = MakeFluidCounterpart(o.policy, resolved);
  if (!policy.ok() && policy.status().code() == StatusCode::kNotFound) return std::nan("");
  MR_RETURN_IF_ERROR(policy.status());
  std::vector<TandemJob> fluid;
  for (const TaskJob& j : jobs) {
    fluid.push_back(FluidSizes(j, o.cluster));
    if (!(fluid.back().y > 0)) return std::nan("");
  }
  return MeanResponse(fluid, **policy);
}

}  // namespace

Status RunTaskSimCommand(const TaskSimOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> policy, sched::CreateScheduler(o.policy, o.policy_options));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> scheduler,
                      sched::WithPlacement(std::move(policy), o.placement));
  MR_ASSIGN_OR_RETURN(std::vector<TaskJob> jobs, LoadTaskWorkload(o.workload, o.cluster, o.shape));
  if (o.map_time.kind != MapTimeDist::Kind::kClusterDefault) {
    for (TaskJob& j : jobs) j.map_time = o.map_time;
  }
  sched::Speculator late{sched::SpeculatorOptions{}};
  MR_ASSIGN_OR_RETURN(TaskSimResult sim, SimulateTasks(jobs, o.cluster, *scheduler, o.speculate ? &late : nullptr));
  MR_ASSIGN_OR_RETURN(double fluid, FluidMean(jobs, o));
  out << "job,arrival,x,y,completion,response,sojourn\n";
  for (size_t i = 0; i < jobs.size(); ++i) {
    TandemJob f = FluidSizes(jobs[i], o.cluster);
    char line[256];
    std::snprintf(line, sizeof line, "%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", i, f.arrival, f.x, f.y,
                  sim.completion[i], sim.response[i], sim.sojourn[i]);
    out << line;
  }
  char tail[320];
  std::snprintf(tail, sizeof tail,
                "# policy=%s jobs=%zu mean_response=%.6g fluid_mean_response=%.6g ratio=%.4f "
                "schedule_calls=%lld assignments=%lld placement=%s mean_sojourn=%.6g\n",
                o.policy.c_str(), jobs.size(), sim.mean_response, fluid,
                fluid > 0 ? sim.mean_response / fluid : std::nan(""),
                static_cast<long long>(sim.schedule_calls),
                static_cast<long long>(sim.assignments),
                std::string(sched::PlacementModeName(o.placement.mode)).c_str(), sim.mean_sojourn);
  out << tail;
  int64_t failed_jobs = std::count(sim.failed.begin(), sim.failed.end(), true);
  if (failed_jobs + sim.failed_attempts + sim.backups + sim.kills > 0) {
    std::snprintf(tail, sizeof tail,
                  "# failed_jobs=%lld failed_attempts=%lld backups=%lld kills=%lld\n",
                  static_cast<long long>(failed_jobs), static_cast<long long>(sim.failed_attempts),
                  static_cast<long long>(sim.backups), static_cast<long long>(sim.kills));
    out << tail;
  }
  return Status::Ok();
}

}  // namespace mr::model
