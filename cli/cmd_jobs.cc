// `mr run`, `mr submit`, `mr status` and `mr kill`: the client side of jobs.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/job_options.h"
#include "cli/local_cluster.h"
#include "cli/progress.h"
#include "cli/status_table.h"
#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/job_id.h"
#include "common/version.h"
#include "client/master_client.h"
#include "master/status_json.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/scheduler.h"

namespace mr::cli {

namespace {

std::atomic<bool> g_interrupted{false};
// The first SIGINT / SIGTERM asks `mr run` to kill its job and exit 130; the handler then
// restores the default action, so a second one ends the process at once.
void OnInterrupt(int sig) {
  g_interrupted.store(true);
  signal(sig, SIG_DFL);
}

// Without SA_RESTART: a blocking read of the master returns (EINTR) and the wait loop sees
// the flag at once.
void CatchInterrupts() {
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// Holds SIGINT and SIGTERM back while alive (one request whose answer must not be lost,
// such as the id of a job just submitted); a signal that came meanwhile is delivered at
// the end.
class DeferInterrupts {
 public:
  DeferInterrupts() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~DeferInterrupts() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  DeferInterrupts(const DeferInterrupts&) = delete;
  DeferInterrupts& operator=(const DeferInterrupts&) = delete;

 private:
  sigset_t old_;
};

bool IsEnded(const proto::JobStatus& st) {
  return st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
}

constexpr const char* kTokenFileHelp = "cluster token file (the master's --token-file)";

// A client connection to the master named by --master / $MR_MASTER, proving
// --token-file if given.
Result<std::unique_ptr<client::MasterClient>> ConnectClient(const po::variables_map& vm) {
  MR_ASSIGN_OR_RETURN(HostPort master, MasterAddress(vm));
  MR_ASSIGN_OR_RETURN(auth::ClusterToken token, TokenOption(vm));
  return client::MasterClient::Connect(master, "client", token);
}

// Children started by this command read the same token file.
void PassTokenFile(const po::variables_map& vm, LocalClusterOptions* co) {
  if (!vm.count("token-file")) return;
  std::string path = AbsolutePath(vm["token-file"].as<std::string>());
  for (auto* args : {&co->master_args, &co->worker_args}) {
    args->push_back("--token-file");
    args->push_back(path);
  }
}

Result<uint64_t> ParseJobIdArg(const std::string& text) {
  std::optional<uint64_t> id = ParseJobId(text);
  if (!id) return Status::InvalidArgument("bad job id '" + text + "' (e.g. job-000001)");
  return *id;
}

// What the daemons would refuse, checked before any of them starts, with the same code:
// the option checks and the scheduler's construction (unknown policy, bad pools file).
// with_tuning: the master and worker tuning groups were parsed too (`cluster start`).
Status CheckDaemonOptions(const po::variables_map& vm, bool with_tuning) {
  master::MasterOptions m;
  worker::WorkerOptions w;
  MR_RETURN_IF_ERROR(ApplySchedulerOptions(vm, &m));
  MR_RETURN_IF_ERROR(ApplyWorkerSlotOptions(vm, &w));
  if (with_tuning) {
    MR_RETURN_IF_ERROR(ApplyMasterOptions(vm, &m));
    MR_RETURN_IF_ERROR(ApplyWorkerTuningOptions(vm, &w));
  }
  MR_ASSIGN_OR_RETURN(auto policy, sched::CreateScheduler(m.policy, m.scheduler));
  return sched::WithPlacement(std::move(policy), m.placement).status();
}

// The job's status: at once with wait_ms == 0; otherwise, if the master serves
// "wait_job", as soon as the job ends or after wait_ms, so the end is seen without any
// polling delay (a master without it is asked at once, and the caller polls).
Result<proto::JobStatus> FetchStatus(client::MasterClient& client, uint64_t id, uint32_t wait_ms = 0) {
  proto::Envelope req;
  if (wait_ms > 0 && client.HasFeature(kFeatureWaitJob)) {
    req.mutable_wait_job()->set_job_id(id);
    req.mutable_wait_job()->set_timeout_ms(wait_ms);
  } else {
    req.mutable_status()->set_job_id(id);
  }
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client.Call(req));
  if (!reply.has_status_reply() || reply.status_reply().jobs_size() != 1) {
    return Status::ProtocolError("unexpected status reply");
  }
  return reply.status_reply().jobs(0);
}

// Waits until the job ends (long polls of wait_ms, so progress is drawn and an
// interrupt is seen between them); shows its progress on stderr unless quiet
// (ProgressDisplay: a line in place on a terminal, plain lines otherwise). If the master
// goes away (a restart), reconnects for up to reconnect_seconds and goes on waiting for
// the same job.
Result<proto::JobStatus> WaitForJob(std::unique_ptr<client::MasterClient> client, const HostPort& address,
                                    const auth::ClusterToken& token, uint64_t id, bool quiet,
                                    double reconnect_seconds = 120) {
  bool tty = isatty(STDERR_FILENO);
  ProgressDisplay display(stderr, tty, MonotonicSeconds());
  int poll_ms = 2;
  const uint32_t wait_ms = tty && !quiet ? 100 : 250;
  for (;;) {
    if (g_interrupted.load()) return Status::Aborted("interrupted");
    auto polled = client ? FetchStatus(*client, id, wait_ms)
                         : Result<proto::JobStatus>(Status::NetworkError("not connected"));
    // A signal breaks the read off (EINTR): that is the interrupt, not a lost master.
    if (g_interrupted.load()) return Status::Aborted("interrupted");
    if (!polled.ok() && polled.status().code() == StatusCode::kNetworkError) {
      double deadline = MonotonicSeconds() + reconnect_seconds;
      client.reset();
      while (!client && MonotonicSeconds() < deadline && !g_interrupted.load()) {
        auto c = client::MasterClient::Connect(address, "client", token, 2.0);
        if (c.ok()) client = std::move(c).value();
        else std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
      if (!client) return polled.status().WithContext("lost the master");
      continue;
    }
    MR_ASSIGN_OR_RETURN(proto::JobStatus st, std::move(polled));
    bool done = IsEnded(st);
    if (!quiet) display.Show(st, MonotonicSeconds());
    if (done) return st;
    if (client->HasFeature(kFeatureWaitJob)) continue;  // the master held the request: no sleep
    // An older master: short jobs finish in milliseconds, so poll fast at first, then back off.
    std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
    poll_ms = std::min(poll_ms * 2, tty ? 100 : 200);
  }
}

int Report(const proto::JobStatus& st) {
  double secs = st.end_time() - st.submit_time();
  if (st.state() == "KILLED") {
    std::cerr << "mr: " << JobIdString(st.job_id()) << " was killed: " << st.error() << "\n";
    return kExitJobFailed;
  }
  if (st.state() != "SUCCEEDED") {
    std::cerr << "mr: " << JobIdString(st.job_id()) << " failed: " << st.error() << "\n";
    // The command's own words say why more often than its exit code (Hadoop prints the
    // failed task's diagnostics too); the whole record stays in `mr status JOB`.
    const proto::FailedAttempt& f = st.last_failed_attempt();
    if (!f.stderr_tail().empty()) {
      std::cerr << "stderr of " << f.task() << " attempt " << f.attempt() << " (last lines):\n" << f.stderr_tail();
      if (f.stderr_tail().back() != '\n') std::cerr << "\n";
    }
    return kExitJobFailed;
  }
  std::printf("%s %s succeeded in %.2fs: %u maps, %u reduces\n", JobIdString(st.job_id()).c_str(), st.job().c_str(), secs,
              st.maps_total(), st.reduces_total());
  std::printf("output: %s (part-r-00000 .. part-r-%05u)\n", st.output().c_str(), st.reduces_total() - 1);
  std::printf("trace:  %s/_trace.jsonl\n", st.output().c_str());
  return kExitOk;
}

// Submits spec; prints its page's URL on stderr when the master serves a status page (and
// print_page). Returns the job id.
Result<uint64_t> Submit(client::MasterClient& client, const proto::JobSpec& spec, const HostPort& master,
                        bool print_page) {
  proto::Envelope req;
  *req.mutable_submit()->mutable_spec() = spec;
  proto::Envelope reply;
  {
    DeferInterrupts defer;  // the id must come back: an interrupt then kills the job
    MR_ASSIGN_OR_RETURN(reply, client.Call(req));
  }
  if (!reply.has_submit_reply()) return Status::ProtocolError("unexpected reply to submit");
  const proto::SubmitReply& r = reply.submit_reply();
  std::string url = JobPageUrl(r.page_address(), master.host, r.job_id());
  if (print_page && !url.empty()) std::fprintf(stderr, "job page: %s\n", url.c_str());
  return r.job_id();
}

// Asks the master to kill job `id`; returns its status after the kill. Errors: NotFound,
// FailedPrecondition (it has already ended), ProtocolError (the master is too old to kill).
Result<proto::JobStatus> KillJob(client::MasterClient& client, uint64_t id) {
  if (!client.HasFeature(kFeatureKillJob)) {
    return Status::ProtocolError("this master cannot kill jobs (it predates mr kill)");
  }
  proto::Envelope req;
  req.mutable_kill_job()->set_job_id(id);
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client.Call(req));
  if (!reply.has_kill_job_reply()) return Status::ProtocolError("unexpected reply to kill");
  return reply.kill_job_reply().job();
}

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
  if (g_interrupted.load()) {
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

int SubmitMain(const Args& args) {
  po::options_description desc("submit options");
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  desc.add_options()("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm,
                          UsageLine("mr submit JOB --input PATH... --output DIR --master ADDR", &positional))) {
    return *rc;
  }
  auto spec = BuildJobSpec(vm);
  if (!spec.ok()) return UsageError(spec.status().message());
  auto master = MasterAddress(vm);
  if (!master.ok()) return ClientError(master.status());
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  auto id = Submit(**client, *spec, *master, true);
  if (!id.ok()) return ClientError(id.status());
  std::printf("%s\n", JobIdString(*id).c_str());
  return kExitOk;
}

int StatusMain(const Args& args) {
  po::options_description desc("status options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "job to show (default: all)")
      ("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("json", "print JSON for scripts")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr status [JOB_ID] --master ADDR [--json]", &positional))) {
    return *rc;
  }
  uint64_t id = 0;
  if (vm.count("job-id")) {
    auto parsed = ParseJobIdArg(vm["job-id"].as<std::string>());
    if (!parsed.ok()) return UsageError(parsed.status().message());
    id = *parsed;
  }
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  proto::Envelope req;
  req.mutable_status()->set_job_id(id);
  auto reply = (*client)->Call(req);
  if (!reply.ok()) return ClientError(reply.status());
  const auto& r = reply->status_reply();
  if (vm.count("json")) {
    nlohmann::json out;
    if (id != 0 && r.jobs_size() == 1) {
      out = master::JobStatusToJson(r.jobs(0));
    } else {
      out = {{"policy", r.policy()}, {"placement", r.placement()}, {"workers", r.workers()},
             {"worker_rows", nlohmann::json::array()}, {"jobs", nlohmann::json::array()}};
      for (const auto& w : r.worker_rows()) {
        out["worker_rows"].push_back({{"id", w.id()}, {"host", w.host()}, {"map_slots", w.map_slots()},
                                      {"reduce_slots", w.reduce_slots()}, {"unified_slots", w.unified_slots()},
                                      {"running_map", w.running_map()}, {"running_reduce", w.running_reduce()},
                                      {"running_unified", w.running_unified()}, {"speed", w.speed()},
                                      {"queued_maps", w.queued_maps()}, {"map_task_rate", w.map_task_rate()}});
      }
      for (const auto& st : r.jobs()) out["jobs"].push_back(master::JobStatusToJson(st));
    }
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    PrintStatusTable(r);
    if (id != 0 && r.jobs_size() == 1) PrintJobDetail(r.jobs(0));
  }
  return kExitOk;
}

int KillMain(const Args& args) {
  po::options_description desc("kill options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "the job to kill, e.g. job-000004")
      ("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  const char* usage =
      "mr kill JOB --master ADDR\n\n"
      "Ends a running job as KILLED (\"killed by user\"): its running tasks stop, its output\n"
      "directory is removed. Exit status 0 when killed; 2 for an unknown job or one that has\n"
      "already ended; 3 when the master cannot be reached or refuses the request";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &positional))) return *rc;
  if (!vm.count("job-id")) return UsageError("kill: which job? (mr kill job-000004)");
  auto id = ParseJobIdArg(vm["job-id"].as<std::string>());
  if (!id.ok()) return UsageError(id.status().message());
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  auto st = KillJob(**client, *id);
  if (!st.ok()) return ClientError(st.status());
  std::printf("killed %s\n", JobIdString(*id).c_str());
  return kExitOk;
}

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
