// SimTasks: the work of one simulated worker, with no work done and no networking
// (docs/master-load.md, "What a simulated worker does"). It speaks the worker's side of
// the heartbeat protocol as worker/worker.cc does:
//   - a map attempt "runs" for `map_seconds` (a synthetic job's own map_seconds when its
//     spec has one, likewise reduce_seconds and map_bytes) in a map (or unified) slot, then succeeds with
//     the counters of a map that read its split and wrote `map_bytes`, split evenly over
//     the job's reducers (TaskReport.partition_bytes): what the master announces to the
//     reducers as the map's location;
//   - a placed reducer (place_only) takes every location of its job it learns as fetched
//     at once: a FetchEvent of its partition's bytes (bytes announced, none moved, since no
//     simulated worker serves a shuffle), a FETCHING report, READY once every map is local;
//   - a reduce run holds its slot for `reduce_seconds`, then writes an empty part file at
//     the assignment's temporary output (the master commits by renaming it) and succeeds;
//   - kills end the attempt KILLED; finished jobs drop everything of the job; a void
//     registration drops running attempts and placed reducers and offers the finished map
//     outputs at the next registration, as a real worker does after a master restart.
// Times are seconds on the master's clock, passed in: a plain state machine, not
// thread-safe (one simulated worker's strand owns it).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "mr.pb.h"

namespace mr::loadgen {

struct SimTaskOptions {
  uint32_t map_slots = 1;
  uint32_t reduce_slots = 1;
  uint32_t unified_slots = 0;
  double map_seconds = 0.05;
  double reduce_seconds = 0.05;
  uint64_t map_bytes = 1 << 20;      // each map's output, announced, never written
  double progress_interval = 1.0;    // RUNNING reports at most this often per attempt
};

// What one simulated worker did, cumulative.
struct SimTaskCounts {
  uint64_t maps_started = 0, maps_succeeded = 0;
  uint64_t reduces_placed = 0, reduces_started = 0, reduces_succeeded = 0, reduces_failed = 0;
  uint64_t killed = 0, fetches = 0;
};

class SimTasks {
 public:
  explicit SimTasks(SimTaskOptions options) : options_(options) {}

  // Applies a heartbeat reply at `now`. True if the worker should heartbeat at once (a
  // reducer became READY, as the real fetch scheduler's on_urgent).
  bool Apply(const proto::HeartbeatReply& reply, double now);
  // What a registration reply says to drop (jobs no longer running, superseded outputs).
  void ApplyRegistration(const proto::RegisterReply& reply);
  // Ends the attempts whose time is up by `now` (their final reports wait in the outbox).
  // True if any ended.
  bool Finish(double now);
  // The earliest end of a running attempt, or +infinity.
  double NextEnd() const;
  // Free slots, final reports, RUNNING reports due, reducers' FETCHING/READY, fetch events.
  void Fill(proto::Heartbeat* hb, double now);
  // The registration is void: running attempts and placed reducers go (their reports with
  // them); returns the finished map outputs of jobs still held, to offer when registering.
  std::vector<proto::HeldMapOutput> Void();

  const SimTaskCounts& counts() const { return counts_; }
  size_t running() const { return running_.size(); }

 private:
  using Key = std::tuple<uint64_t, int, uint32_t, uint32_t>;  // job, kind, index, attempt
  struct Running {
    proto::TaskKind kind = proto::MAP;
    bool unified = false;
    double start = 0, end = 0, last_progress = 0;
    uint32_t reducers = 1;
    uint64_t bytes_in = 0;
    uint64_t map_bytes = 0;   // map: its output, announced
    std::string temp_output;  // reduce
  };
  struct Reducer {
    uint32_t num_maps = 0;
    uint32_t reducers = 1;
    std::set<uint32_t> fetched;
    uint64_t bytes = 0;
    bool changed = false;
  };

  void Start(const proto::Assignment& a, double now);
  void Fetch(uint64_t job, uint32_t reduce, Reducer& r, const proto::MapOutputLocation& loc, double now);
  bool Ready(const Reducer& r) const { return r.fetched.size() >= r.num_maps; }
  proto::TaskReport FinalReport(const Key& key, const Running& t, double now);
  void DropJob(uint64_t job);
  uint32_t Busy(bool reduce, bool unified) const;

  const SimTaskOptions options_;
  SimTaskCounts counts_;
  std::map<Key, Running> running_;
  std::map<std::pair<uint64_t, uint32_t>, Reducer> reducers_;                  // (job, reduce)
  std::map<uint64_t, std::map<uint32_t, proto::MapOutputLocation>> locations_;  // job -> map -> where
  std::set<std::tuple<uint64_t, uint32_t, uint32_t>> held_;                     // finished map outputs
  std::set<uint64_t> dropped_;                                                  // ended jobs
  std::vector<proto::TaskReport> outbox_;
  std::vector<proto::FetchEvent> fetch_events_;
};

}  // namespace mr::loadgen
