#include "cli/experiment_cluster.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/experiment_netns.h"
#include "cli/local_cluster.h"
#include "client/master_client.h"
#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/process_cpu.h"
#include "scheduler/policies/plugin_loader.h"

namespace mr::cli {

namespace {

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

jobs::JobRequest ExperimentJobRequest(const model::TaskJob& j, const std::string& name, const std::string& output,
                                      double slow_start, experiment::WorkMode work, bool speculative) {
  jobs::JobRequest r;
  r.job = "synthetic";
  r.name = name;
  r.output = output;
  r.num_maps = static_cast<uint32_t>(j.maps);
  r.params = {{"map_seconds", Num(j.map_seconds)},
              {"map_bytes", std::to_string(static_cast<uint64_t>(j.map_bytes))},
              {"reduce_seconds", Num(j.reduce_seconds)},
              {"work", experiment::WorkModeName(work)}};
  r.reducers = static_cast<uint32_t>(j.reducers);
  r.slow_start = slow_start;
  r.scheduling = j.params;
  // The experiment file's `speculative:` (default off); its predictions run the speculator
  // exactly when the live jobs may be backed up (docs/experiments.md).
  r.scheduling.speculative = speculative;
  return r;
}

namespace {

class ExperimentCluster final : public experiment::LiveCluster {
 public:
  // hosts: a kind: netns cluster's (its run is removed with this object); nullopt: local.
  ExperimentCluster(LocalClusterOptions o, double slow_start, experiment::WorkMode work, bool speculative,
                    std::optional<NetnsHosts> hosts = std::nullopt)
      : dir_(o.dir), slow_start_(slow_start), work_(work), speculative_(speculative), hosts_(std::move(hosts)),
        cluster_(std::move(o)) {}
  ~ExperimentCluster() override {
    cluster_.Stop();
    if (hosts_) NetnsDown(&*hosts_);
  }

  // Starts the daemons and returns once every worker has registered with the master: a run
  // whose first jobs met half the workers would measure another cluster than the one the
  // simulator predicts (seen under load: a flex run's first 0.2 s on 2 of 4 workers).
  Status Start(int workers) {
    MR_RETURN_IF_ERROR(cluster_.Start());
    MR_ASSIGN_OR_RETURN(HostPort address, ParseHostPort(cluster_.master_address()));
    if (hosts_) {
      MR_RETURN_IF_ERROR(ConnectFromClientHost(address));
    } else {
      MR_ASSIGN_OR_RETURN(submitter_, client::MasterClient::Connect(address, "client"));
      MR_ASSIGN_OR_RETURN(poller_, client::MasterClient::Connect(address, "client"));
    }
    return WaitForWorkers(workers);
  }

  // kind: netns: the experiment talks to the master as a client on the client's host
  // would, over its shaped link, with the cluster token. The sockets are opened with this
  // thread inside the client's namespace, and keep it after the thread moves back.
  Status ConnectFromClientHost(const HostPort& address) {
    std::string warning;
    MR_ASSIGN_OR_RETURN(auth::ClusterToken token, auth::ClusterToken::FromFile(hosts_->token_file, &warning));
    const int home = CurrentNetnsFd();
    if (home < 0) return Status::Internal("cannot open this thread's network namespace");
    Status s = EnterNetns(hosts_->client_ns);
    if (s.ok()) {
      auto a = client::MasterClient::Connect(address, "client", token);
      auto b = a.ok() ? client::MasterClient::Connect(address, "client", token) : a.status();
      s = !a.ok() ? a.status() : b.status();
      if (s.ok()) {
        submitter_ = std::move(*a);
        poller_ = std::move(*b);
      }
    }
    Status back = EnterNetnsFd(home);
    ::close(home);
    MR_RETURN_IF_ERROR(back.WithContext("returning to the experiment's network namespace"));
    return s;
  }

