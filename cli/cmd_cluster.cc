// `mr cluster start|stop`: a local cluster in the background (pid files, logs and state in
// one directory).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/job_client.h"
#include "cli/local_cluster.h"
#include "common/file_util.h"

namespace mr::cli {

int ClusterMain(const Args& args) {
  po::options_description desc("mr cluster");
  po::positional_options_description positional;
  positional.add("action", 1);
  desc.add_options()("action", po::value<std::string>(), "start or stop")
      ("dir", po::value<std::string>()->default_value("mr-cluster"), "directory for state, logs and pid files");
  // Everything but --dir is for start; the master and worker groups are theirs, passed on as given.
  po::options_description start("cluster start");
  start.add_options()("workers", po::value<int>()->default_value(3), "number of worker processes")
      ("token-file", po::value<std::string>(), "cluster token file, passed to the master and every worker");
  po::options_description sched_group = SchedulerOptionGroup(), master_group = MasterOptionGroup();
  po::options_description slot_group = WorkerSlotOptionGroup(), tuning_group = WorkerTuningOptionGroup();
  start.add(sched_group).add(master_group).add(slot_group).add(tuning_group);
  desc.add(start);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm,
                          UsageLine("mr cluster start|stop [--workers N] [--dir D] [options]", &positional))) {
    return *rc;
  }
  if (!vm.count("action")) return UsageError("cluster: say start or stop");
  std::string action = vm["action"].as<std::string>();
  std::string dir = AbsolutePath(vm["dir"].as<std::string>());
  if (action == "stop") {
    if (std::string flag = FirstExplicit(vm, start); !flag.empty()) {
      return UsageError("--" + flag + " is an option of cluster start; cluster stop takes only --dir");
    }
    Status s = LocalCluster::StopDetached(dir);
    if (!s.ok()) return UsageError(s.message());
    std::fprintf(stderr, "stopped the cluster in %s\n", dir.c_str());
    return kExitOk;
  }
  if (action != "start") return UsageError("cluster: unknown action '" + action + "' (start or stop)");
  if (Status s = CheckDaemonOptions(vm, true); !s.ok()) return UsageError(s.message());
  int workers = vm["workers"].as<int>();
  if (workers < 1 || workers > 256) return UsageError("--workers must be in 1..256");
  if (auto token = TokenOption(vm); !token.ok()) return UsageError(token.status().message());
  if (PathExists(JoinPath(dir, "master.pid"))) {
    return UsageError("a cluster is already running in " + dir + " (mr cluster stop --dir " + dir + ")");
  }
  LocalClusterOptions co;
  co.dir = dir;
  co.workers = workers;
  co.detached = true;
  co.master_args = ExplicitArgs(vm, sched_group);
  for (auto& a : ExplicitArgs(vm, master_group)) co.master_args.push_back(std::move(a));
  co.worker_args = ExplicitArgs(vm, slot_group);
  for (auto& a : ExplicitArgs(vm, tuning_group)) co.worker_args.push_back(std::move(a));
  PassTokenFile(vm, &co);
  // What is in the directory before: a start that fails removes only what it made (the
  // directory itself, or the state, logs and files it added), so it can be run again.
  const bool dir_existed = PathExists(dir);
  std::vector<std::string> before;
  if (dir_existed) {
    if (auto names = ListDir(dir); names.ok()) before = *names;
  }
  LocalCluster cluster(co);
  if (Status s = cluster.Start(); !s.ok()) {
    cluster.Stop();
    if (!dir_existed) {
      (void)RemoveAll(dir);
    } else if (auto names = ListDir(dir); names.ok()) {
      for (const std::string& n : *names) {
        if (std::find(before.begin(), before.end(), n) == before.end()) (void)RemoveAll(JoinPath(dir, n));
      }
    }
    return UsageError("cannot start the cluster: " + s.message());
  }
  std::printf("%s\n", cluster.master_address().c_str());
  std::fprintf(stderr, "cluster of %d worker%s running; logs and pids in %s; stop with: mr cluster stop --dir %s\n",
               workers, workers == 1 ? "" : "s", dir.c_str(), dir.c_str());
  if (!cluster.http_address().empty()) std::fprintf(stderr, "status page: http://%s/\n", cluster.http_address().c_str());
  return kExitOk;
}

}  // namespace mr::cli
