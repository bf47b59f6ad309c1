// mr_prediction_swap: where a prediction's per-job error comes from (issue 31, item 7;
// docs/experiments.md, "Why predictions miss"). For one finished run of `mr experiment run`
// it simulates the prediction (the experiment file's jobs and the stored calibration) and the
// replay (the run's traces), then the prediction with one of its inputs swapped for what the
// run measured at a time: the arrivals (submit times), the latencies the replay reads from
// the traces (first round, reducer readiness, slot turnover), the link rate, the map output
// bytes, the map durations, the reduce durations. The swap that closes the gap to the replay
// names the input that carries the error. Per job: measured, each simulation and its error;
// then the median and p90 of |error| per simulation, and whether each live time is inside
// the prediction's band (K = 8, 1 ms) and a band whose members draw map times with the given
// coefficient of variation. Reads only; prints to stdout. Never part of ctest.
//
//   mr_prediction_swap FILE.yaml RESULTS/NAME POLICY [REP=1] [CV=0.069]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "common/job_id.h"
#include "common/stats.h"
#include "experiment/band.h"
#include "experiment/calibration.h"
#include "experiment/experiment_file.h"
#include "experiment/live_run.h"
#include "experiment/prediction.h"
#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "experiment/workload_import.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/policy_flags.h"
#include "scheduler/scheduler.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/stages/speculator.h"

namespace mr::experiment {
namespace {

int Die(const std::string& what) {
  std::fprintf(stderr, "mr_prediction_swap: %s\n", what.c_str());
  return 2;
}

// The simulator under `policy` as the prediction runs it (its options, placement, speculator).
Result<std::vector<double>> Sim(const JobList& jobs, const model::ClusterSpec& cluster, const PolicyRun& policy) {
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, OptionsOf(policy));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> chosen, sched::CreateScheduler(policy.policy, options));
  std::map<std::string, std::string, std::less<>> flags(policy.placement.begin(), policy.placement.end());
  MR_ASSIGN_OR_RETURN(sched::PlacementConfig placement, sched::PlacementConfigFromFlags(flags));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> s, sched::WithPlacement(std::move(chosen), placement));
  const sched::Speculator speculator(sched::SpeculatorOptions{});
  MR_ASSIGN_OR_RETURN(model::TaskSimResult r,
                      model::SimulateTasks(jobs, cluster, *s, policy.speculative ? &speculator : nullptr));
  return r.response;
}

struct Column {
  std::string name;
  std::vector<double> response;  // per job, in the run's order
};

