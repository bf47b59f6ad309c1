// FetchScheduler: the reducer side of the shuffle on one worker (docs/shuffle.md, "Reducer
// side"). In: reducer placements (Place), map-output locations (AddLocation) and the
// policy's per-job shares (SetShares). Out: the fetched runs, stored at ReducerRunPath with
// their CRC32C (RunCrcs, for the reduce task), one FetchEvent per fetch tried and each
// placed reducer's progress (TakeOutbox, for the heartbeat): the bytes of its finished
// fetches and, apart, those received so far by its fetches still in flight.
//
// Fetch threads start on demand, up to max_threads, and call `fetch` outside the lock. A
// reducer has at most per_source fetches in flight from one source worker (2 by default:
// the next map output is requested while the current one arrives, so the link does not
// idle between them); the highest-share job's fetch starts first (earliest queued among
// equals); share-0 fetches hold at most half of the threads. The receiver's own link
// honours the shares too (receiver_shares, the default): a share-0 job's fetch that
// crosses a link (its source is not own_host) does not start while a fetch of a job with a
// positive share crosses this host's link, so what TCP would give it of the link goes to
// the jobs the policy gave it to (docs/multi-host.md, "Shares at the receivers"). A
// failed fetch is blamed (shuffle/net/fetch_blame.h): FETCH_LOCAL fails the reducer here,
// FETCH_SOURCE_CORRUPT waits for the master's new location, FETCH_UNREACHABLE is retried
// after FetchRetryDelay. Times (event stamps, retry deadlines) come from `clock`; a thread
// waiting for a retry sleeps for the clock's remaining time, so after moving a ManualClock
// call Wake().
//
// Thread-safe: every public method may be called from any thread; one mutex guards all
// state. `on_urgent` is called without that mutex held (it may take the caller's own).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "mr.pb.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

// Where a reducer placed on this worker keeps the runs it fetched: one directory per
// (job, reducer) inside the job's map-output directory, one file per map.
std::string ReducerRunDir(const std::string& work_dir, uint64_t job, uint32_t reduce);
std::string ReducerRunPath(const std::string& work_dir, uint64_t job, uint32_t reduce, uint32_t map);

// Where a fetched run's bytes are in its run file (ReducerRunPath): [offset, offset +
// length). A copy fetched over the network is the whole file (offset 0); a run of a map
// output held by this worker is that output's data file, linked, and its partition's extent
// (shuffle/net/local_fetch.h).
struct RunExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// One placed reducer's fetching, as the heartbeat reports it.
struct ReducerProgress {
  enum class State { kFetching, kReady, kFailed };
  uint64_t job = 0;
  uint32_t reduce = 0;
  uint32_t maps_fetched = 0;
  uint64_t bytes = 0;            // of its finished fetches
  uint64_t bytes_in_flight = 0;  // received so far by its fetches not yet finished
  State state = State::kFetching;
  std::string error;  // kFailed: why, naming the path
};

class FetchScheduler {
 public:
  // Fetches `target` into `dest_path` (the fetcher's contract, shuffle/net/fetcher.h).
  using FetchFn = std::function<Result<FetchResult>(const FetchTarget& target, const std::string& dest_path)>;

  struct Options {
    std::string work_dir;                      // REQUIRES: absolute, exists
    uint32_t max_threads = 32;                 // 0 counts as 1
    uint32_t per_source = 2;                   // in flight per reducer and source worker; 0 counts as 1
    // This worker's host as map-output locations name it: a fetch from it crosses no link
    // (it is linked or goes over loopback). Empty: every fetch crosses one.
    std::string own_host;
    bool receiver_shares = true;               // false: share-0 fetches are not held for the link
    const Clock* clock = SystemClock::Get();   // REQUIRES: outlives the scheduler
    FetchFn fetch;                             // REQUIRES: set; thread-safe
    std::function<void()> on_urgent;           // optional: a report should go out now
  };

  explicit FetchScheduler(Options options);
  ~FetchScheduler();  // Shutdown()
  FetchScheduler(const FetchScheduler&) = delete;
  FetchScheduler& operator=(const FetchScheduler&) = delete;

  // Places reducer `reduce` of `job` here for `num_maps` maps; a re-placement starts over
  // (its earlier fetches, queued or in flight, no longer count). Creates its run directory
  // (failing the reducer if that fails) and queues every location already known for the job.
  void Place(uint64_t job, uint32_t reduce, uint32_t num_maps);
  // The newest location of a map: queued once for every reducer of its job placed here,
  // remembered for reducers placed later. An older attempt's queued fetch is dropped.
  void AddLocation(const proto::MapOutputLocation& loc);
  void SetShares(std::map<uint64_t, double> shares);
  // The job ended: its reducers and locations are forgotten (the caller removes its files).
  void DropJob(uint64_t job);
  // Forgets every reducer, location, queued fetch and untaken report; results of fetches in
  // flight are then ignored (a new registration with the master voids the old one's work).
  void Reset();
  // Stops and joins the fetch threads; later fetches never start.
  void Shutdown();
  // Re-examines retry deadlines now (for a ManualClock that was moved).
  void Wake();

  // Moves out the fetch events since the last call and the progress of every reducer
  // whose state or bytes (finished or in flight) changed (a reducer reported ready or
  // failed is not reported again unless a refetch puts it back to fetching). Taken together so that a reducer's progress never
  // arrives before the fetch events that led to it.
  void TakeOutbox(std::vector<proto::FetchEvent>* events, std::vector<ReducerProgress>* progress);

