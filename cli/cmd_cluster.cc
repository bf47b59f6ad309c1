// `mr cluster start|stop`: a local cluster in the background (pid files, logs and state in
// one directory).
#include <algorithm>
#include <optional>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/job_client.h"
#include "cli/local_cluster.h"
#include "common/file_util.h"
#include "common/worker_labels.h"

namespace mr::cli {

namespace {

// mr cluster's flags: the action and --dir, then everything `start` takes (the master's and
// the workers' groups kept to pass on what the user gave).
struct ClusterFlags {
  ClusterFlags();
  po::options_description desc{"mr cluster"};
  po::options_description start{"cluster start"};
  po::options_description sched_group = SchedulerOptionGroup(), master_group = MasterOptionGroup();
  po::options_description slot_group = WorkerSlotOptionGroup(), tuning_group = WorkerTuningOptionGroup();
  po::positional_options_description positional;
};

ClusterFlags::ClusterFlags() {
  positional.add("action", 1);
  desc.add_options()("action", po::value<std::string>(), "start or stop")
      ("dir", po::value<std::string>()->default_value("mr-cluster"), "directory for state, logs and pid files");
  // Everything but --dir is for start; the master and worker groups are theirs, passed on as given.
  start.add_options()("workers", po::value<int>()->default_value(3), "number of worker processes")
      ("resume", po::bool_switch(), "the directory holds an earlier cluster's state: recover its unfinished jobs")
      ("fresh", po::bool_switch(), "the directory holds an earlier cluster's state: move it aside (DIR.old-N), start empty")
      ("token-file", po::value<std::string>(), "cluster token file, passed to the master and every worker");
  start.add(sched_group).add(master_group).add(slot_group).add(tuning_group);
  desc.add(start);
}

int Stop(const po::variables_map& vm, const ClusterFlags& f, const std::string& dir) {
  if (std::string flag = FirstExplicit(vm, f.start); !flag.empty()) {
    return UsageError("--" + flag + " is an option of cluster start; cluster stop takes only --dir");
  }
  Status s = LocalCluster::StopDetached(dir);
  if (s.code() == StatusCode::kNotFound) return UsageError(s.message());
  if (!s.ok()) return Fail("mr: cluster stop", s);
  std::fprintf(stderr, "stopped the cluster in %s\n", dir.c_str());
  return kExitOk;
}

// Whether dir holds an earlier cluster's state: its master's state directory, not empty.
bool HasEarlierState(const std::string& dir) {
  auto names = ListDir(JoinPath(dir, "state"));
  return names.ok() && !names->empty();
}

// Renames dir to the first free DIR.old-N; returns the new name.
Result<std::string> MoveAside(const std::string& dir) {
  for (int n = 1; n < 10000; ++n) {
    const std::string to = dir + ".old-" + std::to_string(n);
    if (PathExists(to)) continue;
    MR_RETURN_IF_ERROR(RenameFile(dir, to));
    return to;
  }
  return Status::AlreadyExists("no free name " + dir + ".old-N");
}

// --resume / --fresh against what dir holds: nullopt to go on, else the exit status.
std::optional<int> EarlierState(const po::variables_map& vm, const std::string& dir) {
  const bool resume = vm["resume"].as<bool>(), fresh = vm["fresh"].as<bool>();
  if (resume && fresh) return UsageError("give --resume or --fresh, not both");
  if (!HasEarlierState(dir)) return std::nullopt;
  if (fresh) {
    auto moved = MoveAside(dir);
    if (!moved.ok()) return Fail("mr: cluster start", moved.status());
    std::fprintf(stderr, "moved the earlier cluster's state, logs and work directories to %s\n", moved->c_str());
    return std::nullopt;
  }
  if (resume) return std::nullopt;
  return UsageError(dir + " holds an earlier cluster's state: --resume recovers its unfinished jobs (job ids go on), "
                    "--fresh moves it aside and starts empty");
}

// Each worker's `name` label (common/worker_labels.h): worker-I, as its log file, pid file
// and work directory are called (WorkerFileName), so `mr status`, the pages, `mr logs` and
// the files use one name; in a fresh cluster I is also the master's id for it (wI).
// None when the user's --label gives a name, or already the most labels a worker takes.
void NameWorkers(const po::variables_map& vm, int workers, LocalClusterOptions* co) {
  if (vm.count("label")) {
    const auto& given = vm["label"].as<std::vector<std::string>>();
    if (given.size() >= kMaxWorkerLabels) return;
    for (const std::string& l : given) {
      if (l.rfind(std::string(kNameLabel) + "=", 0) == 0) return;
    }
  }
  co->per_worker_args.resize(static_cast<size_t>(workers));
  for (int i = 0; i < workers; ++i) {
    co->per_worker_args[static_cast<size_t>(i)] = {"--label", std::string(kNameLabel) + "=" + WorkerFileName(i)};
  }
}

// Removes from dir what a failed start added: the directory itself if it did not exist
// (`before` is then empty), else the names not in `before`, so the start can be run again.
void RemoveWhatStartMade(const std::string& dir, bool dir_existed, const std::vector<std::string>& before) {
  if (!dir_existed) {
    (void)RemoveAll(dir);
  } else if (auto names = ListDir(dir); names.ok()) {
    for (const std::string& n : *names) {
      if (std::find(before.begin(), before.end(), n) == before.end()) (void)RemoveAll(JoinPath(dir, n));
    }
  }
}

int Start(const po::variables_map& vm, const ClusterFlags& f, const std::string& dir) {
  if (Status s = CheckDaemonOptions(vm, true); !s.ok()) return UsageError(s.message());
  int workers = vm["workers"].as<int>();
  if (workers < 1 || workers > 256) return UsageError("--workers must be in 1..256");
  if (auto token = TokenOption(vm); !token.ok()) return UsageError(token.status().message());
  if (PathExists(JoinPath(dir, "master.pid"))) {
    return UsageError("a cluster is already running in " + dir + " (mr cluster stop --dir " + dir + ")");
  }
  if (auto rc = EarlierState(vm, dir)) return *rc;
  LocalClusterOptions co;
  co.dir = dir;
  co.workers = workers;
  co.detached = true;
  co.ordered_workers = true;
  co.master_args = ExplicitArgs(vm, f.sched_group);
  for (auto& a : ExplicitArgs(vm, f.master_group)) co.master_args.push_back(std::move(a));
  co.worker_args = ExplicitArgs(vm, f.slot_group);
  for (auto& a : ExplicitArgs(vm, f.tuning_group)) co.worker_args.push_back(std::move(a));
  NameWorkers(vm, workers, &co);
  PassTokenFile(vm, &co);
  const bool dir_existed = PathExists(dir);
  std::vector<std::string> before;
  if (dir_existed) {
    if (auto names = ListDir(dir); names.ok()) before = *names;
  }
  LocalCluster cluster(co);
  if (Status s = cluster.Start(); !s.ok()) {
    cluster.Stop();
    RemoveWhatStartMade(dir, dir_existed, before);
    return UsageError("cannot start the cluster: " + s.message());
  }
  std::printf("%s\n", cluster.master_address().c_str());
  std::fprintf(stderr, "cluster of %d worker%s running; logs and pids in %s; stop with: mr cluster stop --dir %s\n",
               workers, workers == 1 ? "" : "s", dir.c_str(), dir.c_str());
  if (!cluster.http_address().empty()) std::fprintf(stderr, "status page: http://%s/\n", cluster.http_address().c_str());
  return kExitOk;
}

}  // namespace

int ClusterMain(const Args& args) {
  ClusterFlags f;
  po::variables_map vm;
  if (auto rc = ParseFlags(args, f.desc, vm,
                          UsageLine("mr cluster start|stop [--workers N] [--dir D] [--resume|--fresh] [options]", &f.positional))) {
    return *rc;
  }
  if (!vm.count("action")) return UsageError("say start or stop");
  std::string action = vm["action"].as<std::string>();
  std::string dir = AbsolutePath(vm["dir"].as<std::string>());
  if (action == "stop") return Stop(vm, f, dir);
  if (action != "start") return UsageError("unknown action '" + action + "' (start or stop)");
  return Start(vm, f, dir);
}

}  // namespace mr::cli
