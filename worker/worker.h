// Worker: the `mr worker` daemon. Registers with the master, heartbeats task
// statuses up and receives assignments, map-output locations and shuffle shares
// down; runs map and reduce attempts in slot threads; fetches each placed
// reducer's partitions as maps finish (no slot held while fetching); serves its
// own map outputs through a ShuffleServer. A finished task triggers an immediate
// heartbeat. Built from rooms split by thread role (docs/architecture.md, "The worker's
// rooms"): worker/master_link.h, worker/slot_runner.h, shuffle/net/fetch_scheduler.h.
#pragma once

#include <memory>
#include <string>

#include "common/auth.h"
#include "common/status.h"
#include "common/straggler.h"
#include "common/units.h"
#include "common/worker_labels.h"

namespace mr::worker {

struct WorkerOptions {
  HostPort master;
  std::string host = "127.0.0.1";   // address other workers fetch from
  uint32_t map_slots = 1;
  uint32_t reduce_slots = 1;
  uint32_t unified_slots = 0;
  double speed = 1.0;               // map work: docs/architecture.md, "Slow and straggling workers"
  StragglerSpec straggler;          // a delay injected into every map attempt; off by default
  WorkerLabels labels;              // --label KEY=VALUE: sent with every registration
  double shuffle_bandwidth = 0;     // bytes/s, 0 = unlimited
  // The host's link when shuffle_bandwidth is 0 (docs/multi-host.md, "Shares on the wire
  // without a cap"): kEstimate paces the jobs' shares at an estimate of the link made while
  // backlogged; kDeclared at shuffle_link_rate's payload (ShuffleCapacityOfLink); kOff lets
  // TCP divide the link. REQUIRES: shuffle_link_rate > 0 iff kDeclared, and then
  // shuffle_bandwidth == 0.
  enum class LinkMode { kEstimate, kDeclared, kOff };
  LinkMode shuffle_link = LinkMode::kEstimate;
  double shuffle_link_rate = 0;     // bytes/s on the wire (headers included)
  std::string work_dir;
  uint32_t fetch_threads = 32;       // max concurrent fetches (threads start on demand)
  uint32_t fetches_per_source = 2;   // in flight per reducer and source worker (FetchScheduler)
  bool receiver_shares = true;       // share-0 fetches wait for this host's link (FetchScheduler)
  uint64_t sort_buffer_bytes = 0;   // 0 = the job's setting
  // False: work_dir dies with the cluster and the worker is never restarted on it (`mr run`'s
  // embedded cluster, `mr worker --ephemeral-work-dir`): map output indexes are renamed into
  // place without an fsync. True (a real worker): fsynced, so a worker restarted after a
  // machine crash offers only outputs whose index survived whole.
  bool sync_map_outputs = true;
  // True: a reducer's run of a map output held on this host is that output's data file,
  // linked, merged in place (shuffle/net/local_fetch.h): this worker's own directly, another
  // worker's once its shuffle server has answered the fetch (FetchTarget::link). False (`mr
  // worker --copy-local-runs`): fetched through the holder's shuffle server into a copy, as a
  // remote one is (the behaviour before; for byte counts against it and for tests). A worker
  // with a software cap (shuffle_bandwidth > 0) always fetches: the cap stands for a network
  // every shuffled byte crosses, and the shuffle experiments and their simulator count every
  // byte against it (docs/shuffle.md).
  bool link_local_runs = true;
  double master_timeout = 30;       // give up after this long without the master
  auth::ClusterToken token;         // cluster token for the master and the shuffle; none = off
};

// The shuffle capacity a declared link gives: its payload (a full 1500-byte Ethernet frame
// carries 1448 bytes of TCP payload with timestamps) times the link estimator's cruise gain,
// so that mrlab's limiter, not the link's queue, is the bottleneck that divides it.
double ShuffleCapacityOfLink(double link_rate);

// Whether a reducer's run of a map output held on this host is linked in place rather than
// copied: link_local_runs, and no software cap (see WorkerOptions::link_local_runs).
bool LinksLocalRuns(const WorkerOptions& options);

class Worker {
 public:
  static Result<std::unique_ptr<Worker>> Create(const WorkerOptions& options);
  virtual ~Worker() = default;
  // Serves until Stop(), SIGTERM/SIGINT, or the master is gone for good.
  virtual Status Run() = 0;
  virtual void Stop() = 0;  // thread-safe
};

}  // namespace mr::worker
