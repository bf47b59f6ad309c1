#include "experiment/runner.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/job_id.h"
#include "experiment/band.h"
#include "experiment/batch_order.h"
#include "experiment/bounds.h"
#include "experiment/job_results.h"
#include "experiment/live_run.h"
#include "experiment/prediction.h"
#include "experiment/replay_prediction.h"
#include "experiment/replay_workers.h"
#include "experiment/report.h"
#include "experiment/cluster_shape.h"
#include "experiment/trace_replay.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/scheduler.h"
#include "scheduler/stages/speculator.h"
#include "trace/reader.h"

namespace mr::experiment {

namespace {

constexpr const char* kDoneMarker = "DONE";

// Progress: one line per run, rewritten in place on a terminal; a plain line whenever the
// count of finished jobs changes when piped.
ProgressFn MakeProgress(const RunnerOptions& o, const std::string& label) {
  auto last = std::make_shared<int>(-1);
  return [&o, label, last](int done, int total, double elapsed) {
    if (o.log == nullptr) return;
    char line[256];
    std::snprintf(line, sizeof line, "%-16s jobs %d/%d  %.1fs", label.c_str(), done, total, elapsed);
    if (o.terminal) {
      *o.log << "\r" << line << "\x1b[K" << std::flush;
    } else if (done != *last) {
      *o.log << line << "\n" << std::flush;
    }
    *last = done;
  };
}

void EndProgress(const RunnerOptions& o, const std::string& message) {
  if (o.log != nullptr) *o.log << (o.terminal ? "\r\x1b[K" : "") << message << "\n" << std::flush;
}

// Copies the daemons' logs and removes the cluster's scratch (state, map outputs).
void KeepLogs(const std::string& cluster_dir, const std::string& run_dir) {
  auto names = ListDir(cluster_dir);
  if (!names.ok()) return;
  (void)MakeDirs(JoinPath(run_dir, "logs"));
  for (const std::string& n : *names) {
    if (n.size() < 4 || n.substr(n.size() - 4) != ".log") continue;
    auto text = ReadFileToString(JoinPath(cluster_dir, n));
    if (text.ok()) (void)WriteStringToFile(JoinPath(JoinPath(run_dir, "logs"), n), *text);
  }
}

// A run directory without DONE (a failed or interrupted run) is moved aside to the first
// free RUN.failed-K, so that its traces and logs can still be read after the redo.
Status SetAsideUnfinished(const std::string& run_dir) {
  if (!PathExists(run_dir)) return Status::Ok();
  for (int k = 1;; ++k) {
    const std::string aside = run_dir + ".failed-" + std::to_string(k);
    if (!PathExists(aside)) return RenameFile(run_dir, aside);
  }
}

// One live run into run_dir, DONE written last. A failed run keeps what it has: the
// master's traces written so far (RUN/traces), the daemons' logs (RUN/logs).
Status RunOnce(const ClusterShape& shape, const PolicyRun& policy, const JobList& jobs, const std::string& label,
               const std::string& run_dir, const RunnerOptions& o) {
  MR_RETURN_IF_ERROR(SetAsideUnfinished(run_dir));  // a half-done run is redone from scratch
  MR_RETURN_IF_ERROR(MakeDirs(run_dir));
  const std::string cluster_dir = JoinPath(run_dir, "cluster");
  Status outcome;
  {
    MR_ASSIGN_OR_RETURN(std::unique_ptr<LiveCluster> cluster, o.factory(shape, policy, cluster_dir));
    const PlayMode mode = policy.batch_order == "alone" ? PlayMode::kOneAtATime : PlayMode::kArrivals;
    Result<std::vector<MeasuredJob>> measured =
        PlayJobs(*cluster, jobs, label, o.timeout, MakeProgress(o, label), mode);
    outcome = measured.status();
    if (measured.ok()) {
      outcome = CopyTraces(*cluster, *measured, JoinPath(run_dir, "traces"));
      if (outcome.ok()) outcome = WriteFileAtomically(JoinPath(run_dir, "measured.csv"), MeasuredCsv(*measured));
      int failed = 0;
      for (const MeasuredJob& m : *measured) failed += !m.succeeded;
      if (outcome.ok() && failed > 0) {
        outcome = Status::Internal(std::to_string(failed) + " jobs failed (logs in " + JoinPath(run_dir, "logs") + ")");
      }
    }
    if (!outcome.ok()) {
      Status kept = CopyAllTraces(*cluster, JoinPath(run_dir, "traces"));
      outcome = Status(outcome.code(), outcome.message() + " (traces kept in " + JoinPath(run_dir, "traces") +
                                           (kept.ok() ? "" : ", partly: " + kept.message()) + ")");
    }
  }  // the cluster stops here
  KeepLogs(cluster_dir, run_dir);
  (void)RemoveAll(cluster_dir);
  MR_RETURN_IF_ERROR(outcome);
  return WriteFileAtomically(JoinPath(run_dir, kDoneMarker), "");
}

// A job's replay: the replay as recorded, and its band (none with fewer than 2 band runs).
struct ReplayedJob {
  double replayed = 0;
  std::optional<Band> band;
};

// A finished run's traces replayed through the task-level simulator under the policy that
// ran, on the file's cluster shape (an uncapped link at the rate the run's fetches
// achieved), each job with its workload parameters: job id -> replayed response time. With
// report.band_runs = K >= 2 the run is also replayed K - 1 times with every duration moved
// by report.band_jitter (JitterDurations, seeds 1 .. K - 1): the replay's band (band.h).
// docs/model.md, "Replaying a recorded run".
Result<std::map<uint64_t, ReplayedJob>> ReplayRun(const ClusterShape& shape, const PolicyRun& policy,
                                                  const ReportSpec& report, const std::string& run_dir,
                                                  const JobList& jobs, const std::vector<MeasuredJob>& measured) {
  MR_ASSIGN_OR_RETURN(RecordedRun run, ReadRecordedRun({JoinPath(run_dir, "traces")}));
  std::map<uint64_t, sched::JobParams> params;  // live job id -> its workload row's
  for (const MeasuredJob& m : measured) {
    if (m.job >= 0 && static_cast<size_t>(m.job) < jobs.size()) params[m.id] = jobs[m.job].params;
  }
  AttachJobParams(params, &run);
  ClusterShape replay_shape = shape;
  for (WorkerGroup& g : replay_shape.groups) {
    if (!(SimulatedShuffleBandwidth(shape, g) > 0)) g.shuffle_bandwidth = MeasuredShuffleRate(run);
  }
  MR_ASSIGN_OR_RETURN(model::ClusterSpec cluster, ToClusterSpec(replay_shape));
  if (NeedsAlignment(cluster)) {  // unequal workers: the master's ids and the durations as work
    MR_ASSIGN_OR_RETURN(std::string log, ReadFileToString(JoinPath(JoinPath(run_dir, "logs"), "master.log")));
    MR_RETURN_IF_ERROR(AlignReplayWorkers(ParseRegistrations(log), &cluster, &run));
  }
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, OptionsOf(policy));
  std::map<std::string, std::string, std::less<>> flags(policy.placement.begin(), policy.placement.end());
  MR_ASSIGN_OR_RETURN(sched::PlacementConfig placement, sched::PlacementConfigFromFlags(flags));
  const sched::Speculator speculator(sched::SpeculatorOptions{});  // the master's defaults
  std::vector<std::vector<double>> responses;
  for (int k = 0; k == 0 || k < report.band_runs; ++k) {
    RecordedRun jittered = run;
    JitterDurations(k == 0 ? 0 : report.band_jitter, static_cast<uint64_t>(k), &jittered);
    MR_ASSIGN_OR_RETURN(Prediction replay, PredictRun(jittered, policy.policy, options, cluster, placement,
                                                      policy.speculative ? &speculator : nullptr));
    responses.push_back(std::move(replay.sim.response));
  }
  const std::vector<Band> bands = responses.size() >= 2 ? BandsOf(responses) : std::vector<Band>();
  std::map<uint64_t, ReplayedJob> out;
  for (size_t i = 0; i < run.measured.size() && i < responses[0].size(); ++i) {
    std::optional<uint64_t> id = ParseJobId(run.measured[i].id);
    if (!id) continue;
    out[*id].replayed = responses[0][i];
    if (i < bands.size()) out[*id].band = bands[i];
  }
  return out;
}

// Rows of jobs.csv for one policy's finished repetitions.
Status AppendRows(const Experiment& e, size_t p, const PolicyRun& policy, const JobList& jobs,
                  const std::vector<double>& predicted, const std::vector<Band>& predicted_band,
                  const std::string& dir, std::ostream* log, std::vector<JobResult>* rows) {
  const std::string label = PolicyLabel(e, p);
  for (int rep = 1; rep <= e.repetitions; ++rep) {
    const std::string run = JoinPath(JoinPath(dir, "runs"), label + "-" + std::to_string(rep));
    if (!PathExists(JoinPath(run, kDoneMarker))) continue;
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(run, "measured.csv")));
    MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured, ParseMeasuredCsv(text));
    Result<std::map<uint64_t, ReplayedJob>> replayed = ReplayRun(e.cluster, policy, e.report, run, jobs, measured);
    if (!replayed.ok() && log != nullptr) {
      *log << label << "-" << rep << ": no replay: " << replayed.status().ToString() << "\n";
    }
    for (const MeasuredJob& m : measured) {
      if (m.job < 0 || static_cast<size_t>(m.job) >= jobs.size()) {
        return Status::InvalidArgument(run + "/measured.csv: job " + std::to_string(m.job) +
                                       " is not in the workload (did the experiment file change?)");
      }
      const model::TaskJob& j = jobs[m.job];
      JobResult r{label, rep, m.job, j.arrival, j.maps, j.map_seconds, j.map_bytes * j.maps, j.reducers,
                  m.response, predicted[m.job], m.since_planned, WorkModeName(e.cluster.work), std::nullopt,
                  j.params.weight, j.params.deadline, j.params.sla, std::nullopt, std::nullopt};
      if (static_cast<size_t>(m.job) < predicted_band.size()) r.predicted_band = predicted_band[m.job];
      if (replayed.ok()) {
        auto it = replayed->find(m.id);
        if (it != replayed->end()) {
          r.replayed = it->second.replayed;
          r.replay_band = it->second.band;
        }
      }
      rows->push_back(std::move(r));
    }
  }
  return Status::Ok();
}

