// `mr experiment run|report|calibrate`: an experiment file played on the local cluster
// and predicted by the task-level simulator (docs/experiments.md, "Running").
#include <unistd.h>

#include <iostream>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/experiment_cluster.h"
#include "cli/options.h"
#include "common/file_util.h"
#include "experiment/experiment_file.h"
#include "experiment/report.h"
#include "experiment/runner.h"
#include "experiment/workload_import.h"

namespace mr::cli {

namespace {

const char kRunUsage[] =
    "mr experiment run FILE [--results DIR] [--only POLICY] [--calibration FILE] [--timeout S]\n\n"
    "  Plays FILE's workload on a local cluster under each policy (a finished run is kept),\n"
    "  predicts each from the workload and the cluster's calibration, and writes\n"
    "  DIR/NAME/{jobs.csv,summary.md,plots/*.png}. docs/experiments.md.";
const char kReportUsage[] =
    "mr experiment report DIR\n\n"
    "  Rebuilds summary.md and plots from DIR/jobs.csv. docs/experiments.md.";
const char kCalibrateUsage[] =
    "mr experiment calibrate --cluster-from FILE [--out FILE] [--results DIR]\n\n"
    "  Measures the cluster shape of FILE with three standard jobs and stores the result\n"
    "  (default DIR/calibration-<shape hash>.json). docs/experiments.md.";

experiment::RunnerOptions BaseOptions(const po::variables_map& vm) {
  experiment::RunnerOptions o;
  o.results_root = vm["results"].as<std::string>();
  o.timeout = vm["timeout"].as<double>();
  o.log = &std::cerr;
  o.terminal = isatty(STDERR_FILENO) != 0;
  o.factory = StartExperimentCluster;
  if (vm.count("calibration")) o.calibration_path = vm["calibration"].as<std::string>();
  return o;
}

void AddCommonOptions(po::options_description& desc) {
  desc.add_options()
      ("results", po::value<std::string>()->default_value("results"), "results root directory")
      ("calibration", po::value<std::string>(), "calibration file (default RESULTS/calibration-<shape hash>.json)")
      ("timeout", po::value<double>()->default_value(600), "seconds a run may take after its last arrival");
}

}  // namespace

int ExperimentRunMain(const Args& args) {
  po::options_description desc("experiment run options");
  desc.add_options()("file", po::value<std::string>()->required(), "the experiment file (YAML)")
      ("only", po::value<std::string>(), "run this policy's runs only")
      ("policy-plugin", po::value<std::vector<std::string>>()->composing(),
       "a plug-in policy to load (docs/policies.md, \"Plug-in policies\"), repeatable: the file's runs may name it, "
       "live and predicted");
  AddCommonOptions(desc);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kRunUsage, &pos))) return *rc;
  auto exp = experiment::LoadExperimentFile(vm["file"].as<std::string>());
  if (!exp.ok()) return Fail(ErrorPrefix(args), exp.status(), kExitUsage);
  experiment::ImportSummary summary;
  auto jobs = experiment::MakeJobs(exp->workload, exp->cluster, &summary);
  if (!jobs.ok()) return Fail(ErrorPrefix(args), jobs.status(), kExitUsage);
  std::cerr << "experiment " << exp->name << ": " << jobs->size() << " jobs, " << summary.clipped << " clipped"
            << (summary.notes.empty() ? "" : "; " + summary.notes) << "\n";
  experiment::RunnerOptions o = BaseOptions(vm);
  if (vm.count("only")) o.only_policy = vm["only"].as<std::string>();
  Status s = experiment::RunExperiment(*exp, *jobs, o);
  if (!s.ok()) {
    return Fail(ErrorPrefix(args), s, s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitJobFailed);
  }
  std::cout << JoinPath(o.results_root, exp->name) << "\n";
  return kExitOk;
}

int ExperimentReportMain(const Args& args) {
  po::options_description desc("experiment report options");
  desc.add_options()("dir", po::value<std::string>()->required(), "an experiment's results directory");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kReportUsage, &pos))) return *rc;
  const std::string dir = vm["dir"].as<std::string>();
  // The settings `run` stored (title, SRPT bound, the file's report:), else the defaults.
  auto settings = experiment::LoadReportSettings(dir);
  if (!settings.ok()) return Fail(ErrorPrefix(args), settings.status(), kExitUsage);
  Status s = experiment::BuildReport(dir, *settings);
  if (!s.ok()) return Fail(ErrorPrefix(args), s, kExitUsage);
  return kExitOk;
}

int ExperimentCalibrateMain(const Args& args) {
  po::options_description desc("experiment calibrate options");
  desc.add_options()("cluster-from", po::value<std::string>()->required(), "experiment file whose cluster to measure")
      ("out", po::value<std::string>(), "where to store it (default RESULTS/calibration-<shape hash>.json)");
  AddCommonOptions(desc);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kCalibrateUsage))) return *rc;
  auto exp = experiment::LoadExperimentFile(vm["cluster-from"].as<std::string>());
  if (!exp.ok()) return Fail(ErrorPrefix(args), exp.status(), kExitUsage);
  experiment::RunnerOptions o = BaseOptions(vm);
  std::string out = vm.count("out") ? vm["out"].as<std::string>()
                                    : experiment::DefaultCalibrationPath(o.results_root, exp->cluster);
  auto c = experiment::Calibrate(exp->cluster, o, JoinPath(o.results_root, "calibration-scratch"));
  (void)RemoveAll(JoinPath(o.results_root, "calibration-scratch"));
  if (!c.ok()) {
    return Fail(ErrorPrefix(args), c.status(), kExitJobFailed);
  }
  std::string parent = out.find('/') == std::string::npos ? "" : out.substr(0, out.find_last_of('/'));
  Status s = parent.empty() ? Status::Ok() : MakeDirs(parent);
  if (s.ok()) s = WriteFileAtomically(out, experiment::CalibrationJson(*c));
  if (!s.ok()) return Fail(ErrorPrefix(args), s, kExitUsage);
  std::cout << experiment::CalibrationJson(*c);
  std::cerr << "stored in " << out << "\n";
  return kExitOk;
}

}  // namespace mr::cli
