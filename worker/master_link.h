// MasterLink: the worker's one connection to the master, and the heartbeat thread that
// drives it (docs/protocol.md). Run() registers, then heartbeats every interval (sooner
// after Wake()), reconnects when the master is lost and registers again, and gives up
// after `master_timeout` seconds without it, or at once when the master refuses us
// (version, cluster token). What a heartbeat carries and what a reply means belong to the
// Handler, called on the heartbeat thread.
//
// Threads: Run() is the heartbeat thread; Wake(), Stop() and clock() any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "client/master_client.h"
#include "common/auth.h"
#include "common/clock.h"
#include "common/status.h"
#include "common/units.h"
#include "mr.pb.h"

namespace mr::worker {

// The master's clock as seen from here: the local clock plus the offset measured at the
// last handshake. Thread-safe.
class MasterClock final : public Clock {
 public:
  double Now() const override { return SystemClock::Get()->Now() + offset_.load(); }
  void set_offset(double offset) { offset_.store(offset); }

 private:
  std::atomic<double> offset_{0};
};

class MasterLink {
 public:
  // Called on the heartbeat thread only, never with the link's lock held.
  class Handler {
   public:
    virtual ~Handler() = default;
    // Before registering again after a lost registration: the old one's work is void.
    // Returns the finished map outputs to offer the master (RegisterWorker.held_outputs).
    virtual std::vector<proto::HeldMapOutput> VoidRegistration() = 0;
    virtual void Registered(const proto::RegisterReply& reply) = 0;
    virtual void FillHeartbeat(proto::Heartbeat* hb) = 0;
    virtual void Apply(const proto::HeartbeatReply& reply) = 0;
    // Once per round, with or without a master (the task timeout runs here).
    virtual void Tick() = 0;
  };

  struct Options {
    HostPort master;
    auth::ClusterToken token;
    double master_timeout = 30;
    proto::RegisterWorker registration;  // the worker's fixed fields; held outputs are added
  };

  // REQUIRES: handler outlives the link.
  MasterLink(Options options, Handler* handler);

  // Serves until Stop() or `stopping` (polled each round) says so, or the master is gone
  // for good (its error). Heartbeat thread.
  Status Run(const std::function<bool()>& stopping);
  void Wake();  // the next heartbeat goes now
  void Stop();
  const MasterClock* clock() const { return &clock_; }

 private:
  Status Connect();
  Status HeartbeatOnce();
  void WaitFor(uint32_t ms, bool urgent_ends_wait);

  const Options options_;
  Handler* const handler_;
  MasterClock clock_;

  // Heartbeat thread only.
  std::unique_ptr<client::MasterClient> client_;
  bool registered_ = false;  // a registration whose work the next one voids
  std::vector<proto::HeldMapOutput> held_outputs_;  // offered at the next registration
  uint32_t worker_id_ = 0;
  uint32_t heartbeat_ms_ = 100;

  // State below is protected by mu_.
  std::mutex mu_;
  std::condition_variable wake_;
  bool urgent_ = false;
  bool stop_ = false;
};

}  // namespace mr::worker
