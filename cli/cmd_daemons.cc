// `mr master` and `mr worker`.
#include <malloc.h>

#include <iostream>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/local_cluster.h"
#include "cli/options.h"
#include "common/auth.h"
#include "common/file_util.h"
#include "common/log.h"
#include "master/master_server.h"
#include "scheduler/scheduler.h"
#include "worker/worker.h"

namespace mr::cli {

namespace {

// Allocations of at least this size are mapped on their own (WorkerMain).
constexpr int kWorkerMmapThreshold = 4 << 20;

// --token-file; a listener beyond loopback without a token is refused (docs/multi-host.md).
Status ApplyTrustOptions(const po::variables_map& vm, master::MasterOptions* o) {
  MR_ASSIGN_OR_RETURN(o->token, TokenOption(vm));
  MR_RETURN_IF_ERROR(RequireTokenBeyondLoopback("mr master", o->listen, o->token));
  if (o->http && !IsLoopbackHost(o->http->host)) {
    std::cerr << "mr: note: the status page on " << o->http->ToString()
              << " is read-only and unauthenticated: whoever reaches it sees job names, paths, counters and workers\n";
  }
  return Status::Ok();
}

}  // namespace

int MasterMain(const Args& args) {
  po::options_description desc("mr master");
  desc.add_options()
      ("listen", po::value<std::string>()->default_value("127.0.0.1:7070"), "address to listen on (port 0 = any free port)")
      ("state", po::value<std::string>()->required(), "state directory (traces, job store)")
      ("addr-file", po::value<std::string>(), "write the bound host:port to this file")
      ("http-addr-file", po::value<std::string>(), "with --http: write the status page's bound host:port to this file")
      ("token-file", po::value<std::string>(), "cluster token: peers must prove they hold the same secret")
      ("state-in-memory", "keep the job store in memory (no file, no fsync): nothing survives the master, so a "
                          "restart recovers nothing (what `mr run`'s embedded cluster uses)");
  desc.add(SchedulerOptionGroup()).add(MasterOptionGroup());
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr master --state DIR [options]"))) return *rc;
  master::MasterOptions o;
  auto listen = ParseHostPort(vm["listen"].as<std::string>());
  if (!listen.ok()) return UsageError(listen.status().message());
  o.listen = *listen;
  o.state_dir = vm["state"].as<std::string>();
  o.state_in_memory = vm.count("state-in-memory") > 0;
  if (vm.count("addr-file")) o.addr_file = vm["addr-file"].as<std::string>();
  if (vm.count("http-addr-file")) o.http_addr_file = vm["http-addr-file"].as<std::string>();
  if (Status s = ApplySchedulerOptions(vm, &o); !s.ok()) return UsageError(s.message());
  if (Status s = ApplyMasterOptions(vm, &o); !s.ok()) return UsageError(s.message());
  if (Status s = ApplyTrustOptions(vm, &o); !s.ok()) return UsageError(s.message());
  InitLogging("master");
  auto server = master::MasterServer::Create(o);
  if (!server.ok()) return UsageError(server.status().message());
  (*server)->Run();
  return kExitOk;
}

int WorkerMain(const Args& args) {
  po::options_description desc("mr worker");
  desc.add_options()
      ("master", po::value<std::string>(), "master address HOST:PORT (default $MR_MASTER)")
      ("master-addr-file", po::value<std::string>(),
       "instead of --master: wait up to 30 s for the master to write its address to this file "
       "(mr master --addr-file), so a worker can start beside its master")
      ("token-file", po::value<std::string>(), "cluster token shared with the master and the other workers");
  desc.add(WorkerStorageOptionGroup()).add(WorkerSlotOptionGroup()).add(WorkerTuningOptionGroup());
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr worker --master ADDR --work-dir DIR [options]"))) return *rc;
  worker::WorkerOptions o;
  if (vm.count("master-addr-file")) {
    if (vm.count("master")) return UsageError("give --master or --master-addr-file, not both");
    const std::string file = vm["master-addr-file"].as<std::string>();
    if (!WaitForPath(file, 30)) {
      return ClientError(Status::Unavailable("no master address in " + file + " after 30 s"));
    }
    auto text = ReadFileToString(file);
    if (!text.ok()) return UsageError(text.status().message());
    while (!text->empty() && (text->back() == '\n' || text->back() == ' ')) text->pop_back();
    auto master = ParseHostPort(*text);
    if (!master.ok()) return UsageError(file + ": " + master.status().message());
    o.master = *master;
  } else {
    auto master = MasterAddress(vm);
    if (!master.ok()) return UsageError(master.status().message());
    o.master = *master;
  }
  if (Status s = ApplyWorkerStorageOptions(vm, &o); !s.ok()) return UsageError(s.message());
  if (Status s = ApplyWorkerSlotOptions(vm, &o); !s.ok()) return UsageError(s.message());
  if (Status s = ApplyWorkerTuningOptions(vm, &o); !s.ok()) return UsageError(s.message());
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());
  o.token = *token;
  if (Status s = RequireTokenBeyondLoopback("mr worker", HostPort{o.host, 0}, o.token); !s.ok()) {
    return UsageError(s.message());
  }
  InitLogging("worker");
  // Large buffers (a map's word table, a split's read buffer, a merge's output block) come
  // from mmap and go back to the system when freed. Left to glibc, the mmap threshold rises
  // to 32 MiB after the first such free, later ones come from the task threads' arenas, and
  // an arena keeps freed memory: a worker's RSS then grew with the number of maps it ran
  // (docs/performance.md, "Peak RSS").
  mallopt(M_MMAP_THRESHOLD, kWorkerMmapThreshold);
  auto w = worker::Worker::Create(o);
  if (!w.ok()) return UsageError(w.status().message());
  Status s = (*w)->Run();
  // Refused (cluster token, protocol version) or the master gone for good: exit 3.
  if (s.code() == StatusCode::kPermissionDenied) return ClientError(s);
  if (!s.ok()) {
    MR_LOG_ERROR("{}", s.ToString());
    return IsClusterUnavailable(s) ? kExitUnavailable : kExitJobFailed;
  }
  return kExitOk;
}

}  // namespace mr::cli
