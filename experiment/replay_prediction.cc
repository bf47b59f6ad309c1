#include "experiment/replay_prediction.h"

#include "common/stats.h"
#include "experiment/job_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "scheduler/policy_table.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/scheduler.h"

namespace mr::experiment {
namespace {

// printf into a std::string (lines here are short).
template <typename... Args>
std::string Format(const char* fmt, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

void FillErrors(const RecordedRun& run, Prediction& p) {
  std::vector<double> abs_error;
  for (size_t i = 0; i < run.measured.size(); ++i) {
    const double measured = run.measured[i].response;
    const double e = measured > 0 ? (p.sim.response[i] - measured) / measured : 0;
    p.error.push_back(e);
    abs_error.push_back(std::fabs(e));
  }
  p.abs_error_median = QuantileLinear(abs_error, 0.5);
  p.abs_error_p90 = QuantileLinear(abs_error, 0.9);
}

}  // namespace

Result<Prediction> PredictRun(const RecordedRun& run, const std::string& policy,
                              const sched::PolicyOptions& options, const model::ClusterSpec& cluster,
                              const sched::PlacementConfig& placement, const sched::Speculator* speculator) {
  if (run.jobs.empty()) return Status::InvalidArgument("the recorded run has no job to replay");
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> chosen, sched::CreateScheduler(policy, options));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> scheduler, sched::WithPlacement(std::move(chosen), placement));
  Prediction p;
  p.policy = policy;
  p.what_if = policy != run.policy;
  p.cluster = cluster;
  // As live, the first round is the run's first (a batch's first decision sees the jobs
  // submitted by then; docs/model.md, "Replaying a recorded run").
  p.cluster.first_round = std::max(p.cluster.first_round, run.first_assignment);
  // As live, a reducer placed in a round is not ready in that round (RecordedRun::reduce_ready_delay).
  p.cluster.reduce_ready_delay = std::max(p.cluster.reduce_ready_delay, run.reduce_ready_delay);
  // As live, a slot's next task starts a turnover after the last one's end (RecordedRun::slot_turnover).
  p.cluster.decision_latency = std::max(p.cluster.decision_latency, run.slot_turnover);
  // As live, an idle worker hears of a new job at its next heartbeat (RecordedRun::arrival_wait).
  p.cluster.arrival_latency = std::max(p.cluster.arrival_latency, run.arrival_wait);
  // A policy with clocked rounds counts them from the live master's first call, not from the
  // first assignment: the phase the run's decisions show (docs/model.md, "The round clock").
  if (const sched::PolicyRow* row = sched::FindPolicy(policy); row != nullptr && row->traits.round_option != nullptr) {
    Result<sched::PolicyOptions> resolved = sched::ResolvePolicyOptions(policy, options);
    if (resolved.ok() && resolved->Has(row->traits.round_option)) {
      p.cluster.policy_start = RoundClockStart(run, resolved->Double(row->traits.round_option));
    }
  }
  // A policy that recorded its re-plans (flex's allocations) re-plans in the replay at the
  // rounds the master ran, not on an exact grid of the master's period (docs/model.md,
  // "Replaying a recorded run"). A what-if under another policy keeps the grid.
  if (!p.what_if && p.cluster.refresh_rounds > 0 && !run.replans.empty()) p.cluster.round_times = run.replans;
  MR_ASSIGN_OR_RETURN(p.sim, model::SimulateTasks(run.jobs, p.cluster, *scheduler, speculator));
  double sum = 0;
  for (const RecordedJob& m : run.measured) {
    sum += m.response;
    p.measured_makespan = std::max(p.measured_makespan, m.arrival + m.response);
  }
  p.measured_mean = sum / static_cast<double>(run.measured.size());
  if (!p.what_if) {
    FillErrors(run, p);
    if (p.measured_makespan > 0) p.makespan_error = (p.sim.makespan - p.measured_makespan) / p.measured_makespan;
  }
  return p;
}

void WritePrediction(const RecordedRun& run, const Prediction& p, std::ostream& out) {
  out << "job,name,arrival,maps,reducers,measured,predicted,error,shuffle_done\n";
  for (size_t i = 0; i < run.jobs.size(); ++i) {
    const RecordedJob& m = run.measured[i];
    const std::string error = p.what_if ? "" : Format("%.4f", p.error[i]);
    out << Format("%s,%s,%.3f,%d,%d,%.3f,%.3f,%s,%.3f\n", m.id.c_str(), m.name.c_str(), m.arrival,
                  run.jobs[i].maps, run.jobs[i].reducers, m.response, p.sim.response[i], error.c_str(),
                  m.shuffle_done);
  }
  const char* mode = p.what_if ? "what-if" : "prediction";
  out << Format("# mode=%s policy=%s recorded_policy=%s jobs=%zu excluded=%zu\n", mode, p.policy.c_str(),
                run.policy.c_str(), run.jobs.size(), run.excluded.size());
  out << Format("# mean_measured=%.3f mean_predicted=%.3f makespan_measured=%.3f makespan_predicted=%.3f\n",
                p.measured_mean, p.sim.mean_response, p.measured_makespan, p.sim.makespan);
  if (p.what_if) {
    out << Format("# what-if: the run was recorded under %s; predicted vs measured is not an error\n",
                  run.policy.c_str());
  } else {
    out << Format("# abs_error_median=%.4f abs_error_p90=%.4f makespan_error=%.4f\n", p.abs_error_median,
                  p.abs_error_p90, p.makespan_error);
  }
  const model::ClusterSpec& c = p.cluster;
  const std::vector<model::WorkerSpec> workers = model::ResolveWorkers(c);
  int map_slots = 0, reduce_slots = 0, unified_slots = 0;
  for (const model::WorkerSpec& w : workers) {
    map_slots += w.map_slots;
    reduce_slots += w.reduce_slots;
    unified_slots += w.unified_slots;
  }
  out << Format("# cluster: workers=%zu map_slots=%d reduce_slots=%d unified_slots=%d (totals) "
                "shuffle_bandwidth=%.0f (per worker, mean) slow_start=%g decision_latency=%g "
                "refresh_rounds=%g reduce_ready_delay=%g arrival_latency=%g%s\n",
                workers.size(), map_slots, reduce_slots, unified_slots,
                model::ShuffleCapacity(c) / static_cast<double>(workers.size()), c.slow_start,
                c.decision_latency, c.refresh_rounds, c.reduce_ready_delay, c.arrival_latency,
                c.receiver_links ? " receiver_links=on" : "");  // said only when on
  // The replay's side of bench/asrpt/reduce_waits.py (the run's side is read from its traces).
  out << Format("# reduce_bound_wait=%.1f (s, ready reduces waiting for their own worker while another had a "
                "slot free)\n",
                p.sim.reduce_bound_wait);
  out << Format("# reduce_full_wait=%.1f reduce_own_free_wait=%.1f (s, ready reduces waiting while no worker had a "
                "slot free; while their own worker had one)\n",
                p.sim.reduce_full_wait, p.sim.reduce_own_free_wait);
  int failed = 0, killed = 0, lost = 0;
  for (const RecordedJob& m : run.measured) {
    failed += m.failed_attempts;
    killed += m.killed_attempts;
    lost += m.lost_attempts;
  }
  out << Format("# not replayed (recorded, excluded from durations): failed_attempts=%d killed_attempts=%d "
                "lost_attempts=%d\n", failed, killed, lost);
  for (const ExcludedJob& e : run.excluded) {
    out << "# excluded " << e.id << ": " << e.reason << "\n";
  }
}

}  // namespace mr::experiment