Status Main(const std::string& file, const std::string& dir, const std::string& policy_label, int rep, double cv) {
  MR_ASSIGN_OR_RETURN(Experiment e, LoadExperimentFile(file));
  ImportSummary summary;
  MR_ASSIGN_OR_RETURN(JobList workload, MakeJobs(e.workload, e.cluster, &summary));
  MR_ASSIGN_OR_RETURN(std::string calib_text, ReadFileToString(JoinPath(dir, "calibration.json")));
  MR_ASSIGN_OR_RETURN(Calibration calib, ParseCalibration(calib_text));
  const PolicyRun* policy = nullptr;
  for (const PolicyRun& p : e.policies) {
    if (p.policy == policy_label) policy = &p;
  }
  if (policy == nullptr) return Status::InvalidArgument("no policy " + policy_label + " in " + file);
  const std::string run_dir = JoinPath(JoinPath(dir, "runs"), policy_label + "-" + std::to_string(rep));
  MR_ASSIGN_OR_RETURN(std::string measured_text, ReadFileToString(JoinPath(run_dir, "measured.csv")));
  MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured, ParseMeasuredCsv(measured_text));
  MR_ASSIGN_OR_RETURN(RecordedRun run, ReadRecordedRun({JoinPath(run_dir, "traces")}));
  std::map<uint64_t, sched::JobParams> params;
  std::map<uint64_t, int> workload_index;
  for (const MeasuredJob& m : measured) {
    params[m.id] = workload.at(static_cast<size_t>(m.job)).params;
    workload_index[m.id] = m.job;
  }
  AttachJobParams(params, &run);
  const size_t n = run.jobs.size();
  // The prediction's jobs in the run's order, and their band in the workload's.
  const JobList calibrated = CalibratedJobs(workload, e.cluster, calib);
  JobList predicted;
  for (const RecordedJob& m : run.measured) {
    predicted.push_back(calibrated.at(static_cast<size_t>(workload_index.at(ParseJobId(m.id).value_or(0)))));
  }
  MR_ASSIGN_OR_RETURN(model::ClusterSpec pc, CalibratedCluster(e.cluster, calib));
  ClusterShape replay_shape = e.cluster;
  for (WorkerGroup& g : replay_shape.groups) {
    if (!(SimulatedShuffleBandwidth(e.cluster, g) > 0)) g.shuffle_bandwidth = MeasuredShuffleRate(run);
  }
  MR_ASSIGN_OR_RETURN(model::ClusterSpec replay_cluster, ToClusterSpec(replay_shape));
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, OptionsOf(*policy));
  MR_ASSIGN_OR_RETURN(Prediction replay, PredictRun(run, policy->policy, options, replay_cluster));
  const model::ClusterSpec& rc = replay.cluster;  // with the run's latencies applied
  const double speed = calib.host_cores > 0 ? calib.core_speed : calib.map_speed_factor;
  std::printf("calibration: task start %.4f s, speed %.3f, host cores %d, link %.0f B/s, decision latency %.4f s, "
              "shuffle cpu %.3g s/B\n",
              calib.task_start_seconds, speed, calib.host_cores, calib.link_rate, calib.decision_latency,
              calib.shuffle_cpu_per_byte);
  std::printf("run: first assignment %.3f s, reduce ready delay %.4f s, slot turnover %.4f s, fetch rate %.0f B/s\n",
              run.first_assignment, run.reduce_ready_delay, run.slot_turnover, MeasuredShuffleRate(run));

  std::vector<Column> cols;
  auto add = [&](const std::string& name, const JobList& jobs, const model::ClusterSpec& c) -> Status {
    MR_ASSIGN_OR_RETURN(std::vector<double> r, Sim(jobs, c, *policy));
    cols.push_back({name, std::move(r)});
    return Status::Ok();
  };
  MR_RETURN_IF_ERROR(add("predicted", predicted, pc));
  cols.push_back({"replayed", replay.sim.response});
  JobList swapped = predicted;
  for (size_t i = 0; i < n; ++i) swapped[i].arrival = run.jobs[i].arrival;
  MR_RETURN_IF_ERROR(add("+arrivals", swapped, pc));
  model::ClusterSpec lat = pc;
  lat.first_round = std::max(lat.first_round, run.first_assignment);
  lat.reduce_ready_delay = std::max(lat.reduce_ready_delay, run.reduce_ready_delay);
  lat.decision_latency = std::max(lat.decision_latency, run.slot_turnover);
  MR_RETURN_IF_ERROR(add("+latencies", swapped, lat));
  for (size_t k = 0; k < lat.worker_specs.size() && k < rc.worker_specs.size(); ++k) {
    lat.worker_specs[k].shuffle_bandwidth = rc.worker_specs[k].shuffle_bandwidth;
  }
  MR_RETURN_IF_ERROR(add("+link", swapped, lat));
  for (size_t i = 0; i < n; ++i) swapped[i].map_bytes = run.jobs[i].map_bytes;
  MR_RETURN_IF_ERROR(add("+bytes", swapped, lat));
  // Durations as the run measured them are wall times with the host's sharing in them: these
  // run on the replay's cluster (no processor sharing), every other input the prediction's.
  auto alone = [&](double work) { return work / speed; };
  JobList d = swapped;
  for (size_t i = 0; i < n; ++i) {
    d[i].map_durations = run.jobs[i].map_durations;
    d[i].reduce_durations.assign(d[i].reducers, alone(d[i].reduce_seconds));
  }
  MR_RETURN_IF_ERROR(add("map_dur", d, rc));
  JobList mean = d;
  for (size_t i = 0; i < n; ++i) mean[i].map_durations.assign(mean[i].maps, run.jobs[i].map_seconds);
  MR_RETURN_IF_ERROR(add("map_mean", mean, rc));
  JobList reversed = d;
  for (size_t i = 0; i < n; ++i) std::reverse(reversed[i].map_durations.begin(), reversed[i].map_durations.end());
  MR_RETURN_IF_ERROR(add("map_reversed", reversed, rc));
  double recorded = 0, modelled = 0;
  for (size_t i = 0; i < n; ++i) {
    recorded += run.jobs[i].map_seconds * run.jobs[i].maps;
    modelled += alone(d[i].map_seconds) * d[i].maps;
  }
  const double factor = modelled > 0 ? recorded / modelled : 1;
  JobList scaled = d;
  for (size_t i = 0; i < n; ++i) scaled[i].map_durations.assign(scaled[i].maps, alone(scaled[i].map_seconds) * factor);
  MR_RETURN_IF_ERROR(add("map_scaled", scaled, rc));
  JobList all = d;
  for (size_t i = 0; i < n; ++i) all[i].reduce_durations = run.jobs[i].reduce_durations;
  MR_RETURN_IF_ERROR(add("all_dur", all, rc));
  JobList reduces = swapped;
  for (size_t i = 0; i < n; ++i) {
    reduces[i].map_durations.assign(reduces[i].maps, alone(reduces[i].map_seconds));
    reduces[i].reduce_durations = run.jobs[i].reduce_durations;
  }
  MR_RETURN_IF_ERROR(add("reduce_dur", reduces, rc));
  std::printf("map_scaled: every map at its alone time x %.3f (the run's total map time over the modelled)\n",
              factor);

  // Bands: the prediction's (1 ms jitter) and one whose members draw map times with cv.
  std::vector<std::vector<double>> jittered, noisy;
  for (int k = 0; k < 8; ++k) {
    const BandDraw draw{0.001, static_cast<uint64_t>(k)};
    MR_ASSIGN_OR_RETURN(std::vector<double> r, PredictResponses(predicted, e.cluster, calib, *policy,
                                                                k == 0 ? nullptr : &draw));
    jittered.push_back(std::move(r));
    model::ClusterSpec c = pc;
    c.map_time_cv = k == 0 ? 0 : cv;
    c.seed += static_cast<uint64_t>(k);
    MR_ASSIGN_OR_RETURN(std::vector<double> s, Sim(predicted, c, *policy));
    noisy.push_back(std::move(s));
  }
  const std::vector<Band> band = BandsOf(jittered), cv_band = BandsOf(noisy);

  std::printf("%-10s %5s %8s %8s", "job", "maps", "arrival", "measured");
  for (const Column& c : cols) std::printf(" %16s", c.name.c_str());
  std::printf("  %-22s %s\n", "band 1ms", "band cv");
  std::vector<std::vector<double>> errors(cols.size());
  int inside = 0, inside_cv = 0;
  for (size_t i = 0; i < n; ++i) {
    const double m = run.measured[i].response;
    std::printf("%-10s %5d %8.2f %8.2f", run.measured[i].id.c_str(), run.jobs[i].maps, run.jobs[i].arrival, m);
    for (size_t c = 0; c < cols.size(); ++c) {
      const double err = cols[c].response[i] / m - 1;
      errors[c].push_back(std::fabs(err));
      std::printf(" %8.2f (%+4.0f%%)", cols[c].response[i], 100 * err);
    }
    inside += InsideBand(m, band[i]);
    inside_cv += InsideBand(m, cv_band[i]);
    std::printf("  [%7.2f, %7.2f] %-3s [%7.2f, %7.2f] %s\n", band[i].lo, band[i].hi, InsideBand(m, band[i]) ? "in" : "out",
                cv_band[i].lo, cv_band[i].hi, InsideBand(m, cv_band[i]) ? "in" : "out");
  }
  for (size_t c = 0; c < cols.size(); ++c) {
    std::printf("%-14s |error| median %5.1f%%  p90 %5.1f%%\n", cols[c].name.c_str(),
                100 * QuantileLinear(errors[c], 0.5), 100 * QuantileLinear(errors[c], 0.9));
  }
  std::printf("inside the 1 ms band: %d of %zu; inside the cv %.3f band: %d of %zu\n", inside, n, cv, inside_cv, n);
  return Status::Ok();
}

}  // namespace
}  // namespace mr::experiment

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) return mr::experiment::Die("usage: mr_prediction_swap FILE.yaml RESULTS/NAME POLICY [REP] [CV]");
  const int rep = argc > 4 ? std::atoi(argv[4]) : 1;
  const double cv = argc > 5 ? std::atof(argv[5]) : 0.069;
  if (rep < 1 || !(cv >= 0)) return mr::experiment::Die("REP must be >= 1 and CV >= 0");
  mr::Status s = mr::experiment::Main(argv[1], argv[2], argv[3], rep, cv);
  if (!s.ok()) return mr::experiment::Die(s.ToString());
  return 0;
}
