// `mr master` and `mr worker`.
#include <iostream>

#include <asio/ip/address.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "common/auth.h"
#include "common/log.h"
#include "master/master_server.h"
#include "scheduler/scheduler.h"
#include "worker/worker.h"

namespace mr::cli {

namespace {

bool IsLoopback(const std::string& host) {
  asio::error_code ec;
  auto addr = asio::ip::make_address(host, ec);
  return !ec && addr.is_loopback();
}

// --token-file and --handshake-timeout; warns about a listener beyond loopback without token.
Status ApplyTrustOptions(const po::variables_map& vm, master::MasterOptions* o) {
  MR_ASSIGN_OR_RETURN(o->token, TokenOption(vm));
  o->handshake_timeout_seconds = vm["handshake-timeout"].as<double>();
  if (!(o->handshake_timeout_seconds >= 0.1 && o->handshake_timeout_seconds <= 600)) {
    return Status::InvalidArgument("--handshake-timeout must be in [0.1, 600] seconds");
  }
  if (!IsLoopback(o->listen.host) && !o->token.enabled()) {
    std::cerr << "mr: warning: listening on " << o->listen.ToString()
              << " without --token-file: anyone who can reach it can run jobs on this cluster\n";
  }
  return Status::Ok();
}

}  // namespace

int MasterMain(int argc, char** argv) {
  po::options_description desc("master options");
  desc.add_options()
      ("listen", po::value<std::string>()->default_value("127.0.0.1:7070"), "address to listen on (port 0 = any free port)")
      ("state", po::value<std::string>()->required(), "state directory (traces, job store)")
      ("policy", po::value<std::string>()->default_value("fifo"), "scheduling policy")
      ("pools", po::value<std::string>(), "fair scheduler pools file")
      ("klps-k", po::value<int>()->default_value(100), "k of the k-LPS policy")
      ("heartbeat-ms", po::value<uint32_t>()->default_value(20), "worker heartbeat interval (a finished task heartbeats at once)")
      ("max-heartbeat-rate", po::value<uint32_t>()->default_value(500),
       "idle heartbeats per second for the whole cluster: each worker's interval is at least workers/rate")
      ("history-jobs", po::value<size_t>()->default_value(1000), "finished jobs kept browsable (status, page, traces)")
      ("worker-timeout", po::value<double>()->default_value(10), "seconds without a heartbeat before a worker is lost")
      ("max-attempts", po::value<uint32_t>()->default_value(4), "failed attempts of a task before its job fails")
      ("addr-file", po::value<std::string>(), "write the bound host:port to this file")
      ("http", po::value<std::string>(), "serve the status page and JSON API on this address, e.g. 127.0.0.1:7080")
      ("token-file", po::value<std::string>(), "cluster token: peers must prove they hold the same secret")
      ("handshake-timeout", po::value<double>()->default_value(10), "seconds a peer has to complete the handshake");
  po::variables_map vm;
  if (auto rc = ParseOrExit(argc, argv, "mr master --state DIR [options]", desc, nullptr, vm)) return *rc;
  master::MasterOptions o;
  auto listen = ParseHostPort(vm["listen"].as<std::string>());
  if (!listen.ok()) return UsageError(listen.status().message());
  o.listen = *listen;
  o.state_dir = vm["state"].as<std::string>();
  o.policy = vm["policy"].as<std::string>();
  if (vm.count("pools")) o.scheduler.pools_file = vm["pools"].as<std::string>();
  o.scheduler.klps_k = vm["klps-k"].as<int>();
  if (o.scheduler.klps_k < 1) return UsageError("--klps-k must be at least 1");
  o.heartbeat_ms = vm["heartbeat-ms"].as<uint32_t>();
  if (o.heartbeat_ms < 1 || o.heartbeat_ms > 60000) return UsageError("--heartbeat-ms must be in 1..60000");
  o.max_heartbeats_per_second = vm["max-heartbeat-rate"].as<uint32_t>();
  if (o.max_heartbeats_per_second < 1 || o.max_heartbeats_per_second > 1000000) {
    return UsageError("--max-heartbeat-rate must be in 1..1000000");
  }
  if (vm.count("addr-file")) o.addr_file = vm["addr-file"].as<std::string>();
  o.tracker.worker_timeout = vm["worker-timeout"].as<double>();
  if (!(o.tracker.worker_timeout >= 0.2 && o.tracker.worker_timeout <= 3600)) {
    return UsageError("--worker-timeout must be in [0.2, 3600] seconds");
  }
  o.tracker.history_jobs = vm["history-jobs"].as<size_t>();
  if (o.tracker.history_jobs < 1) return UsageError("--history-jobs must be at least 1");
  o.tracker.max_attempts = vm["max-attempts"].as<uint32_t>();
  if (o.tracker.max_attempts < 1 || o.tracker.max_attempts > 100) return UsageError("--max-attempts must be in 1..100");
  if (vm.count("http")) {
    auto http = ParseHostPort(vm["http"].as<std::string>());
    if (!http.ok()) return UsageError("--http: " + http.status().message());
    o.http = *http;
  }
  if (Status s = ApplyTrustOptions(vm, &o); !s.ok()) return UsageError(s.message());
  InitLogging("master");
  auto server = master::MasterServer::Create(o);
  if (!server.ok()) return UsageError(server.status().message());
  (*server)->Run();
  return kExitOk;
}

int WorkerMain(int argc, char** argv) {
  po::options_description desc("worker options");
  desc.add_options()
      ("master", po::value<std::string>(), "master address HOST:PORT (default $MR_MASTER)")
      ("work-dir", po::value<std::string>()->required(), "local directory for map outputs and fetched partitions")
      ("map-slots", po::value<uint32_t>()->default_value(1), "map slots")
      ("reduce-slots", po::value<uint32_t>()->default_value(1), "reduce slots")
      ("unified-slots", po::value<uint32_t>()->default_value(0), "slots that run either a map or a reduce")
      ("speed", po::value<double>()->default_value(1.0), "relative speed (synthetic work scales by 1/speed)")
      ("shuffle-bandwidth", po::value<std::string>()->default_value("0"), "shuffle egress cap, e.g. 50MB/s (0 = unlimited)")
      ("host", po::value<std::string>()->default_value("127.0.0.1"), "address other workers fetch map output from")
      ("fetch-threads", po::value<uint32_t>()->default_value(32), "max parallel shuffle fetches (one per reducer and source)")
      ("sort-buffer", po::value<std::string>(), "map sort buffer size (overrides the job's)")
      ("master-timeout", po::value<double>()->default_value(30), "exit after this many seconds without the master")
      ("token-file", po::value<std::string>(), "cluster token shared with the master and the other workers");
  po::variables_map vm;
  if (auto rc = ParseOrExit(argc, argv, "mr worker --master ADDR --work-dir DIR [options]", desc, nullptr, vm)) return *rc;
  worker::WorkerOptions o;
  auto master = MasterAddress(vm);
  if (!master.ok()) return UsageError(master.status().message());
  o.master = *master;
  o.work_dir = vm["work-dir"].as<std::string>();
  o.map_slots = vm["map-slots"].as<uint32_t>();
  o.reduce_slots = vm["reduce-slots"].as<uint32_t>();
  o.unified_slots = vm["unified-slots"].as<uint32_t>();
  if (o.map_slots > 1024 || o.reduce_slots > 1024 || o.unified_slots > 1024) return UsageError("at most 1024 slots of each kind");
  o.speed = vm["speed"].as<double>();
  auto bw = ParseRate(vm["shuffle-bandwidth"].as<std::string>());
  if (!bw.ok()) return UsageError("--shuffle-bandwidth: " + bw.status().message());
  o.shuffle_bandwidth = *bw;
  o.host = vm["host"].as<std::string>();
  o.fetch_threads = vm["fetch-threads"].as<uint32_t>();
  if (o.fetch_threads < 1 || o.fetch_threads > 256) return UsageError("--fetch-threads must be in 1..256");
  if (vm.count("sort-buffer")) {
    auto sb = ParseBytes(vm["sort-buffer"].as<std::string>());
    if (!sb.ok()) return UsageError("--sort-buffer: " + sb.status().message());
    o.sort_buffer_bytes = *sb;
  }
  o.master_timeout = vm["master-timeout"].as<double>();
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());
  o.token = *token;
  InitLogging("worker");
  auto w = worker::Worker::Create(o);
  if (!w.ok()) return UsageError(w.status().message());
  Status s = (*w)->Run();
  if (s.code() == StatusCode::kPermissionDenied) return UsageError(s.message());
  if (!s.ok()) {
    MR_LOG_ERROR("{}", s.ToString());
    return kExitJobFailed;
  }
  return kExitOk;
}

}  // namespace mr::cli