// The idle cluster's CPU rate over a short window, and where the window ended: the base the
// link job's CPU is measured above (heartbeats, the status poller).
struct CpuWindow {
  double rate = 0;      // CPU seconds per second
  double end_cpu = 0;
  double end_time = 0;  // MonotonicSeconds()
};

Result<CpuWindow> MeasureIdleCpu(LiveCluster& cluster) {
  constexpr double kWindowSeconds = 1.0;
  MR_ASSIGN_OR_RETURN(double before, cluster.CpuSeconds());
  const double start = MonotonicSeconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(kWindowSeconds));
  MR_ASSIGN_OR_RETURN(double after, cluster.CpuSeconds());
  const double end = MonotonicSeconds();
  return CpuWindow{std::max(0.0, after - before) / std::max(1e-3, end - start), after, end};
}

// One round of the standard jobs on `cluster`: their traces and the link job's CPU.
Result<Calibration> CalibrateOnce(LiveCluster& cluster, const ClusterShape& shape, const RunnerOptions& o, int round) {
  const std::vector<model::TaskJob> jobs = CalibrationJobs(shape);
  std::vector<std::vector<trace::Event>> traces;
  double link_cpu = 0;  // the link job's CPU above the idle cluster's (0: not readable)
  for (size_t index = 0; index < jobs.size(); ++index) {
    const std::string label = "calibrate-" + std::to_string(round + 1) + "." + std::to_string(index);
    const bool link_job = index + 1 == jobs.size();
    Result<CpuWindow> idle = link_job ? MeasureIdleCpu(cluster) : Result<CpuWindow>(CpuWindow{});
    MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured,
                        PlayJobs(cluster, {jobs[index]}, label, o.timeout, MakeProgress(o, label)));
    EndProgress(o, label + " done");
    if (measured.size() != 1 || !measured[0].succeeded) return Status::Internal(label + ": the job failed");
    if (link_job && idle.ok()) {
      Result<double> after = cluster.CpuSeconds();
      if (after.ok()) {
        const double seconds = MonotonicSeconds() - idle->end_time;
        link_cpu = std::max(0.0, *after - idle->end_cpu - idle->rate * seconds);
      }
    }
    MR_ASSIGN_OR_RETURN(auto events, trace::ReadTraceFile(JoinPath(cluster.TraceDir(), TraceFileName(measured[0].id))));
    traces.push_back(std::move(events));
  }
  // Burn-mode tasks share the host's cores; sleeping ones hold a slot without CPU.
  return DeriveCalibration(shape, traces, shape.work == WorkMode::kBurn ? AvailableCores() : 0, link_cpu);
}

