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
#include "jobs/job_spec_params.h"
#include "jobs/sized_defaults.h"
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

// mr run's flags: the job's, where it goes, and the embedded cluster's (whose daemon groups
// are kept to pass on what the user gave).
struct RunFlags {
  RunFlags();
  po::options_description desc{"mr run"};
  po::options_description embedded{"embedded cluster (only without --master)"};
  po::options_description sched_group = SchedulerOptionGroup();
  po::options_description slot_group = WorkerSlotOptionGroup();
  po::positional_options_description positional;
};

RunFlags::RunFlags() {
  AddJobOptions(desc, positional);
  desc.add_options()
      ("master", po::value<std::string>(), "master address (default $MR_MASTER; none: embedded local cluster)")
      ("token-file", po::value<std::string>(), kTokenFileHelp)
      ("quiet,q", "no progress output")
      ("detach-on-interrupt", "on Ctrl-C / SIGTERM leave the job running (and print how to kill it) "
                              "instead of killing it; needs --master");
  // The embedded cluster's settings. A running master has its own policy and workers, so with
  // --master (or MR_MASTER) they are an error rather than silently ignored.
  embedded.add_options()("workers", po::value<int>()->default_value(
                                        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
                         "worker processes (default: one per core)")
      ("http", po::value<std::string>(), "serve the status page on this address while the job runs, "
                                         "e.g. 127.0.0.1:0 (mr run prints the job's page)");
  embedded.add(sched_group).add(slot_group);
  desc.add(embedded);
}

// The flags only one kind of target takes: with a master, none of the embedded cluster's;
// without one, daemon options the daemons accept and no --detach-on-interrupt.
// The embedded cluster's policy must admit the job (a capacity queue its --queues file
// lists), checked before any process starts; a master of its own checks it at submit.
Status CheckTargetFlags(const po::variables_map& vm, const Result<HostPort>& master, const RunFlags& f,
                        const proto::JobSpec& spec) {
  if (master.ok()) {
    if (std::string flag = FirstExplicit(vm, f.embedded); !flag.empty()) {
      return Status::InvalidArgument("--" + flag + " sets up the embedded cluster, but the job goes to the master at " +
                                     master->ToString() + ": give it to that master or its workers (mr master, " +
                                     "mr worker, mr cluster start)");
    }
    return Status::Ok();
  }
  const sched::JobParams params = jobs::JobParamsFromSpec(spec);
  MR_RETURN_IF_ERROR(CheckDaemonOptions(vm, false, &params));
  int workers = vm["workers"].as<int>();
  if (workers < 1 || workers > 256) return Status::InvalidArgument("--workers must be in 1..256");
  if (vm.count("detach-on-interrupt")) {
    return Status::InvalidArgument("--detach-on-interrupt needs --master: the embedded cluster stops with mr run");
  }
  if (vm.count("http")) {
    if (auto http = ParseHostPort(vm["http"].as<std::string>()); !http.ok()) {
      return Status::InvalidArgument("--http: " + http.status().message());
    }
  }
  return Status::Ok();
}

// The embedded cluster's slots over all its workers (unified slots count on both sides).
jobs::ClusterSlots EmbeddedSlots(const po::variables_map& vm) {
  const uint32_t workers = static_cast<uint32_t>(std::max(1, vm["workers"].as<int>()));
  const uint32_t unified = vm["unified-slots"].as<uint32_t>();
  return {workers * (vm["map-slots"].as<uint32_t>() + unified), workers * (vm["reduce-slots"].as<uint32_t>() + unified)};
}

// Starts the embedded cluster in dir with the daemon flags the user gave; its master's address.
Result<HostPort> StartEmbedded(const po::variables_map& vm, const RunFlags& f, const std::string& dir,
                               std::unique_ptr<LocalCluster>& cluster) {
  LocalClusterOptions co;
  co.dir = dir;
  co.workers = vm["workers"].as<int>();
  co.master_args = ExplicitArgs(vm, f.sched_group);
  // The embedded master dies with this command and is never restarted on its state, so its
  // job store stays in memory: no RocksDB files and no fsync at start, submit, commit or end
  // (docs/performance.md, "The fixed cost of mr run"). `mr master` keeps its store on disk.
  co.master_args.push_back("--state-in-memory");
  // A heartbeat every 10 ms (the workers' floor) instead of 20: an idle worker's first task
  // and a reducer's news of a map finished on another worker wait for the next heartbeat, on
  // every job's critical path; two workers on one machine heartbeat 200 times a second.
  co.master_args.insert(co.master_args.end(), {"--heartbeat-ms", "10"});
  if (vm.count("http")) co.master_args.insert(co.master_args.end(), {"--http", vm["http"].as<std::string>()});
  co.worker_args = ExplicitArgs(vm, f.slot_group);
  // Its workers' directories are in the same temporary directory, removed when mr run ends,
  // and no worker is restarted on them: no fsync of each map's output index either.
  co.worker_args.push_back("--ephemeral-work-dir");
  // Forked, not exec'd: each daemon skips loading the binary again (cli/local_cluster.h).
  co.fork_without_exec = true;
  PassTokenFile(vm, &co);
  cluster = std::make_unique<LocalCluster>(co);
  if (Status s = cluster->Start(); !s.ok()) return s.WithContext("cannot start the local cluster");
  return ParseHostPort(cluster->master_address());
}

// Submits spec to the target, waits for its end and reports it; an interrupt kills the job
// (HandleInterrupt). cluster: the embedded one, stopped if the job could not be killed.
int SubmitAndWait(const proto::JobSpec& spec, const RunTarget& target, bool quiet, LocalCluster* cluster) {
  if (Interrupted()) {
    std::cerr << "mr: interrupted before the job was submitted\n";
    return kExitInterrupted;
  }
  auto client = client::MasterClient::Connect(target.address, "client", target.token);
  if (!client.ok()) return ClientError(client.status());
  std::unique_ptr<client::MasterClient> connection = std::move(client).value();
  auto id = Submit(connection, spec, target.address, target.token, !quiet);
  if (!id.ok()) return ClientError(id.status());
  auto st = WaitForJob(std::move(connection), target.address, target.token, *id, quiet);
  if (st.ok()) return Report(*st);
  if (st.status().code() != StatusCode::kAborted) {
    std::cerr << "mr: " << JobIdString(*id) << ": " << st.status().message() << "\n";
    return IsClusterUnavailable(st.status()) ? kExitUnavailable : kExitJobFailed;
  }
  bool settled = false;
  int rc = HandleInterrupt(target, *id, &settled);
  if (cluster != nullptr && !settled) {
    // The embedded master could not kill the job: stop the cluster, then remove what the
    // job created (Submit refused an existing output, so the directory is the job's).
    cluster->Stop();
    (void)RemoveAll(spec.output());
  }
  return rc;
}

}  // namespace