  Status WaitForWorkers(int workers) {
    constexpr double kTimeoutSeconds = 20, kPollSeconds = 0.01;
    const double deadline = MonotonicSeconds() + kTimeoutSeconds;
    uint32_t seen = 0;
    while (MonotonicSeconds() < deadline) {
      proto::Envelope req;
      req.mutable_status()->set_job_id(0);
      MR_ASSIGN_OR_RETURN(proto::Envelope reply, poller_->Call(req));
      if (!reply.has_status_reply()) return Status::ProtocolError("unexpected status reply");
      seen = reply.status_reply().workers();
      if (seen >= static_cast<uint32_t>(workers)) return Status::Ok();
      std::this_thread::sleep_for(std::chrono::duration<double>(kPollSeconds));
    }
    return Status::Unavailable("only " + std::to_string(seen) + " of " + std::to_string(workers) +
                               " workers registered within " + std::to_string(static_cast<int>(kTimeoutSeconds)) + " s");
  }

  Result<uint64_t> Submit(const model::TaskJob& job, const std::string& name) override {
    const std::string output = JoinPath(JoinPath(dir_, "outputs"), name);
    Result<proto::JobSpec> spec =
        jobs::MakeJobSpec(ExperimentJobRequest(job, name, output, slow_start_, work_, speculative_), jobs::LocalInputs());
    if (!spec.ok()) return spec.status().WithContext("job " + name);
    proto::Envelope req;
    *req.mutable_submit()->mutable_spec() = std::move(*spec);
    std::lock_guard<std::mutex> lock(submit_mu_);
    MR_ASSIGN_OR_RETURN(proto::Envelope reply, submitter_->Call(req));
    if (!reply.has_submit_reply()) return Status::ProtocolError("unexpected reply to submit");
    return reply.submit_reply().job_id();
  }

  Result<std::vector<experiment::LiveJobState>> Poll() override {
    proto::Envelope req;
    req.mutable_status()->set_job_id(0);
    std::lock_guard<std::mutex> lock(poll_mu_);
    MR_ASSIGN_OR_RETURN(proto::Envelope reply, poller_->Call(req));
    if (!reply.has_status_reply()) return Status::ProtocolError("unexpected status reply");
    std::vector<experiment::LiveJobState> out;
    for (const proto::JobStatus& st : reply.status_reply().jobs()) {
      experiment::LiveJobState s;
      s.id = st.job_id();
      s.ended = st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
      s.succeeded = st.state() == "SUCCEEDED";
      s.submit_time = st.submit_time();
      s.end_time = st.end_time();
      s.error = st.error();
      out.push_back(std::move(s));
    }
    return out;
  }

  std::string TraceDir() const override { return JoinPath(JoinPath(dir_, "state"), "traces"); }
  std::string LogDir() const override { return dir_; }

  Result<double> CpuSeconds() override {
    double sum = 0;
    for (pid_t pid : cluster_.pids()) {
      MR_ASSIGN_OR_RETURN(double cpu, ProcessCpuSeconds(pid));
      sum += cpu;
    }
    return sum;
  }