// Each policy's jobs as it runs them, and the policy with the options the plan adds: a batch
// order's or plan's arrivals and queues; for balancedpools with two pools the capacity queues
// file DIR/plans/LABEL.queues as its `queues` option; for alone, each job's arrival where the
// one before is predicted to end (ChainedArrivals). The planner's prediction goes to
// DIR/plans/LABEL.plan (the report's "Batch plans"; batch_plan_report.h).
struct PlannedRun {
  PolicyRun policy;
  JobList jobs;
};

Result<PlannedRun> PlanRun(const Experiment& e, size_t p, const JobList& jobs, const Calibration& calib,
                           const std::string& dir) {
  PlannedRun run{e.policies[p], {}};
  MR_ASSIGN_OR_RETURN(PlannedBatch plan, PlanBatch(jobs, e.cluster, run.policy.batch_order));
  run.jobs = std::move(plan.jobs);
  if (run.policy.batch_order.empty()) return run;
  if (run.policy.batch_order == "alone") {
    std::vector<double> alone;
    for (const model::TaskJob& j : run.jobs) {
      model::TaskJob single = j;
      single.arrival = 0;
      MR_ASSIGN_OR_RETURN(std::vector<double> r, PredictResponses({single}, e.cluster, calib, run.policy));
      alone.push_back(r.at(0));
    }
    run.jobs = ChainedArrivals(run.jobs, alone);
  }
  const std::string plans = JoinPath(dir, "plans");
  MR_RETURN_IF_ERROR(MakeDirs(plans));
  const std::string label = PolicyLabel(e, p);
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(plans, label + ".plan"), PlannedBatchText(plan)));
  if (!plan.queues.empty()) {
    const std::string queues = AbsolutePath(JoinPath(plans, label + ".queues"));
    MR_RETURN_IF_ERROR(WriteFileAtomically(queues, plan.queues));
    run.policy.options["queues"] = queues;
  }
  return run;
}

}  // namespace

