#include "model/model_commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/units.h"
#include "common/file_util.h"
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

namespace {

// The tandem model's jobs from o.workload: the fluid CSV as it is, or a task-level workload
// (bench/policies JSON, as `tasksim` reads) expressed in fluid sizes on o.cluster
// (FluidSizes: x = slot-seconds / map capacity, y = bytes / shuffle capacity).
Result<std::vector<TandemJob>> LoadTandemJobs(const TandemOptions& o) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(o.workload));
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') return LoadWorkload(o.workload);
  if (!o.cluster) {
    return Status::InvalidArgument(
        o.workload + " is a task-level workload (JSON, as tasksim reads); give the cluster its sizes are for, "
                     "--workers N --map-slots M --shuffle-bandwidth RATE [--unified-slots U], to express "
                     "them as the fluid model's x and y");
  }
  const ClusterSpec& cluster = *o.cluster;
  if (cluster.workers < 1 || cluster.map_slots + cluster.unified_slots < 1 || !(cluster.shuffle_bandwidth > 0)) {
    return Status::InvalidArgument(
        "--workers >= 1, --map-slots + --unified-slots >= 1 and --shuffle-bandwidth > 0 are needed");
  }
  MR_ASSIGN_OR_RETURN(std::vector<TaskJob> tasks, LoadTaskWorkload(o.workload, cluster, TaskShape{}));
  std::vector<TandemJob> jobs;
  for (const TaskJob& t : tasks) jobs.push_back(FluidSizes(t, cluster));
  return jobs;
}

}  // namespace

Status RunTandemCommand(const TandemOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::unique_ptr<TandemPolicy> policy, MakeTandemPolicy(o.policy, o.k));
  MR_ASSIGN_OR_RETURN(std::vector<TandemJob> jobs, LoadTandemJobs(o));
  MR_ASSIGN_OR_RETURN(SimResult sim, SimulateTandem(jobs, *policy));
  MR_ASSIGN_OR_RETURN(LowerBound lb, TandemLowerBound(jobs));
  out << "job,arrival,x,y,completion,response\n";
  char line[256];
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TandemJob& j = jobs[i];
    std::snprintf(line, sizeof line, "%zu,%.6g,%.6g,%.6g,%.6g,%.6g\n", i, j.arrival, j.x, j.y, sim.completion[i],
                  sim.response[i]);
    out << line;
  }
  std::snprintf(line, sizeof line, " jobs=%zu mean_response=%.6g lower_bound_mean=%.6g ratio=%.4f\n", jobs.size(),
                sim.mean_response, lb.mean_response,
                lb.mean_response > 0 ? sim.mean_response / lb.mean_response : 0.0);
  out << "# policy=" << o.policy << line;
  return Status::Ok();
}

Status RunGenCommand(const GenOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::vector<TandemJob> jobs, GenerateByKind(o.kind, o.workload));
  MR_RETURN_IF_ERROR(SaveWorkload(o.out, jobs));
  out << "wrote " << o.out << ": " << FormatStats(ComputeStats(jobs)) << "\n";
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
  if (o.buckets < 1 || !(o.load > 0) || o.jobs < 1) {
    return Status::InvalidArgument("need --buckets >= 1, --load > 0, --jobs >= 1");
  }
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
  if (o.per_worker) {
    const std::vector<WorkerSpec> workers = ResolveWorkers(o.cluster);
    for (size_t w = 0; w < sim.worker_maps.size(); ++w) {
      const TaskSimResult::WorkerMaps& m = sim.worker_maps[w];
      std::snprintf(tail, sizeof tail,
                    "# worker=%zu speed=%.6g map_slots=%d maps=%lld map_busy=%.6g map_response=%.6g "
                    "mean_map_response=%.6g\n",
                    w + 1, workers[w].speed, workers[w].map_slots + workers[w].unified_slots,
                    static_cast<long long>(m.maps), m.busy_seconds, m.response_seconds,
                    m.maps > 0 ? m.response_seconds / static_cast<double>(m.maps) : std::nan(""));
      out << tail;
    }
  }
  return Status::Ok();
}

}  // namespace mr::model
