// SimWorker: one simulated worker on an Asio io_context: the master link of a real worker
// (worker/master_link.cc) without a thread of its own. It connects, says Hello as a
// "worker", registers (with the finished map outputs it holds, after a lost registration),
// then heartbeats every interval the master names, and at once when an attempt ends or a
// reducer becomes READY; what a heartbeat carries and a reply means is SimTasks'. A lost
// connection voids the registration and reconnects at once, then every 200 ms, as a real
// worker does, until Stop(). Every reply's round trip goes to the shared LoadCounters.
//
// Threads: all methods but Stop() on the io_context's one thread; Stop() posts there.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>

#include "common/log_histogram.h"
#include "common/status.h"
#include "loadgen/sim_tasks.h"
#include "mr.pb.h"

namespace mr::loadgen {

// What the simulated workers of one io thread saw, cumulative; guarded by `mu`.
struct LoadCounters {
  uint64_t heartbeats = 0;           // replies received
  uint64_t registrations = 0;        // every registration (first and later)
  uint64_t first_registrations = 0;  // workers registered at least once
  uint64_t registered_now = 0;       // workers whose registration stands
  uint64_t losses = 0;               // connections lost after registering
  uint64_t connect_failures = 0;     // connects or handshakes that failed (retried)
  uint64_t assignments = 0;
  double last_registration = 0;      // MonotonicSeconds()
  // The first assignment received after `mark` (MonotonicSeconds(); set by the driver).
  double mark = std::numeric_limits<double>::infinity();
  double first_assignment_after_mark = std::numeric_limits<double>::infinity();
  SimTaskCounts tasks;
  LogHistogram reply_us;             // heartbeat sent -> reply read, as the worker sees it
  std::string fatal;                 // a refusal no retry can help (version, token)
};

struct SharedCounters {
  std::mutex mu;
  LoadCounters c;
};

struct SimWorkerOptions {
  asio::ip::tcp::endpoint master;
  SimTaskOptions tasks;
  std::string host = "127.0.0.1";
  uint32_t shuffle_port = 1;   // announced; nothing listens (no simulated worker fetches)
  std::string name;            // the `name` label, as `mr cluster start` gives its workers
  std::string work_dir;        // announced only
};

class SimWorker : public std::enable_shared_from_this<SimWorker> {
 public:
  SimWorker(asio::io_context& io, SimWorkerOptions options, SharedCounters* counters);
  void Start(double delay_seconds);
  void Stop();  // any thread

 private:
  using Callback = std::function<void(Result<proto::Envelope>)>;
  void Connect();
  void Register();
  void Heartbeat();
  void Arm(bool now);
  void OnTimer();
  void Lost(const Status& why);
  void Retry(double seconds);
  // One request, one reply frame: write, then read the 4-byte length and the body.
  void Call(const proto::Envelope& request, Callback done);
  double MasterNow() const;
  void PublishTaskCounts();

  asio::io_context& io_;
  const SimWorkerOptions options_;
  SharedCounters* const counters_;
  asio::ip::tcp::socket socket_;
  asio::steady_timer timer_;
  SimTasks tasks_;
  SimTaskCounts published_;
  bool stopped_ = false;
  bool in_call_ = false;
  bool registered_ = false;
  bool ever_registered_ = false;
  uint32_t worker_id_ = 0;
  uint32_t heartbeat_ms_ = 100;
  double clock_offset_ = 0;
  double next_heartbeat_ = 0;  // MonotonicSeconds()
  uint64_t generation_ = 0;    // a connection's callbacks after it was dropped do nothing
  std::vector<proto::HeldMapOutput> held_;
  std::string out_;
  unsigned char header_[4] = {};
  std::string body_;
};

}  // namespace mr::loadgen