std::string PolicyLabel(const Experiment& e, size_t i) {
  if (!e.policies[i].label.empty()) return e.policies[i].label;
  int same = 0;
  for (const PolicyRun& p : e.policies) same += p.policy == e.policies[i].policy;
  return same > 1 ? e.policies[i].policy + "." + std::to_string(i + 1) : e.policies[i].policy;
}

Result<Calibration> Calibrate(const ClusterShape& shape, const RunnerOptions& o, const std::string& scratch_dir) {
  // The jobs run one at a time, so the policy does not matter: the master's default (fifo).
  PolicyRun fifo;
  fifo.policy = fifo.label = std::string(sched::DefaultPolicy());
  MR_RETURN_IF_ERROR(MakeDirs(scratch_dir));
  // Injected stragglers are not the cluster's speed: the calibration measures without them
  // (the simulator injects the same delays on its own).
  ClusterShape plain = shape;
  for (WorkerGroup& g : plain.groups) g.straggler = StragglerSpec{};
  MR_ASSIGN_OR_RETURN(std::unique_ptr<LiveCluster> cluster, o.factory(plain, fifo, JoinPath(scratch_dir, "cluster")));
  std::vector<Calibration> rounds;
  for (int round = 0; round < kCalibrationRounds; ++round) {
    MR_ASSIGN_OR_RETURN(Calibration c, CalibrateOnce(*cluster, plain, o, round));
    rounds.push_back(std::move(c));
  }
  return MedianCalibration(rounds);
}