  // The CRC32C of each run of the reducer, indexed by map. FailedPrecondition if the
  // reducer is not placed here for `num_maps` maps.
  Result<std::vector<uint32_t>> RunCrcs(uint64_t job, uint32_t reduce, uint32_t num_maps) const;
  // Where each run's bytes are in its run file, indexed by map (RunCrcs' contract).
  Result<std::vector<RunExtent>> RunExtents(uint64_t job, uint32_t reduce, uint32_t num_maps) const;
  // Maps whose runs are here for the reducer (0 if it is not placed here).
  uint32_t FetchedCount(uint64_t job, uint32_t reduce) const;
  // Fetches the run of `map` again, from where it came, after the local copy failed its
  // checksum; in the caller's thread, reported like any fetch. Returns the new CRC32C (and,
  // if `extent` is given, where the new copy's bytes are). On
  // failure the run counts as missing again: FETCH_LOCAL returns the fetch's error (the
  // attempt fails), anything else Unavailable (the run is fetched again as blamed).
  Result<uint32_t> Refetch(uint64_t job, uint32_t reduce, uint32_t map, RunExtent* extent = nullptr);

  uint32_t threads_started() const;  // for tests and metrics
  size_t queued() const;             // fetches waiting to start (for tests)

 private:
  struct Reducer {
    uint32_t num_maps = 0;
    std::vector<char> fetched;  // per map
    // Per map, of the fetched run: its CRC32C, which the reduce task checks before merging,
    // and where it came from, to fetch it again if the local copy goes bad. In memory only:
    // fetched runs do not outlive the worker process (a restarted worker deletes them).
    std::vector<uint32_t> crcs;
    std::vector<RunExtent> extents;  // per map: where the run's bytes are in its file
    std::vector<proto::MapOutputLocation> sources;
    uint32_t fetched_count = 0;
    uint64_t bytes = 0;
    uint64_t in_flight_reported = 0;  // bytes_in_flight of the last progress taken
    bool failed = false;  // on this worker (its disk, its directory): reported, then idle
    std::string error;
    bool progress_dirty = true;
    bool done_reported = false;  // ready or failed reported
    std::string dir;
    uint64_t placement = 0;  // fetches of an earlier placement here are not this one's
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> unreachable;  // per (map, attempt): unproven failures
  };
  struct Item {
    uint64_t generation = 0;
    uint64_t job = 0;
    uint32_t reduce = 0;
    proto::MapOutputLocation loc;
    uint64_t placement = 0;
    double not_before = 0;  // clock time; a retry after an unproven failure waits until then
  };
  // A fetch in flight and the bytes it has received so far (set by the fetcher's thread,
  // read by TakeOutbox). Added when the fetch starts and erased, under mu_, in the same
  // critical section that adds a finished fetch's bytes to its reducer, so no report counts
  // them twice or not at all.
  struct InFlight {
    uint64_t job = 0;
    uint32_t reduce = 0;
    uint64_t placement = 0;
    uint32_t map = 0, attempt = 0;  // a duplicate of this fetch waits for its end
    std::atomic<uint64_t> received{0};
  };
  // A reducer's turn at one source worker: (job, reduce, source worker).
  using SourceKey = std::tuple<uint64_t, uint32_t, uint32_t>;
  static SourceKey SourceOf(const Item& item) { return {item.job, item.reduce, item.loc.worker_id()}; }

  void Loop();
  void FetchOne(const Item& item, std::list<InFlight>::iterator flight);
  uint64_t InFlightBytesLocked(uint64_t job, uint32_t reduce, uint64_t placement) const;
  proto::FetchEvent NewEvent(const Item& item, double start, const Result<FetchResult>& r) const;
  void EnqueueLocked(uint64_t job, uint32_t reduce, const proto::MapOutputLocation& loc);
  double ShareLocked(uint64_t job) const;
  bool PickLocked(std::deque<Item>::iterator* pick);
  bool StartableLocked(const Item& item, double share) const;
  bool CrossesLink(const Item& item) const;
  void MaybeAddThreadLocked(const Item* added = nullptr);
  bool EarliestRetryLocked(double* due) const;
  bool StillWantedLocked(const Item& item) const;
  void FailReducerLocked(Reducer& r, uint32_t reduce, const Status& why);
  void OnFailedLocked(const Item& item, proto::FetchCause cause, const Status& error, Reducer& r);
  void Urgent();

  const Options options_;

  // State below is protected by mu_.
  mutable std::mutex mu_;
  std::condition_variable cv_;  // fetch threads: queue, shares, deadlines or stop_
  bool stop_ = false;
  bool urgent_ = false;       // set under mu_, delivered by Urgent() outside it
  uint64_t generation_ = 0;   // Reset() count
  uint64_t placements_ = 0;   // Place() count (Reducer::placement)
  std::map<std::pair<uint64_t, uint32_t>, Reducer> reducers_;
  std::map<uint64_t, std::map<uint32_t, proto::MapOutputLocation>> locations_;  // per job, map: newest
  std::deque<Item> queue_;
  std::map<uint64_t, double> shares_;
  uint32_t low_priority_fetches_ = 0;  // in flight for share-0 jobs
  uint32_t linked_priority_fetches_ = 0;  // in flight for positive-share jobs, crossing a link
  uint32_t idle_threads_ = 0;
  std::map<SourceKey, uint32_t> busy_sources_;  // fetches in flight per (reducer, source); never 0
  std::list<InFlight> in_flight_;  // stable addresses: fetch threads write through them
  std::vector<proto::FetchEvent> events_;
  std::vector<std::thread> threads_;  // grows until stop_; joined in Shutdown
};

}  // namespace mr::shuffle
