// `mr run`: submit a job and wait for it, on a running master or an embedded local cluster;
// an interrupt kills the job (or leaves it running with --detach-on-interrupt).
#include <algorithm>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/job_client.h"
#include "cli/job_options.h"
#include "cli/local_cluster.h"
#include "common/file_util.h"
#include "common/job_id.h"

namespace mr::cli {

namespace {

// Where `mr run` sent its job, and what an interrupt does with it.
struct RunTarget {
  HostPort address;
  auth::ClusterToken token;
  std::string kill_hint;   // the `mr kill` command line for the job, "%s" for its id
  bool detach = false;     // --detach-on-interrupt
};

// `mr run` was interrupted while job `id` ran: kills it over a new connection (the
// interrupted one may be mid-reply), or with --detach-on-interrupt leaves it running and
// says how to kill it. One line on stderr; returns kExitInterrupted. *settled: the job
// is known to have ended (killed now, or ended before the kill arrived).
int HandleInterrupt(const RunTarget& t, uint64_t id, bool* settled) {
  const std::string job = JobIdString(id);
  *settled = false;
  if (t.detach) {
    std::string hint = t.kill_hint;
    hint.replace(hint.find("%s"), 2, job);
    std::cerr << "mr: interrupted: " << job << " keeps running; kill it with: " << hint << "\n";
    return kExitInterrupted;
  }
  // Not deferred: a second Ctrl-C (default action by now) ends mr run without waiting.
  auto client = client::MasterClient::Connect(t.address, "client", t.token, 2.0);
  auto st = client.ok() ? KillJob(**client, id) : Result<proto::JobStatus>(client.status());
  if (st.ok()) {
    *settled = true;
    std::cerr << "mr: interrupted: killed " << job << "\n";
  } else if (st.status().code() == StatusCode::kFailedPrecondition) {
    *settled = true;
    std::cerr << "mr: interrupted: " << st.status().message() << "\n";
  } else {
    std::cerr << "mr: interrupted: could not kill " << job << ": " << st.status().message() << "\n";
  }
  return kExitInterrupted;
}

}  // namespace

int RunMain(const Args& args) {
  po::options_description desc("mr run");
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  desc.add_options()
      ("master", po::value<std::string>(), "master address (default $MR_MASTER; none: embedded local cluster)")
      ("token-file", po::value<std::string>(), kTokenFileHelp)
      ("quiet,q", "no progress output")
      ("detach-on-interrupt", "on Ctrl-C / SIGTERM leave the job running (and print how to kill it) "
                              "instead of killing it; needs --master");
  // The embedded cluster's settings. A running master has its own policy and workers, so with
  // --master (or MR_MASTER) they are an error rather than silently ignored.
  po::options_description embedded("embedded cluster (only without --master)");
  embedded.add_options()("workers", po::value<int>()->default_value(
                                        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
                         "worker processes (default: one per core)")
      ("http", po::value<std::string>(), "serve the status page on this address while the job runs, "
                                         "e.g. 127.0.0.1:0 (mr run prints the job's page)");
  po::options_description sched_group = SchedulerOptionGroup(), slot_group = WorkerSlotOptionGroup();
  embedded.add(sched_group).add(slot_group);
  desc.add(embedded);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr run JOB --input PATH... --output DIR [options]", &positional))) {
    return *rc;
  }
  auto spec = BuildJobSpec(vm);
  if (!spec.ok()) return UsageError(spec.status().message());
  auto master = MasterAddress(vm);
  if (!master.ok() && vm.count("master")) return UsageError(master.status().message());
  if (master.ok()) {
    if (std::string flag = FirstExplicit(vm, embedded); !flag.empty()) {
      return UsageError("--" + flag + " sets up the embedded cluster, but the job goes to the master at " +
                        master->ToString() + ": give it to that master or its workers (mr master, mr worker, " +
                        "mr cluster start)");
    }
  } else {
    if (Status s = CheckDaemonOptions(vm, false); !s.ok()) return UsageError(s.message());
    int workers = vm["workers"].as<int>();
    if (workers < 1 || workers > 256) return UsageError("--workers must be in 1..256");
    if (vm.count("detach-on-interrupt")) {
      return UsageError("--detach-on-interrupt needs --master: the embedded cluster stops with mr run");
    }
    if (vm.count("http")) {
      if (auto http = ParseHostPort(vm["http"].as<std::string>()); !http.ok()) {
        return UsageError("--http: " + http.status().message());
      }
    }
  }
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());

  CatchInterrupts();
  std::unique_ptr<TempDir> tmp;
  std::unique_ptr<LocalCluster> cluster;
  RunTarget target;
  target.token = *token;
  target.detach = vm.count("detach-on-interrupt") > 0;
  HostPort& address = target.address;
  if (master.ok()) {
    address = *master;
  } else {
    tmp = std::make_unique<TempDir>("mr-run");
    LocalClusterOptions co;
    co.dir = tmp->path();
    co.workers = vm["workers"].as<int>();
    co.master_args = ExplicitArgs(vm, sched_group);
    if (vm.count("http")) co.master_args.insert(co.master_args.end(), {"--http", vm["http"].as<std::string>()});
    co.worker_args = ExplicitArgs(vm, slot_group);
    PassTokenFile(vm, &co);
    cluster = std::make_unique<LocalCluster>(co);
    if (Status s = cluster->Start(); !s.ok()) return UsageError("cannot start the local cluster: " + s.message());
    auto hp = ParseHostPort(cluster->master_address());
    if (!hp.ok()) return UsageError(hp.status().message());
    address = *hp;
  }
  target.kill_hint = "mr kill %s --master " + address.ToString();
  if (vm.count("token-file")) target.kill_hint += " --token-file " + AbsolutePath(vm["token-file"].as<std::string>());
  if (Interrupted()) {
    std::cerr << "mr: interrupted before the job was submitted\n";
    return kExitInterrupted;
  }
  auto client = client::MasterClient::Connect(address, "client", *token);
  if (!client.ok()) return ClientError(client.status());
  auto id = Submit(**client, *spec, address, vm.count("quiet") == 0);
  if (!id.ok()) return ClientError(id.status());
  auto st = WaitForJob(std::move(client).value(), address, *token, *id, vm.count("quiet") > 0);
  if (st.ok()) return Report(*st);
  if (st.status().code() != StatusCode::kAborted) {
    std::cerr << "mr: " << JobIdString(*id) << ": " << st.status().message() << "\n";
    return IsClusterUnavailable(st.status()) ? kExitUnavailable : kExitJobFailed;
  }
  bool settled = false;
  int rc = HandleInterrupt(target, *id, &settled);
  if (cluster && !settled) {
    // The embedded master could not kill the job: stop the cluster, then remove what the
    // job created (Submit refused an existing output, so the directory is the job's).
    cluster->Stop();
    (void)RemoveAll(spec->output());
  }
  return rc;
}

}  // namespace mr::cli