int RunMain(const Args& args) {
  RunFlags f;
  po::variables_map vm;
  FlagUsage how = UsageLine("mr run JOB --input PATH... --output DIR [options]", &f.positional);
  how.not_suggested = OtherJobsFlags(args);
  if (auto rc = ParseFlags(args, f.desc, vm, how)) return *rc;
  auto master = MasterAddress(vm);
  // The embedded cluster's slots are known here: a job left at the default sizes gets sizes
  // that keep them all busy (jobs/sized_defaults.h).
  const jobs::ClusterSlots slots = EmbeddedSlots(vm);
  auto spec = BuildJobSpec(vm, master.ok() ? nullptr : &slots);
  if (!spec.ok()) return UsageError(spec.status().message());
  if (!master.ok() && vm.count("master")) return UsageError(master.status().message());
  if (Status s = CheckTargetFlags(vm, master, f, *spec); !s.ok()) return UsageError(s.message());
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());

  CatchInterrupts();
  std::unique_ptr<TempDir> tmp;
  std::unique_ptr<LocalCluster> cluster;
  RunTarget target;
  target.token = *token;
  target.detach = vm.count("detach-on-interrupt") > 0;
  if (master.ok()) {
    target.address = *master;
  } else {
    tmp = std::make_unique<TempDir>("mr-run");
    auto address = StartEmbedded(vm, f, tmp->path(), cluster);
    if (!address.ok()) return UsageError(address.status().message());
    target.address = *address;
  }
  target.kill_hint = "mr kill %s --master " + target.address.ToString();
  if (vm.count("token-file")) target.kill_hint += " --token-file " + AbsolutePath(vm["token-file"].as<std::string>());
  return SubmitAndWait(*spec, target, vm.count("quiet") > 0, cluster.get());
}

}  // namespace mr::cli