 private:
  std::string dir_;
  double slow_start_;
  experiment::WorkMode work_;
  bool speculative_;  // every job's --speculative
  std::optional<NetnsHosts> hosts_;  // kind: netns
  LocalCluster cluster_;  // embedded: stops with this object
  std::mutex submit_mu_;  // guards submitter_
  std::unique_ptr<client::MasterClient> submitter_;
  std::mutex poll_mu_;    // guards poller_
  std::unique_ptr<client::MasterClient> poller_;
};

// kind: netns: the master on its host's address, worker i on host i (its shuffle server on
// that host's address), everyone with the run's token (they listen beyond loopback).
void PlaceOnHosts(const NetnsHosts& hosts, LocalClusterOptions* o) {
  o->master_netns = hosts.master_ns;
  o->master_listen = hosts.master_ip + ":0";
  o->master_args.insert(o->master_args.end(), {"--token-file", hosts.token_file});
  o->worker_netns = hosts.worker_ns;
  for (size_t i = 0; i < o->per_worker_args.size(); ++i) {
    o->per_worker_args[i].insert(o->per_worker_args[i].end(),
                                 {"--host", hosts.worker_ips[i], "--token-file", hosts.token_file});
  }
}

}  // namespace

Result<std::unique_ptr<experiment::LiveCluster>> StartExperimentCluster(const experiment::ClusterShape& shape,
                                                                        const experiment::PolicyRun& policy,
                                                                        const std::string& dir) {
  LocalClusterOptions o;
  o.dir = AbsolutePath(dir);
  o.master_args = {"--policy", policy.policy, "--heartbeat-ms", std::to_string(shape.heartbeat_ms)};
  // Plug-in policies this process loaded (mr experiment run --policy-plugin): the master too.
  for (const std::string& plugin : sched::LoadedPolicyPlugins()) {
    o.master_args.push_back("--policy-plugin");
    o.master_args.push_back(plugin);
  }
  for (const auto& [name, value] : policy.options) {
    o.master_args.push_back("--" + name);
    o.master_args.push_back(value);
  }
  for (const auto& [name, value] : policy.placement) {
    o.master_args.push_back("--" + name);
    o.master_args.push_back(value);
  }
  o.workers = 0;
  for (const experiment::WorkerGroup& g : shape.groups) {
    for (int i = 0; i < g.count; ++i) {
      o.per_worker_args.push_back({"--map-slots", std::to_string(g.map_slots), "--reduce-slots",
                                   std::to_string(g.reduce_slots), "--unified-slots", std::to_string(g.unified_slots),
                                   "--speed", Num(g.speed), "--shuffle-bandwidth",
                                   std::to_string(static_cast<uint64_t>(g.shuffle_bandwidth)),
                                   "--fetches-per-source", std::to_string(g.fetches_per_source),
                                   "--receiver-shares", g.receiver_shares ? "on" : "off"});
      if (g.shuffle_link_rate != "auto" && g.shuffle_bandwidth <= 0) {
        o.per_worker_args.back().insert(o.per_worker_args.back().end(), {"--shuffle-link-rate", g.shuffle_link_rate});
      }
      if (g.straggler.enabled) {  // worker i of the group: seed + i, as the simulator's
        std::vector<std::string>& args = o.per_worker_args.back();
        const std::vector<std::string> flags = {
            "--straggler-offset", Num(g.straggler.offset) + "s", "--straggler-rate", Num(g.straggler.rate),
            "--straggler-tail", StragglerTailName(g.straggler.tail),
            "--straggler-seed", std::to_string(g.straggler.seed + static_cast<uint64_t>(i))};
        args.insert(args.end(), flags.begin(), flags.end());
        if (g.straggler.tail == StragglerTail::kPareto) {
          args.push_back("--straggler-shape");
          args.push_back(Num(g.straggler.shape));
        }
      }
      std::vector<std::string>& own = o.per_worker_args.back();
      for (const Label& l : g.labels) own.insert(own.end(), {"--label", l.key + "=" + l.value});
      ++o.workers;
    }
  }
  if (o.workers == 0) return Status::InvalidArgument("the cluster has no workers");
  const int workers = static_cast<int>(o.per_worker_args.size());
  std::optional<NetnsHosts> hosts;
  if (shape.kind == experiment::ClusterKind::kNetns) {
    MR_ASSIGN_OR_RETURN(hosts, NetnsUp(workers, shape.link_rate, o.dir));
    PlaceOnHosts(*hosts, &o);
  }
  auto cluster =
      std::make_unique<ExperimentCluster>(std::move(o), shape.slow_start, shape.work, policy.speculative, std::move(hosts));
  MR_RETURN_IF_ERROR(cluster->Start(workers));
  return std::unique_ptr<experiment::LiveCluster>(std::move(cluster));
}

}  // namespace mr::cli
