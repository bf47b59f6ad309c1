#include "cli/experiment_cluster.h"

#include <cstdio>
#include <mutex>

#include "cli/job_options.h"
#include "cli/local_cluster.h"
#include "client/master_client.h"
#include "common/file_util.h"
#include "common/process_cpu.h"

namespace mr::cli {

namespace {

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// `mr submit synthetic` flags for one job, parsed by the same code as the command line.
Result<proto::JobSpec> SyntheticSpec(const model::TaskJob& j, const std::string& name, const std::string& output,
                                     double slow_start, experiment::WorkMode work, bool speculative) {
  std::vector<std::string> args = {
      "submit", "synthetic", "--name", name, "--output", output, "--maps", std::to_string(j.maps),
      "--map-seconds", Num(j.map_seconds), "--map-bytes", std::to_string(static_cast<uint64_t>(j.map_bytes)),
      "--reducers", std::to_string(j.reducers), "--reduce-seconds", Num(j.reduce_seconds),
      "--slow-start", Num(slow_start), "--hint-map-seconds", Num(j.params.hint_map_seconds),
      "--hint-reduce-seconds", Num(j.params.hint_reduce_seconds),
      "--hint-shuffle-bytes", std::to_string(static_cast<uint64_t>(j.params.hint_shuffle_bytes)),
      "--pool", j.params.pool, "--weight", Num(j.params.weight),
      "--work", experiment::WorkModeName(work),
      // The experiment file's `speculative:` (default off); its predictions run the
      // speculator exactly when the live jobs may be backed up (docs/experiments.md).
      "--speculative", speculative ? "on" : "off"};
  po::options_description desc;
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(static_cast<int>(argv.size()), argv.data())
                  .options(desc).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Status::InvalidArgument(std::string("job ") + name + ": " + e.what());
  }
  return BuildJobSpec(vm);
}

class ExperimentCluster final : public experiment::LiveCluster {
 public:
  ExperimentCluster(LocalClusterOptions o, double slow_start, experiment::WorkMode work, bool speculative)
      : dir_(o.dir), slow_start_(slow_start), work_(work), speculative_(speculative), cluster_(std::move(o)) {}

  Status Start() {
    MR_RETURN_IF_ERROR(cluster_.Start());
    MR_ASSIGN_OR_RETURN(HostPort address, ParseHostPort(cluster_.master_address()));
    MR_ASSIGN_OR_RETURN(submitter_, client::MasterClient::Connect(address, "client"));
    MR_ASSIGN_OR_RETURN(poller_, client::MasterClient::Connect(address, "client"));
    return Status::Ok();
  }

  Result<uint64_t> Submit(const model::TaskJob& job, const std::string& name) override {
    MR_ASSIGN_OR_RETURN(proto::JobSpec spec,
                        SyntheticSpec(job, name, JoinPath(JoinPath(dir_, "outputs"), name), slow_start_, work_, speculative_));
    proto::Envelope req;
    *req.mutable_submit()->mutable_spec() = spec;
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
  LocalCluster cluster_;  // embedded: stops with this object
  std::mutex submit_mu_;  // guards submitter_
  std::unique_ptr<client::MasterClient> submitter_;
  std::mutex poll_mu_;    // guards poller_
  std::unique_ptr<client::MasterClient> poller_;
};

}  // namespace

Result<std::unique_ptr<experiment::LiveCluster>> StartExperimentCluster(const experiment::ClusterShape& shape,
                                                                        const experiment::PolicyRun& policy,
                                                                        const std::string& dir) {
  LocalClusterOptions o;
  o.dir = AbsolutePath(dir);
  o.master_args = {"--policy", policy.policy, "--heartbeat-ms", std::to_string(shape.heartbeat_ms)};
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
                                   std::to_string(static_cast<uint64_t>(g.shuffle_bandwidth))});
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
      ++o.workers;
    }
  }
  if (o.workers == 0) return Status::InvalidArgument("the cluster has no workers");
  auto cluster = std::make_unique<ExperimentCluster>(std::move(o), shape.slow_start, shape.work, policy.speculative);
  MR_RETURN_IF_ERROR(cluster->Start());
  return std::unique_ptr<experiment::LiveCluster>(std::move(cluster));
}

}  // namespace mr::cli
