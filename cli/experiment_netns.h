// The hosts of an experiment whose cluster is `kind: netns` (docs/experiments.md,
// docs/multi-host.md): scripts/netns-cluster.sh makes them (network namespaces joined by
// a bridge, every link shaped with tc tbf), the experiment cluster (cli/experiment_cluster.cc)
// runs the master and one worker per host in them, and removes them when the run ends.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::cli {

struct NetnsHosts {
  std::string run;        // the script's run name (down RUN removes everything)
  std::string master_ns, master_ip;
  std::string client_ns;  // where the experiment's own connections to the master come from
  std::vector<std::string> worker_ns, worker_ips;
  std::string token_file;  // a fresh cluster token: the daemons listen beyond loopback
  // The guard (NetnsUp): a child in a session of its own that runs the script's `down`
  // (removing every run whose owner is gone) once this process closes guard_fd or ends,
  // however it ends (SIGTERM, SIGINT, a crash, kill -9), also in the middle of `up`.
  // Owned by whoever holds the struct: move it, do not copy it.
  int guard_fd = -1;
  int guard_pid = -1;
};

// The script: $MR_NETNS_SCRIPT, else scripts/netns-cluster.sh in a parent directory of
// this binary (BUILD/cli/mr -> SOURCE/scripts when BUILD is inside SOURCE), else
// ./scripts/netns-cluster.sh. NotFound naming the places tried.
Result<std::string> NetnsScript();

// tc's rate for `bytes_per_second` ("160000000bit" for 20 MB/s).
std::string TcRate(double bytes_per_second);

// Makes `workers` worker hosts plus the master's and the client's, every link shaped to
// link_rate (bytes/s) both ways; host directories and the token under dir. Needs root;
// errors carry the script's own message. The hosts are removed when NetnsDown is called or
// when this process ends, whichever comes first (the guard above).
Result<NetnsHosts> NetnsUp(int workers, double link_rate, const std::string& dir);

// Removes the hosts (killing anything still running in them) and waits until they are gone.
// Best effort.
// Stops the guard. Idempotent.
void NetnsDown(NetnsHosts* hosts);

}  // namespace mr::cli
