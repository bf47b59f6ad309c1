#include "cli/job_client.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <thread>

#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/progress.h"
#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/job_id.h"
#include "common/version.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/scheduler.h"

namespace mr::cli {

namespace {

std::atomic<bool> g_interrupted{false};

void OnInterrupt(int sig) {
  g_interrupted.store(true);
  signal(sig, SIG_DFL);
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

// "1 map", "5 maps".
std::string Plural(uint32_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

// "DIR/part-r-00000", or "DIR/part-r-00000 .. part-r-00002": the parts a job wrote.
// "DIR/part-r-00000 .. part-r-00002": the parts a job wrote, `kind` "r" (one a reduce) or "m"
// (a map-only job: one a map).
std::string PartsWritten(const std::string& dir, const char* kind, uint32_t parts) {
  char first[32], last[32];
  std::snprintf(first, sizeof first, "part-%s-00000", kind);
  std::snprintf(last, sizeof last, "part-%s-%05u", kind, parts > 0 ? parts - 1 : 0);
  return dir + "/" + first + (parts > 1 ? std::string(" .. ") + last : std::string());
}

bool IsEnded(const proto::JobStatus& st) {
  return st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
}

}  // namespace

void CatchInterrupts() {
  struct sigaction sa {};  // without SA_RESTART (see the header)
  sa.sa_handler = OnInterrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool Interrupted() { return g_interrupted.load(); }

Result<std::unique_ptr<client::MasterClient>> ConnectClient(const po::variables_map& vm) {
  MR_ASSIGN_OR_RETURN(HostPort master, ClientMasterAddress(vm));
  MR_ASSIGN_OR_RETURN(auth::ClusterToken token, TokenOption(vm));
  return client::MasterClient::Connect(master, "client", token);
}

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

Status CheckDaemonOptions(const po::variables_map& vm, bool with_tuning, const sched::JobParams* job) {
  master::MasterOptions m;
  worker::WorkerOptions w;
  MR_RETURN_IF_ERROR(ApplySchedulerOptions(vm, &m));
  MR_RETURN_IF_ERROR(ApplyWorkerSlotOptions(vm, &w));
  if (with_tuning) {
    MR_RETURN_IF_ERROR(ApplyMasterOptions(vm, &m));
    MR_RETURN_IF_ERROR(ApplyWorkerTuningOptions(vm, &w));
  }
  MR_ASSIGN_OR_RETURN(auto policy, sched::CreateScheduler(m.policy, m.scheduler));
  if (job != nullptr) MR_RETURN_IF_ERROR(policy->AdmitJob(*job));
  return sched::WithPlacement(std::move(policy), m.placement).status();
}

namespace {

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

}  // namespace

// Waits until the job ends (long polls of wait_ms, so progress is drawn and an
// interrupt is seen between them); shows its progress on stderr unless quiet
// (ProgressDisplay: a line in place on a terminal, plain lines otherwise). If the master
// goes away (a restart), reconnects for up to reconnect_seconds and goes on waiting for
// the same job.
Result<proto::JobStatus> WaitForJob(std::unique_ptr<client::MasterClient> client, const HostPort& address,
                                    const auth::ClusterToken& token, uint64_t id, bool quiet,
                                    double reconnect_seconds) {
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
  std::printf("%s %s succeeded in %.2fs: %s, %s\n", JobIdString(st.job_id()).c_str(), st.job().c_str(), secs,
              Plural(st.maps_total(), "map").c_str(), Plural(st.reduces_total(), "reduce").c_str());
  // A map-only job (streaming with 0 reducers): each map wrote its part.
  const bool map_only = st.reduces_total() == 0;
  std::printf("output: %s (mr cat %s)\n",
              PartsWritten(st.output(), map_only ? "m" : "r", map_only ? st.maps_total() : st.reduces_total()).c_str(),
              st.output().c_str());
  std::printf("trace:  %s/_trace.jsonl\n", st.output().c_str());
  return kExitOk;
}

// True if SIGINT or SIGTERM arrived while DeferInterrupts holds them back.
bool InterruptPending() {
  sigset_t pending;
  sigpending(&pending);
  return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1;
}

// A random id for one submission: 128 bits, hex.
std::string NewSubmissionId() {
  std::random_device rd;
  char buf[33];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

Result<uint64_t> Submit(std::unique_ptr<client::MasterClient>& client, proto::JobSpec spec, const HostPort& master,
                        const auth::ClusterToken& token, bool print_page, double reconnect_seconds) {
  if (spec.submission_id().empty()) spec.set_submission_id(NewSubmissionId());
  proto::Envelope req;
  *req.mutable_submit()->mutable_spec() = spec;
  Result<proto::Envelope> reply = Status::NetworkError("not sent");
  {
    DeferInterrupts defer;  // the id must come back: an interrupt then kills the job
    reply = client->Call(req);
    // Cut off before the reply (the master restarted): send the same submission again. Only
    // to a master that answers a known submission id with its job; an older one would run it twice.
    const double deadline = MonotonicSeconds() + reconnect_seconds;
    while (!reply.ok() && reply.status().code() == StatusCode::kNetworkError &&
           client->HasFeature(kFeatureSubmitRetry) && MonotonicSeconds() < deadline) {
      if (InterruptPending()) {
        return Status::Aborted("interrupted while the master was away; the job may have been submitted "
                               "(mr status lists it)");
      }
      auto c = client::MasterClient::Connect(master, "client", token, 2.0);
      if (!c.ok() || !(*c)->HasFeature(kFeatureSubmitRetry)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        continue;
      }
      client = std::move(c).value();
      reply = client->Call(req);
    }
  }
  MR_RETURN_IF_ERROR(reply.status());
  if (!reply->has_submit_reply()) return Status::ProtocolError("unexpected reply to submit");
  const proto::SubmitReply& r = reply->submit_reply();
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

}  // namespace mr::cli
