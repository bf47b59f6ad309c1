// Master-side validation of every message a peer sends, before the JobTracker sees it:
// counts of repeated fields, string lengths and encodings, numbers, indices and attempt ids
// are range-checked, and a PeerGate keeps each connection to what it may say (a client
// never heartbeats; a connection speaks only for the worker it registered). A failed check
// is a Status the master sends back before closing the connection. Pure functions over
// protobufs: thread-safe; PeerGate is thread-compatible (one per connection).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "jobs/job.h"
#include "jobs/job_request.h"
#include "mr.pb.h"

namespace mr::master {

// Largest frame the master reads on its control channel once a peer is authenticated, and
// before (Hello and AuthResponse are tiny: an unauthenticated peer cannot make the master
// allocate more than this).
inline constexpr uint32_t kMaxControlFrameBytes = 4u << 20;
inline constexpr uint32_t kMaxHandshakeFrameBytes = 64u << 10;

// The same limits JobTracker applies in its own checks (job_lifecycle.cc, worker_registry.cc).
inline constexpr uint32_t kMaxMapTasks = jobs::kMaxNumMaps;
inline constexpr uint32_t kMaxReduceTasks = jobs::kMaxReducers;
inline constexpr uint32_t kMaxWorkerSlots = 1024;

// The task counts of a job the master knows.
struct JobShape {
  uint32_t maps = 0;
  uint32_t reduces = 0;
};
// Returns the shape of job_id, or nullopt if the master has no such job (reports about
// unknown jobs are harmless: the tracker ignores them).
using JobShapeLookup = std::function<std::optional<JobShape>(uint64_t job_id)>;
class JobTracker;
// A lookup answered by tracker. REQUIRES: used on the tracker's thread, while it lives.
JobShapeLookup JobShapesOf(const JobTracker& tracker);

// True if s is well-formed UTF-8 (what the JSON traces require).
bool IsValidUtf8(std::string_view s);

// Errors: ProtocolError (bad nonce), InvalidArgument (unknown role, long software string).
// The protocol version is checked by the caller, which answers it with a HelloReply.
Status CheckHello(const proto::Hello& hello);
// Errors: InvalidArgument naming the field.
Status CheckRegisterWorker(const proto::RegisterWorker& r);
// The wire's limits (text lengths and encodings, counts, absolute normal paths), then the
// checks the client shares (jobs::ValidateJobSpec: NotFound for an unknown job, else
// InvalidArgument naming the field in words, "split size must be at least ...").
Status CheckJobSpec(const proto::JobSpec& spec);
Status CheckTaskReport(const proto::TaskReport& r, const std::optional<JobShape>& job);
Status CheckFetchEvent(const proto::FetchEvent& f, const std::optional<JobShape>& job);
// registration: what this connection's worker registered with (slot counts bound the
// free-slot fields).
Status CheckHeartbeat(const proto::Heartbeat& hb, const proto::RegisterWorker& registration,
                      const JobShapeLookup& lookup);

// What one authenticated connection may say, given what it said before.
class PeerGate {
 public:
  explicit PeerGate(std::string role) : role_(std::move(role)) {}
  // Checks a request before it is handled. Errors: PermissionDenied (a client registering
  // or heartbeating, a heartbeat for another worker id), ProtocolError (a second
  // registration, a heartbeat before registering, a message that is not a request),
  // InvalidArgument (a field out of range, a kill_job or wait_job without a job id).
  Status Check(const proto::Envelope& in, const JobShapeLookup& lookup) const;
  // Records the registration the tracker accepted for this connection.
  void Registered(uint32_t worker_id, const proto::RegisterWorker& r);
  uint32_t worker_id() const { return worker_id_; }

 private:
  std::string role_;
  uint32_t worker_id_ = 0;  // 0: this connection has not registered a worker
  proto::RegisterWorker registration_;
};

}  // namespace mr::master
