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
};

// The script: $MR_NETNS_SCRIPT, else scripts/netns-cluster.sh in a parent directory of
// this binary (BUILD/cli/mr -> SOURCE/scripts when BUILD is inside SOURCE), else
// ./scripts/netns-cluster.sh. NotFound naming the places tried.
Result<std::string> NetnsScript();

// tc's rate for `bytes_per_second` ("160000000bit" for 20 MB/s).
std::string TcRate(double bytes_per_second);

// Makes `workers` worker hosts plus the master's and the client's, every link shaped to
// link_rate (bytes/s) both ways; host directories and the token under dir. Needs root;
// errors carry the script's own message.
Result<NetnsHosts> NetnsUp(int workers, double link_rate, const std::string& dir);

// Removes the hosts (killing anything still running in them). Best effort.
void NetnsDown(const NetnsHosts& hosts);

}  // namespace mr::cli
