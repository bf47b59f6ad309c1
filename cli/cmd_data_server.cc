// `mr data-server`: serves the job inputs under exported directories of this host to the
// master and the workers of a cluster on other hosts (docs/multi-host.md), and `mr token new`.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/daemon_options.h"
#include "cli/options.h"
#include "common/auth.h"
#include "common/file_util.h"
#include "common/log.h"
#include "common/units.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::cli {

namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }

}  // namespace

int DataServerMain(const Args& args) {
  po::options_description desc("mr data-server");
  desc.add_options()
      ("export", po::value<std::vector<std::string>>(),
       "a directory whose files (and subdirectories') jobs may read as inputs; repeatable")
      ("export-output", po::value<std::vector<std::string>>(),
       "a directory (made if missing) under which jobs naming this server with --output-server may write their "
       "output directories; repeatable")
      ("listen", po::value<std::string>()->default_value("127.0.0.1:7072"), "address to listen on (port 0 = any free port)")
      ("addr-file", po::value<std::string>(), "write the bound host:port to this file")
      ("token-file", po::value<std::string>(), "cluster token: the master and workers must hold the same secret")
      ("bandwidth", po::value<std::string>()->default_value("0"), "bytes/s for all readers together, e.g. 20MB; 0 = unlimited");
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr data-server --export DIR [--export-output DIR] [--listen HOST:PORT] [options]"))) {
    return *rc;
  }
  if (!vm.count("export") && !vm.count("export-output")) {
    return UsageError("give --export DIR (inputs) or --export-output DIR (outputs), or both");
  }
  auto listen = ParseHostPort(vm["listen"].as<std::string>());
  if (!listen.ok()) return UsageError("--listen: " + listen.status().message());
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());
  if (Status s = RequireTokenBeyondLoopback("mr data-server", *listen, *token); !s.ok()) return UsageError(s.message());
  auto bandwidth = ParseBytes(vm["bandwidth"].as<std::string>());
  if (!bandwidth.ok()) return UsageError("--bandwidth: " + bandwidth.status().message());
  shuffle::ShuffleServerOptions o;
  o.host = listen->host;
  o.port = listen->port;
  o.token = *token;
  o.bandwidth = static_cast<double>(*bandwidth);
  if (vm.count("export")) o.input_roots = vm["export"].as<std::vector<std::string>>();
  if (vm.count("export-output")) o.output_roots = vm["export-output"].as<std::vector<std::string>>();
  for (const std::string& dir : o.output_roots) {
    if (Status s = MakeDirs(dir); !s.ok()) return UsageError("--export-output: " + s.message());
  }
  InitLogging("data-server");
  auto server = shuffle::ShuffleServer::Start(o);
  if (!server.ok()) return UsageError(server.status().message());
  const std::string bound = listen->host + ":" + std::to_string((*server)->port());
  if (vm.count("addr-file")) {
    if (Status s = WriteFileAtomically(vm["addr-file"].as<std::string>(), bound + "\n"); !s.ok()) {
      return UsageError(s.message());
    }
  }
  std::cout << "mr data-server: serving " << o.input_roots.size() << " exported director"
            << (o.input_roots.size() == 1 ? "y" : "ies");
  if (!o.output_roots.empty()) {
    std::cout << " and " << o.output_roots.size() << " output director" << (o.output_roots.size() == 1 ? "y" : "ies");
  }
  std::cout << " on " << bound
            << (token->enabled() ? " (cluster token required)" : " (no token: loopback only)") << std::endl;
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  (*server)->Stop();
  return kExitOk;
}

int TokenNewMain(const Args& args) {
  po::options_description desc("mr token new");
  desc.add_options()("file", po::value<std::string>()->required(), "where to write the token (mode 0600; must not exist)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr token new FILE", &pos))) return *rc;
  const std::string path = vm["file"].as<std::string>();
  if (PathExists(path)) return UsageError("token file " + path + " already exists (a token is replaced on purpose: remove it first)");
  auto text = auth::NewTokenText();
  if (!text.ok()) return UsageError(text.status().message());
  const mode_t old = ::umask(077);
  Status s = WriteFileAtomically(path, *text);
  ::umask(old);
  if (!s.ok()) return UsageError(s.message());
  std::cout << "wrote a new cluster token to " << path
            << "; copy it (mode 0600) to every machine of the cluster and pass --token-file\n";
  return kExitOk;
}

}  // namespace mr::cli
