// MasterServer: the `mr master` daemon. Accepts worker and client connections
// over TCP (Asio), checks the handshake, and serves every request on one thread
// that owns the JobTracker, so master state needs no locks.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/auth.h"
#include "common/status.h"
#include "common/units.h"
#include "master/job_tracker.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/scheduler.h"

namespace mr::master {

struct MasterOptions {
  HostPort listen{"127.0.0.1", 7070};
  std::string state_dir;        // traces, later the RocksDB store
  // The job store in memory (StateStore::Medium::kMemory): no file and no fsync, nothing
  // to recover after a restart. Only for a master nothing ever restarts (`mr run`'s
  // embedded cluster); traces still go to state_dir.
  bool state_in_memory = false;
  std::string policy{sched::DefaultPolicy()};
  sched::PolicyOptions scheduler;  // the policy's options (scheduler/policy_table.h)
  sched::PlacementConfig placement;  // --placement and its parameters (scheduler/map_placement.h)
  std::string addr_file;        // if set, the bound host:port is written here
  std::string http_addr_file;   // if set (and http is), the status page's bound host:port is written here
  std::optional<HostPort> http; // status page address
  uint32_t heartbeat_ms = 20;
  // Idle heartbeats the whole cluster may send per second: with many workers each one's
  // interval grows to workers / rate (Hadoop's heartbeats-in-second), so the master's
  // load stays flat while a new job still meets some worker's heartbeat just as soon.
  uint32_t max_heartbeats_per_second = 500;
  TrackerOptions tracker;
  auth::ClusterToken token;            // none: every peer is accepted (docs/reliability.md)
  double handshake_timeout_seconds = 10;  // a peer not authenticated by then is dropped
  // Connections not yet through the handshake; beyond this the oldest one silent for a
  // second is closed to admit a new one, and with none such accepting pauses
  // (docs/reliability.md, "Admission"). Ready peers do not count.
  int max_pending_handshakes = 256;
};

class MasterServer {
 public:
  // Binds the listening socket (so port 0 resolves to a real port) and creates
  // the scheduler. Errors: NotFound (unknown policy), NetworkError (bind).
  static Result<std::unique_ptr<MasterServer>> Create(const MasterOptions& options);
  virtual ~MasterServer() = default;
  virtual HostPort address() const = 0;
  // The status page's address, if it was asked for.
  virtual std::optional<HostPort> http_address() const = 0;
  // Serves until Stop() or SIGINT/SIGTERM.
  virtual void Run() = 0;
  // Thread-safe.
  virtual void Stop() = 0;
};

}  // namespace mr::master
