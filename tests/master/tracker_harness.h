// A JobTracker on a manual clock, driven through the master's RequestHandler the way the
// TCP session drives it: the test plays the client and the workers, sending the messages
// real ones send (handshake, registration, heartbeats with task reports) and keeping what
// each worker was told (assignments, locations, kills). No sockets, no threads, no sleeps.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/file_util.h"
#include "master/job_tracker.h"
#include "master/request_handler.h"
#include "master/state_store.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master::testing {

// What one fake worker holds, as its master told it.
struct FakeWorker {
  uint32_t id = 0;
  proto::RegisterWorker registration;
  std::unique_ptr<PeerConnection> conn;
  std::vector<proto::Assignment> maps;           // map attempts it runs now
  std::vector<proto::Assignment> placed;         // reducers placed on it (fetching)
  std::vector<proto::Assignment> reduces;        // reduce attempts it runs now
  std::vector<proto::MapOutputLocation> locations;  // every location it was sent
  std::vector<proto::KillTask> kills;            // every kill it was sent
  std::vector<proto::HeldMapOutput> deleted;     // every output it was told to delete
};

// The FIFO policy, the harness's usual scheduler (fails the test if it is not registered).
std::unique_ptr<sched::Scheduler> Fifo();

class TrackerHarness {
 public:
  // policy: a scheduler's registered name; or pass the Scheduler itself. store may be null.
  TrackerHarness(const std::string& dir, std::unique_ptr<sched::Scheduler> scheduler,
                 std::unique_ptr<StateStore> store = nullptr, TrackerOptions options = DefaultOptions());
  static TrackerOptions DefaultOptions();

  ManualClock& clock() { return clock_; }
  JobTracker& tracker() { return *tracker_; }
  RequestHandler& handler() { return *handler_; }

  // A connection through the handshake, as `role`. Fails the test if refused.
  std::unique_ptr<PeerConnection> Connect(const std::string& role);
  // Registers a worker with these slots (held: outputs it offers; labels: KEY=VALUE pairs it
  // was started with); returns its id.
  uint32_t AddWorker(uint32_t map_slots, uint32_t reduce_slots, uint32_t unified_slots = 0,
                     std::vector<proto::HeldMapOutput> held = {}, uint32_t port = 0,
                     const std::vector<std::pair<std::string, std::string>>& labels = {});
  FakeWorker& worker(uint32_t id) { return workers_.at(id); }
  // A synthetic job (no input files) with its output under dir.
  proto::JobSpec SyntheticSpec(uint32_t maps, uint32_t reduces, double slow_start = 1.0);
  uint64_t Submit(const proto::JobSpec& spec);
  proto::JobStatus Status(uint64_t job);

  // One heartbeat of w carrying reports; what the reply assigns, places, locates or kills
  // is recorded in worker(w).
  proto::HeartbeatReply Beat(uint32_t w, std::vector<proto::TaskReport> reports = {});
  // The same, from a heartbeat that already carries other fields (served bytes, fetches).
  proto::HeartbeatReply Beat(uint32_t w, std::vector<proto::TaskReport> reports, proto::Heartbeat base);
  // One heartbeat reporting every map w runs as succeeded (and forgetting them).
  proto::HeartbeatReply FinishMaps(uint32_t w);
  // Reports every reducer placed on w READY (all maps fetched), then runs and commits
  // every reduce attempt it is given, writing its output file as a worker would; returns
  // after `rounds` heartbeats.
  void RunReduces(uint32_t w, int rounds = 4);

  static proto::TaskReport MapReport(const proto::Assignment& a, proto::TaskState state);
  proto::TaskReport ReduceReport(const proto::Assignment& a, proto::TaskState state, uint32_t maps_fetched);

 private:
  std::string dir_;
  ManualClock clock_{1000};
  std::unique_ptr<JobTracker> tracker_;
  std::unique_ptr<RequestHandler> handler_;
  std::unique_ptr<PeerConnection> client_;
  std::map<uint32_t, FakeWorker> workers_;
  std::map<uint64_t, proto::JobSpec> specs_;
  int outputs_ = 0;
  uint32_t next_port_ = 40000;
};

}  // namespace mr::master::testing
