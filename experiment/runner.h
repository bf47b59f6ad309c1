// `mr experiment run`: an experiment played live and predicted (docs/experiments.md,
// "Running"). For each policy and repetition a fresh local cluster of the experiment's
// shape replays the workload's arrivals (live_run.h) into results/NAME/runs/LABEL-REP/;
// a run with its DONE marker is kept and not redone; one without (failed, interrupted) is
// moved aside to LABEL-REP.failed-K with the traces and logs it had, and redone from scratch.
// Then the task-level simulator predicts every policy from the workload and the stored
// calibration of the shape (made first when there is none), and jobs.csv, summary.md and
// the plots are written (report.h). Not thread-safe; runs one cluster at a time.
#pragma once

#include <ostream>
#include <string>

#include "common/status.h"
#include "experiment/calibration.h"
#include "experiment/experiment.h"
#include "experiment/live_cluster.h"

namespace mr::experiment {

struct RunnerOptions {
  std::string results_root = "results";  // the experiment's results go to results_root/NAME
  std::string only_policy;               // non-empty: run this policy's runs only
  std::string calibration_path;          // empty: DefaultCalibrationPath(results_root, shape)
  double timeout = 600;                  // a run fails when a job is not done this long after the last arrival
  std::ostream* log = nullptr;           // progress; nullptr = quiet
  bool terminal = false;                 // rewrite the progress line in place
  LiveClusterFactory factory;            // starts the clusters
};

// The calibration stored at `path` if it was made for `shape`; else a new one measured on a
// cluster started by `factory` (scratch files under `scratch_dir`), stored at `path`.
Result<Calibration> LoadOrCalibrate(const ClusterShape& shape, const std::string& path,
                                    const RunnerOptions& options, const std::string& scratch_dir);
// Measures a new calibration: kCalibrationRounds rounds of the standard jobs (CalibrationJobs,
// one after another, under the default policy, fifo) on one cluster, each number the median
// of its rounds.
Result<Calibration> Calibrate(const ClusterShape& shape, const RunnerOptions& options,
                              const std::string& scratch_dir);

// The label of e.policies[i] in directory names and jobs.csv: its label, else its policy
// name, or "NAME.i" when the experiment lists that policy more than once.
std::string PolicyLabel(const Experiment& e, size_t i);

// Runs what is not done yet, predicts, writes jobs.csv and the report. Returns the first
// error of a run (the finished runs stay; a rerun resumes).
Status RunExperiment(const Experiment& e, const JobList& jobs, const RunnerOptions& options);

}  // namespace mr::experiment