Result<Calibration> LoadOrCalibrate(const ClusterShape& shape, const std::string& path, const RunnerOptions& o,
                                    const std::string& scratch_dir) {
  if (PathExists(path)) {
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
    MR_ASSIGN_OR_RETURN(Calibration c, ParseCalibration(text));
    if (c.shape_hash == ShapeHash(shape)) return c;
    return Status::FailedPrecondition("calibration " + path + " was made for another cluster shape (" + c.shape_hash +
                                      ", this one is " + ShapeHash(shape) + ")");
  }
  Result<Calibration> measured = Calibrate(shape, o, scratch_dir);
  (void)RemoveAll(scratch_dir);
  MR_ASSIGN_OR_RETURN(Calibration c, std::move(measured));
  std::string parent = path.substr(0, path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/'));
  if (!parent.empty()) MR_RETURN_IF_ERROR(MakeDirs(parent));
  MR_RETURN_IF_ERROR(WriteFileAtomically(path, CalibrationJson(c)));
  return c;
}

Status RunExperiment(const Experiment& e, const JobList& jobs, const RunnerOptions& o) {
  if (e.name.empty()) return Status::InvalidArgument("the experiment has no name");
  const std::string dir = JoinPath(o.results_root, e.name);
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(dir, "runs")));
  const std::string calib_path =
      o.calibration_path.empty() ? DefaultCalibrationPath(o.results_root, e.cluster) : o.calibration_path;
  MR_ASSIGN_OR_RETURN(Calibration calib, LoadOrCalibrate(e.cluster, calib_path, o, JoinPath(dir, "calibration-scratch")));
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "calibration.json"), CalibrationJson(calib)));
  std::vector<PlannedRun> planned;
  for (size_t p = 0; p < e.policies.size(); ++p) {
    MR_ASSIGN_OR_RETURN(PlannedRun run, PlanRun(e, p, jobs, calib, dir));
    planned.push_back(std::move(run));
  }
  Status first_error;
  for (size_t p = 0; p < e.policies.size(); ++p) {
    const std::string label = PolicyLabel(e, p);
    if (!o.only_policy.empty() && o.only_policy != label && o.only_policy != e.policies[p].policy) continue;
    for (int rep = 1; rep <= e.repetitions; ++rep) {
      const std::string name = label + "-" + std::to_string(rep);
      const std::string run = JoinPath(JoinPath(dir, "runs"), name);
      if (PathExists(JoinPath(run, kDoneMarker))) {
        EndProgress(o, name + ": kept (done before)");
        continue;
      }
      Status s = RunOnce(e.cluster, planned[p].policy, planned[p].jobs, name, run, o);
      EndProgress(o, name + (s.ok() ? ": done" : ": FAILED: " + s.message()));
      if (!s.ok() && first_error.ok()) first_error = s;
    }
  }
  std::vector<JobResult> rows;
  for (size_t p = 0; p < e.policies.size(); ++p) {
    MR_ASSIGN_OR_RETURN(std::vector<double> predicted,
                        PredictResponses(planned[p].jobs, e.cluster, calib, planned[p].policy));
    MR_ASSIGN_OR_RETURN(std::vector<Band> band, PredictionBand(planned[p].jobs, e.cluster, calib, planned[p].policy,
                                                               e.report.band_runs, e.report.band_jitter,
                                                               e.report.band_map_time_cv));
    MR_RETURN_IF_ERROR(AppendRows(e, p, planned[p].policy, planned[p].jobs, predicted, band, dir, o.log, &rows));
  }
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "jobs.csv"), JobsCsv(rows)));
  MR_RETURN_IF_ERROR(first_error);
  ReportSettings report{"Experiment " + e.name, SelectBound(e), e.report};
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "report.json"), ReportSettingsJson(report)));
  return BuildReport(dir, report);
}

}  // namespace mr::experiment
