// `mr loadgen`: thousands of simulated workers against one running master, measured
// (loadgen/load_run.h, docs/master-load.md; bench/master_load.sh drives it).
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/file_util.h"
#include "common/units.h"
#include "loadgen/load_run.h"

namespace mr::cli {

int LoadgenMain(const Args& args) {
  po::options_description desc("loadgen options");
  desc.add_options()
      ("master", po::value<std::string>(), "the master's address HOST:PORT (default $MR_MASTER)")
      ("master-http", po::value<std::string>(), "its status page HOST:PORT: the master's own timings and heartbeat count")
      ("master-pid", po::value<int>()->default_value(0), "its pid: CPU time and memory from /proc")
      ("master-pid-file", po::value<std::string>(), "a file holding its pid, read at every phase (a restart changes it)")
      ("workers", po::value<int>()->default_value(1000), "simulated workers")
      ("threads", po::value<int>()->default_value(1), "io threads they share")
      ("ramp", po::value<double>()->default_value(1000), "workers started per second")
      ("map-slots", po::value<uint32_t>()->default_value(1), "map slots of each simulated worker")
      ("reduce-slots", po::value<uint32_t>()->default_value(1), "reduce slots of each")
      ("unified-slots", po::value<uint32_t>()->default_value(0), "unified slots of each")
      ("task-seconds", po::value<double>()->default_value(0.05), "how long a simulated map runs")
      ("reduce-seconds", po::value<double>()->default_value(0.05), "how long a simulated reduce runs")
      ("map-bytes", po::value<std::string>()->default_value("1MiB"), "each map's output, announced (no bytes move)")
      ("idle", po::value<double>()->default_value(3), "seconds measured with no job")
      ("jobs", po::value<int>()->default_value(10), "synthetic jobs to run (0: none)")
      ("concurrent-jobs", po::value<int>()->default_value(2), "jobs in flight at once")
      ("maps", po::value<uint32_t>()->default_value(200), "maps per job")
      ("reducers", po::value<uint32_t>()->default_value(20), "reduces per job")
      ("out", po::value<std::string>(), "directory for the jobs' outputs (required; must be reachable by the master)")
      ("restart", po::bool_switch(), "then run one longer job, print the restart cue and time the recovery from a "
                                     "master restart (the caller kills and restarts the master)")
      ("restart-maps", po::value<uint32_t>()->default_value(0), "maps of that job (0: three waves of the map slots)")
      ("restart-map-seconds", po::value<double>()->default_value(1), "how long each of its maps runs")
      ("register-timeout", po::value<double>()->default_value(120), "seconds for every worker to register")
      ("json", po::value<std::string>(), "also write the results as JSON to this file");
  po::variables_map vm;
  const char* usage =
      "mr loadgen --master HOST:PORT --out DIR [--workers N] [--jobs J --maps M --reducers R] [--restart]\n\n"
      "Drives a running master with simulated workers that speak the worker protocol but do no\n"
      "work, and prints heartbeats/s, reply and decision latencies, the master's CPU and memory,\n"
      "job throughput and the recovery from a master restart (docs/master-load.md)";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage))) return *rc;
  auto master = MasterAddress(vm);
  if (!master.ok()) return UsageError("" + master.status().message());
  loadgen::LoadOptions o;
  o.master = *master;
  if (vm.count("master-http")) {
    auto http = ParseHostPort(vm["master-http"].as<std::string>());
    if (!http.ok()) return UsageError("--master-http: " + http.status().message());
    o.probe.http = *http;
  }
  o.probe.pid = vm["master-pid"].as<int>();
  if (vm.count("master-pid-file")) o.probe.pid_file = vm["master-pid-file"].as<std::string>();
  o.workers = vm["workers"].as<int>();
  o.threads = vm["threads"].as<int>();
  o.ramp_per_second = vm["ramp"].as<double>();
  o.tasks.map_slots = vm["map-slots"].as<uint32_t>();
  o.tasks.reduce_slots = vm["reduce-slots"].as<uint32_t>();
  o.tasks.unified_slots = vm["unified-slots"].as<uint32_t>();
  o.tasks.map_seconds = vm["task-seconds"].as<double>();
  o.tasks.reduce_seconds = vm["reduce-seconds"].as<double>();
  auto bytes = ParseBytes(vm["map-bytes"].as<std::string>());
  if (!bytes.ok()) return UsageError("--map-bytes: " + bytes.status().message());
  o.tasks.map_bytes = *bytes;
  if (!(o.tasks.map_seconds >= 0 && o.tasks.map_seconds <= 3600 && o.tasks.reduce_seconds >= 0 &&
        o.tasks.reduce_seconds <= 3600)) {
    return UsageError("--task-seconds and --reduce-seconds must be in [0, 3600]");
  }
  o.idle_seconds = vm["idle"].as<double>();
  o.jobs = vm["jobs"].as<int>();
  o.concurrent_jobs = vm["concurrent-jobs"].as<int>();
  o.maps = vm["maps"].as<uint32_t>();
  o.reducers = vm["reducers"].as<uint32_t>();
  if (!vm.count("out")) return UsageError("where do the jobs' outputs go? (--out DIR)");
  o.out_dir = AbsolutePath(vm["out"].as<std::string>());
  o.restart = vm["restart"].as<bool>();
  o.restart_maps = vm["restart-maps"].as<uint32_t>();
  o.restart_map_seconds = vm["restart-map-seconds"].as<double>();
  o.register_timeout = vm["register-timeout"].as<double>();
  if (!(o.idle_seconds >= 0 && o.idle_seconds <= 3600 && o.register_timeout > 0 && o.restart_map_seconds >= 0)) {
    return UsageError("--idle, --register-timeout and --restart-map-seconds must be sensible durations");
  }
  if (vm.count("json")) o.json_path = vm["json"].as<std::string>();
  Status s = loadgen::RunLoad(o, std::cout);
  if (!s.ok()) return Fail("mr: loadgen", s, IsClusterUnavailable(s) ? kExitUnavailable : ExitCodeFor(s));
  return kExitOk;
}

}  // namespace mr::cli
