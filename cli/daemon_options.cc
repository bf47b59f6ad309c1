#include "cli/daemon_options.h"

#include <charconv>

#include <asio/ip/address.hpp>

#include "common/file_util.h"
#include "common/units.h"
#include "cli/scheduler_flags.h"
#include "scheduler/policy_flags.h"

namespace mr::cli {

namespace {

// Options whose value is a file: a child may run elsewhere in its life (logs, pid files),
// so it gets the absolute path.
bool IsPathOption(const std::string& name) { return sched::IsPolicyPathFlag(name) || name == kPolicyPluginFlag; }

// The text of a parsed value, as the child's parser reads it back.
std::string ValueText(const boost::any& v) {
  if (const auto* s = boost::any_cast<std::string>(&v)) return *s;
  if (const auto* u = boost::any_cast<uint32_t>(&v)) return std::to_string(*u);
  if (const auto* i = boost::any_cast<int>(&v)) return std::to_string(*i);
  if (const auto* z = boost::any_cast<size_t>(&v)) return std::to_string(*z);
  if (const auto* d = boost::any_cast<double>(&v)) {
    char buf[32];  // the shortest text that reads back as the same double
    auto r = std::to_chars(buf, buf + sizeof buf, *d);
    return std::string(buf, r.ptr);
  }
  return "";  // a type no group uses; ExplicitArgs' callers are covered by the cli tests
}

// One text per value: a repeatable flag (std::vector<std::string>) gives each of its values.
std::vector<std::string> ValueTexts(const boost::any& v) {
  if (const auto* many = boost::any_cast<std::vector<std::string>>(&v)) return *many;
  return {ValueText(v)};
}

}  // namespace

po::options_description SchedulerOptionGroup() {
  po::options_description g("scheduler options");
  g.add_options()("policy", po::value<std::string>()->default_value(std::string(sched::DefaultPolicy())),
                  sched::PolicyFlagHelp().c_str());
  AddPolicyOptionFlags(g);
  AddPlacementFlags(g);
  return g;
}

po::options_description MasterOptionGroup() {
  po::options_description g("master options");
  g.add_options()
      ("heartbeat-ms", po::value<uint32_t>()->default_value(20), "worker heartbeat interval (a finished task heartbeats at once)")
      ("max-heartbeat-rate", po::value<uint32_t>()->default_value(500),
       "idle heartbeats per second for the whole cluster: each worker's interval is at least workers/rate")
      ("history-jobs", po::value<size_t>()->default_value(1000), "finished jobs kept browsable (status, page, traces)")
      ("history-age", po::value<std::string>()->default_value("0"),
       "finished jobs are dropped this long after they end (e.g. 7d, 12h; 0 = never)")
      ("worker-timeout", po::value<double>()->default_value(10), "seconds without a heartbeat before a worker is lost")
      ("max-attempts", po::value<uint32_t>()->default_value(4), "failed attempts of a task before its job fails")
      ("task-timeout", po::value<std::string>()->default_value("600s"),
       "a task attempt with no progress this long is killed and retried (e.g. 10m, 30s; 0 = never)")
      ("http", po::value<std::string>(), "serve the status page and JSON API on this address, e.g. 127.0.0.1:7080")
      ("handshake-timeout", po::value<double>()->default_value(10), "seconds a peer has to complete the handshake")
      ("speculative-slow-task", po::value<double>()->default_value(25),
       "speculation (LATE): a running map (reduce) whose progress rate is below this percentile of the maps' "
       "(reduces') rates may be backed up (jobs opt out with --speculative off)")
      ("speculative-slow-node", po::value<double>()->default_value(25),
       "speculation: a worker whose measured map (reduce) rate is below this percentile of the workers' gets no "
       "map (reduce) backup")
      ("speculative-cap", po::value<double>()->default_value(0.1, "0.1"),
       "speculation: at most max(1, this fraction of the cluster's slots) backups run at once")
      ("speculative-min-age", po::value<std::string>()->default_value("0.5s"),
       "speculation: an attempt younger than this is not judged (at least two progress reports old)")
      ("max-pending-handshakes", po::value<int>()->default_value(256),
       "connections still in the handshake; beyond this the oldest is dropped for the newest");
  return g;
}

po::options_description WorkerSlotOptionGroup() {
  po::options_description g("worker options");
  g.add_options()
      ("map-slots", po::value<uint32_t>()->default_value(1), "map slots per worker")
      ("reduce-slots", po::value<uint32_t>()->default_value(1), "reduce slots per worker")
      ("unified-slots", po::value<uint32_t>()->default_value(0), "slots per worker that run either a map or a reduce")
      ("speed", po::value<double>()->default_value(1.0),
       "relative speed of map work, in (0, 1000]: a synthetic map's work takes work/speed; a map that reads "
       "input (wordcount, sort, grep, streaming) is emulated: below 1 it keeps its slot, without CPU, for "
       "(1/speed - 1) x its measured work time after it; at 1 or more it runs as it runs (real work cannot "
       "be made faster)")
      ("shuffle-bandwidth", po::value<std::string>()->default_value("0"), "shuffle egress cap per worker, e.g. 50MB/s (0 = unlimited)")
      ("shuffle-link-rate", po::value<std::string>()->default_value("auto"),
       "without --shuffle-bandwidth, how the jobs' shares meet this host's link: auto (estimate the link "
       "while backlogged and pace the shares at the estimate), a declared wire rate such as 20MB/s (pace "
       "at its payload), or off (TCP divides the link); docs/multi-host.md")
      ("fetch-threads", po::value<uint32_t>()->default_value(32), "max parallel shuffle fetches")
      ("fetches-per-source", po::value<uint32_t>()->default_value(2),
       "shuffle fetches in flight per reducer and source worker (1: the next map output is requested only "
       "after the current one is in; docs/shuffle.md)")
      ("receiver-shares", po::value<std::string>()->default_value("on"),
       "on: a share-0 job's fetch from another host waits while a job with a positive share fetches over "
       "this host's link, so the link's receiving side keeps the policy's shares; off: TCP divides it "
       "(docs/multi-host.md)");
  return g;
}

po::options_description WorkerTuningOptionGroup() {
  po::options_description g("worker tuning");
  g.add_options()
      ("sort-buffer", po::value<std::string>(), "map sort buffer size (overrides the job's)")
      ("master-timeout", po::value<double>()->default_value(30), "a worker exits after this many seconds without the master")
      ("straggler-offset", po::value<std::string>(),
       "straggler injection: every map attempt keeps its slot, without CPU, for an extra delay drawn from a "
       "delayed tail: this offset T (e.g. 2s, 500ms) plus a tail of mean 1/rate; needs all four --straggler-* "
       "flags")
      ("straggler-rate", po::value<double>(), "the tail's rate (1/seconds, > 0): its mean is 1/rate")
      ("straggler-tail", po::value<std::string>(), "exp, or pareto (a power-law tail with the same mean)")
      ("straggler-seed", po::value<uint64_t>(), "seed: the delay is a function of it and the attempt (job, map, attempt)")
      ("straggler-shape", po::value<double>(), "pareto tail shape alpha > 1 (default 3; at most 2: infinite variance)")
      ("label", po::value<std::vector<std::string>>()->composing(),
       "KEY=VALUE label that policies and status see, repeatable (at most 16, no key twice): KEY is 1-63 of "
       "letters, digits, '.', '_', '-'; VALUE 1-63 of those and ':', '/'");
  return g;
}

Status ApplySchedulerOptions(const po::variables_map& vm, master::MasterOptions* o) {
  o->policy = vm["policy"].as<std::string>();
  MR_ASSIGN_OR_RETURN(o->scheduler, sched::PolicyOptionsFromFlags(o->policy, GivenPolicyFlags(vm)));
  MR_ASSIGN_OR_RETURN(o->placement, PlacementConfigFromVm(vm));
  return Status::Ok();
}

Status ApplyMasterOptions(const po::variables_map& vm, master::MasterOptions* o) {
  o->heartbeat_ms = vm["heartbeat-ms"].as<uint32_t>();
  if (o->heartbeat_ms < 1 || o->heartbeat_ms > 60000) return Status::InvalidArgument("--heartbeat-ms must be in 1..60000");
  o->max_heartbeats_per_second = vm["max-heartbeat-rate"].as<uint32_t>();
  if (o->max_heartbeats_per_second < 1 || o->max_heartbeats_per_second > 1000000) {
    return Status::InvalidArgument("--max-heartbeat-rate must be in 1..1000000");
  }
  o->tracker.worker_timeout = vm["worker-timeout"].as<double>();
  if (!(o->tracker.worker_timeout >= 0.2 && o->tracker.worker_timeout <= 3600)) {
    return Status::InvalidArgument("--worker-timeout must be in [0.2, 3600] seconds");
  }
  o->tracker.history_jobs = vm["history-jobs"].as<size_t>();
  if (o->tracker.history_jobs < 1) return Status::InvalidArgument("--history-jobs must be at least 1");
  auto age = ParseDuration(vm["history-age"].as<std::string>());
  if (!age.ok()) return Status::InvalidArgument("--history-age: " + age.status().message());
  o->tracker.history_max_age = *age;
  o->tracker.max_attempts = vm["max-attempts"].as<uint32_t>();
  if (o->tracker.max_attempts < 1 || o->tracker.max_attempts > 100) {
    return Status::InvalidArgument("--max-attempts must be in 1..100");
  }
  auto timeout = ParseDuration(vm["task-timeout"].as<std::string>());
  if (!timeout.ok()) return Status::InvalidArgument("--task-timeout: " + timeout.status().message());
  if (!(*timeout == 0 || (*timeout >= 0.1 && *timeout <= 7 * 86400))) {
    return Status::InvalidArgument("--task-timeout must be 0 (never) or in [0.1s, 7d]");
  }
  o->tracker.task_timeout = *timeout;
  if (vm.count("http")) {
    auto http = ParseHostPort(vm["http"].as<std::string>());
    if (!http.ok()) return Status::InvalidArgument("--http: " + http.status().message());
    o->http = *http;
  }
  o->handshake_timeout_seconds = vm["handshake-timeout"].as<double>();
  if (!(o->handshake_timeout_seconds >= 0.1 && o->handshake_timeout_seconds <= 600)) {
    return Status::InvalidArgument("--handshake-timeout must be in [0.1, 600] seconds");
  }
  sched::SpeculatorOptions& spec = o->tracker.speculation;
  spec.slow_task_percentile = vm["speculative-slow-task"].as<double>();
  spec.slow_node_percentile = vm["speculative-slow-node"].as<double>();
  spec.cap_fraction = vm["speculative-cap"].as<double>();
  auto min_age = ParseDuration(vm["speculative-min-age"].as<std::string>());
  if (!min_age.ok()) return Status::InvalidArgument("--speculative-min-age: " + min_age.status().message());
  spec.min_age = *min_age;
  MR_RETURN_IF_ERROR(spec.Validate());
  o->max_pending_handshakes = vm["max-pending-handshakes"].as<int>();
  if (o->max_pending_handshakes < 1 || o->max_pending_handshakes > 65536) {
    return Status::InvalidArgument("--max-pending-handshakes must be in 1..65536");
  }
  return Status::Ok();
}

namespace {

// --shuffle-link-rate auto|off|RATE (worker::WorkerOptions::LinkMode).
Status ApplyShuffleLinkRate(const std::string& text, worker::WorkerOptions* o) {
  using Mode = worker::WorkerOptions::LinkMode;
  o->shuffle_link_rate = 0;
  if (text == "auto") {
    o->shuffle_link = Mode::kEstimate;
  } else if (text == "off") {
    o->shuffle_link = Mode::kOff;
  } else {
    auto rate = ParseRate(text);
    if (!rate.ok() || !(*rate > 0)) {
      return Status::InvalidArgument("--shuffle-link-rate: want auto, off or a rate such as 20MB/s, got '" + text + "'");
    }
    if (o->shuffle_bandwidth > 0) return Status::InvalidArgument("give --shuffle-bandwidth or --shuffle-link-rate RATE, not both");
    o->shuffle_link = Mode::kDeclared;
    o->shuffle_link_rate = *rate;
  }
  return Status::Ok();
}

}  // namespace

Status ApplyWorkerSlotOptions(const po::variables_map& vm, worker::WorkerOptions* o) {
  o->map_slots = vm["map-slots"].as<uint32_t>();
  o->reduce_slots = vm["reduce-slots"].as<uint32_t>();
  o->unified_slots = vm["unified-slots"].as<uint32_t>();
  if (o->map_slots > 1024 || o->reduce_slots > 1024 || o->unified_slots > 1024) {
    return Status::InvalidArgument("at most 1024 slots of each kind");
  }
  o->speed = vm["speed"].as<double>();
  if (!(o->speed > 0 && o->speed <= 1000)) return Status::InvalidArgument("--speed must be in (0, 1000]");
  auto bw = ParseRate(vm["shuffle-bandwidth"].as<std::string>());
  if (!bw.ok()) return Status::InvalidArgument("--shuffle-bandwidth: " + bw.status().message());
  o->shuffle_bandwidth = *bw;
  MR_RETURN_IF_ERROR(ApplyShuffleLinkRate(vm["shuffle-link-rate"].as<std::string>(), o));
  o->fetch_threads = vm["fetch-threads"].as<uint32_t>();
  if (o->fetch_threads < 1 || o->fetch_threads > 256) return Status::InvalidArgument("--fetch-threads must be in 1..256");
  o->fetches_per_source = vm["fetches-per-source"].as<uint32_t>();
  if (o->fetches_per_source < 1 || o->fetches_per_source > 16) {
    return Status::InvalidArgument("--fetches-per-source must be in 1..16");
  }
  const std::string receiver = vm["receiver-shares"].as<std::string>();
  if (receiver != "on" && receiver != "off") return Status::InvalidArgument("--receiver-shares must be on or off");
  o->receiver_shares = receiver == "on";
  return Status::Ok();
}

namespace {

// --straggler-offset, -rate, -tail, -seed: all four or none; --straggler-shape with pareto only.
Status ApplyStragglerOptions(const po::variables_map& vm, StragglerSpec* s) {
  static constexpr const char* kNeeded[] = {"straggler-offset", "straggler-rate", "straggler-tail", "straggler-seed"};
  std::string missing;
  int count = 0;
  for (const char* name : kNeeded) {
    if (vm.count(name)) {
      ++count;
    } else {
      missing += (missing.empty() ? "--" : ", --") + std::string(name);
    }
  }
  if (count == 0) {
    if (vm.count("straggler-shape")) return Status::InvalidArgument("--straggler-shape needs --straggler-tail pareto");
    return Status::Ok();
  }
  if (count < 4) return Status::InvalidArgument("straggler injection needs all four flags; missing " + missing);
  auto offset = ParseDuration(vm["straggler-offset"].as<std::string>());
  if (!offset.ok()) return Status::InvalidArgument("--straggler-offset: " + offset.status().message());
  MR_ASSIGN_OR_RETURN(s->tail, ParseStragglerTail(vm["straggler-tail"].as<std::string>()));
  if (vm.count("straggler-shape")) {
    if (s->tail != StragglerTail::kPareto) return Status::InvalidArgument("--straggler-shape needs --straggler-tail pareto");
    s->shape = vm["straggler-shape"].as<double>();
  }
  s->enabled = true;
  s->offset = *offset;
  s->rate = vm["straggler-rate"].as<double>();
  s->seed = vm["straggler-seed"].as<uint64_t>();
  return s->Validate();
}

}  // namespace

po::options_description WorkerStorageOptionGroup() {
  po::options_description g("worker storage");
  g.add_options()
      ("work-dir", po::value<std::string>()->required(), "local directory for map outputs and fetched partitions")
      ("host", po::value<std::string>()->default_value("127.0.0.1"), "address other workers fetch map output from")
      ("ephemeral-work-dir", "the work directory dies with the cluster and no worker is ever restarted on it "
                             "(mr run's embedded cluster): map output indexes are written without fsync")
      ("copy-local-runs", "fetch a map output held on this host (by this worker or another) through its "
                          "worker's shuffle server into a copied run file, as a remote one, instead of "
                          "linking it and merging it in place");
  return g;
}

Status ApplyWorkerStorageOptions(const po::variables_map& vm, worker::WorkerOptions* o) {
  o->work_dir = vm["work-dir"].as<std::string>();
  o->host = vm["host"].as<std::string>();
  o->sync_map_outputs = vm.count("ephemeral-work-dir") == 0;
  o->link_local_runs = vm.count("copy-local-runs") == 0;
  return Status::Ok();
}

Status ApplyWorkerTuningOptions(const po::variables_map& vm, worker::WorkerOptions* o) {
  if (vm.count("sort-buffer")) {
    auto sb = ParseBytes(vm["sort-buffer"].as<std::string>());
    if (!sb.ok()) return Status::InvalidArgument("--sort-buffer: " + sb.status().message());
    if (*sb < (64u << 10)) return Status::InvalidArgument("--sort-buffer must be at least 64KiB");
    o->sort_buffer_bytes = *sb;
  }
  o->master_timeout = vm["master-timeout"].as<double>();
  if (!(o->master_timeout > 0)) return Status::InvalidArgument("--master-timeout must be positive");
  if (vm.count("label")) {
    auto labels = WorkerLabels::Parse(vm["label"].as<std::vector<std::string>>());
    if (!labels.ok()) return Status::InvalidArgument("--label: " + labels.status().message());
    o->labels = std::move(labels).value();
  }
  return ApplyStragglerOptions(vm, &o->straggler);
}

std::vector<std::string> ExplicitArgs(const po::variables_map& vm, const po::options_description& group) {
  std::vector<std::string> args;
  for (const auto& opt : group.options()) {
    const std::string& name = opt->long_name();
    if (!vm.count(name) || vm[name].defaulted()) continue;
    for (std::string value : ValueTexts(vm[name].value())) {
      if (IsPathOption(name)) value = AbsolutePath(value);
      args.push_back("--" + name);
      args.push_back(value);
    }
  }
  return args;
}

std::string FirstExplicit(const po::variables_map& vm, const po::options_description& group) {
  for (const auto& opt : group.options()) {
    const std::string& name = opt->long_name();
    if (vm.count(name) && !vm[name].defaulted()) return name;
  }
  return "";
}

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  asio::error_code ec;
  auto addr = asio::ip::make_address(host, ec);
  return !ec && addr.is_loopback();
}

Status RequireTokenBeyondLoopback(const std::string& what, const HostPort& listen, const auth::ClusterToken& token) {
  if (token.enabled() || IsLoopbackHost(listen.host)) return Status::Ok();
  return Status::InvalidArgument(what + " listens on " + listen.ToString() +
                                 ", beyond this machine, and has no --token-file: anyone who can reach it "
                                 "could use the cluster. Make a token with `mr token new FILE`, copy it to "
                                 "every machine, and pass --token-file FILE (docs/multi-host.md)");
}

}  // namespace mr::cli
