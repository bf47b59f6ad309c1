#include "shuffle/net/fetch_scheduler.h"

#include <algorithm>
#include <chrono>

#include "common/file_util.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "common/utf8.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetch_blame.h"

namespace mr::shuffle {

std::string ReducerRunDir(const std::string& work_dir, uint64_t job, uint32_t reduce) {
  return JoinPath(MapOutputDir(work_dir, job), "r" + std::to_string(reduce));
}

std::string ReducerRunPath(const std::string& work_dir, uint64_t job, uint32_t reduce, uint32_t map) {
  return JoinPath(ReducerRunDir(work_dir, job, reduce), "m" + std::to_string(map) + ".run");
}

namespace {

FetchTarget TargetOf(const proto::MapOutputLocation& loc, uint64_t job, uint32_t reduce) {
  FetchTarget target;
  target.host = loc.host();
  target.port = static_cast<uint16_t>(loc.shuffle_port());
  target.job_id = job;
  target.map_index = loc.map_index();
  target.attempt = loc.attempt();
  target.partition = reduce;
  return target;
}

}  // namespace

FetchScheduler::FetchScheduler(Options options) : options_(std::move(options)) {}

FetchScheduler::~FetchScheduler() { Shutdown(); }

void FetchScheduler::Place(uint64_t job, uint32_t reduce, uint32_t num_maps) {
  {
    std::lock_guard lock(mu_);
    Reducer& r = reducers_[{job, reduce}];
    r = Reducer{};  // a re-placed reducer starts over
    r.num_maps = num_maps;
    r.fetched.assign(num_maps, 0);
    r.crcs.assign(num_maps, 0);
    r.extents.assign(num_maps, RunExtent{});
    r.sources.assign(num_maps, {});
    r.dir = ReducerRunDir(options_.work_dir, job, reduce);
    r.placement = ++placements_;
    Status s = MakeDirs(r.dir);
    if (!s.ok()) FailReducerLocked(r, reduce, s);
    // The master sends each map's location once per worker, so a reducer placed here later
    // (a re-placement) learns them from what we kept.
    auto known = locations_.find(job);
    if (known != locations_.end()) {
      for (const auto& [map, loc] : known->second) EnqueueLocked(job, reduce, loc);
    }
  }
  Urgent();
}

void FetchScheduler::AddLocation(const proto::MapOutputLocation& loc) {
  std::lock_guard lock(mu_);
  locations_[loc.job_id()][loc.map_index()] = loc;  // the newest attempt wins
  for (auto it = reducers_.lower_bound({loc.job_id(), 0}); it != reducers_.end() && it->first.first == loc.job_id();
       ++it) {
    EnqueueLocked(loc.job_id(), it->first.second, loc);
  }
}

void FetchScheduler::SetShares(std::map<uint64_t, double> shares) {
  {
    std::lock_guard lock(mu_);
    shares_ = std::move(shares);
    MaybeAddThreadLocked();  // a job that left share 0 may start fetches now
  }
  cv_.notify_all();
}

void FetchScheduler::DropJob(uint64_t job) {
  std::lock_guard lock(mu_);
  for (auto it = reducers_.begin(); it != reducers_.end();) {
    it = it->first.first == job ? reducers_.erase(it) : std::next(it);
  }
  locations_.erase(job);
}

void FetchScheduler::Reset() {
  std::lock_guard lock(mu_);
  generation_++;
  reducers_.clear();
  locations_.clear();
  queue_.clear();
  events_.clear();
}

void FetchScheduler::Shutdown() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  // No thread is added once stop_ is set, so the vector no longer changes.
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void FetchScheduler::Wake() { cv_.notify_all(); }

void FetchScheduler::TakeOutbox(std::vector<proto::FetchEvent>* events, std::vector<ReducerProgress>* progress) {
  std::lock_guard lock(mu_);
  for (auto& e : events_) events->push_back(std::move(e));
  events_.clear();
  for (auto& [key, r] : reducers_) {
    if (r.done_reported) continue;
    const uint64_t in_flight = r.failed ? 0 : InFlightBytesLocked(key.first, key.second, r.placement);
    if (in_flight != r.in_flight_reported) {
      r.in_flight_reported = in_flight;
      r.progress_dirty = true;
    }
    if (!r.progress_dirty) continue;
    ReducerProgress& p = progress->emplace_back();
    p.job = key.first;
    p.reduce = key.second;
    p.maps_fetched = r.fetched_count;
    p.bytes = r.bytes;
    p.bytes_in_flight = r.in_flight_reported;
    if (r.failed) {
      p.state = ReducerProgress::State::kFailed;
      p.error = r.error;
      r.done_reported = true;
    } else if (r.fetched_count == r.num_maps) {
      p.state = ReducerProgress::State::kReady;
      r.done_reported = true;
    }
    r.progress_dirty = false;
  }
}

Result<std::vector<uint32_t>> FetchScheduler::RunCrcs(uint64_t job, uint32_t reduce, uint32_t num_maps) const {
  std::lock_guard lock(mu_);
  auto it = reducers_.find({job, reduce});
  if (it == reducers_.end() || it->second.crcs.size() != num_maps) {
    return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " has no fetched runs on this worker");
  }
  return it->second.crcs;
}

Result<std::vector<RunExtent>> FetchScheduler::RunExtents(uint64_t job, uint32_t reduce, uint32_t num_maps) const {
  std::lock_guard lock(mu_);
  auto it = reducers_.find({job, reduce});
  if (it == reducers_.end() || it->second.extents.size() != num_maps) {
    return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " has no fetched runs on this worker");
  }
  return it->second.extents;
}

uint32_t FetchScheduler::FetchedCount(uint64_t job, uint32_t reduce) const {
  std::lock_guard lock(mu_);
  auto it = reducers_.find({job, reduce});
  return it == reducers_.end() ? 0 : it->second.fetched_count;
}

Result<uint32_t> FetchScheduler::Refetch(uint64_t job, uint32_t reduce, uint32_t map, RunExtent* extent) {
  Item item;
  {
    std::lock_guard lock(mu_);
    auto it = reducers_.find({job, reduce});
    if (it == reducers_.end() || map >= it->second.sources.size()) {
      return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " is no longer placed here");
    }
    item = Item{generation_, job, reduce, it->second.sources[map], it->second.placement};
  }
  const std::string dest = ReducerRunPath(options_.work_dir, job, reduce, map);
  (void)RemoveAll(dest);
  const double start = options_.clock->Now();
  Result<FetchResult> r = options_.fetch(TargetOf(item.loc, job, reduce), dest);
  proto::FetchEvent ev = NewEvent(item, start, r);
  Status result;
  uint32_t crc = 0;
  {
    std::lock_guard lock(mu_);
    if (item.generation != generation_) return Status::Aborted("worker re-registered during the reduce");
    auto it = reducers_.find({job, reduce});
    const proto::FetchCause cause = ev.cause();
    events_.push_back(std::move(ev));
    urgent_ = true;
    if (it == reducers_.end() || map >= it->second.crcs.size()) {
      result = Status::FailedPrecondition("reduce " + std::to_string(reduce) + " is no longer placed here");
    } else if (r.ok()) {
      it->second.crcs[map] = crc = r->crc32c;
      it->second.extents[map] = RunExtent{r->offset, r->bytes};
      if (extent != nullptr) *extent = it->second.extents[map];
    } else if (cause == proto::FETCH_LOCAL) {
      result = r.status();  // this worker's disk: the attempt fails
    } else {
      // The source no longer serves the run: it is fetched again like any missing run (a
      // retry after a backoff if unproven; the master re-executes the map if proven), and
      // the attempt gives its slot back instead of failing.
      Reducer& st = it->second;
      if (st.fetched[map]) {
        st.fetched[map] = 0;
        st.fetched_count--;
      }
      st.done_reported = false;
      st.progress_dirty = true;
      OnFailedLocked(item, cause, r.status(), st);
      result = Status::Unavailable("the run of map " + std::to_string(map) +
                                   " must be fetched again: " + r.status().ToString());
    }
  }
  Urgent();
  if (!result.ok()) return result;
  return crc;
}

uint32_t FetchScheduler::threads_started() const {
  std::lock_guard lock(mu_);
  return static_cast<uint32_t>(threads_.size());
}

size_t FetchScheduler::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void FetchScheduler::EnqueueLocked(uint64_t job, uint32_t reduce, const proto::MapOutputLocation& loc) {
  auto r = reducers_.find({job, reduce});
  if (r == reducers_.end() || r->second.failed) return;
  queue_.push_back(Item{generation_, job, reduce, loc, r->second.placement});
  cv_.notify_one();
  MaybeAddThreadLocked(&queue_.back());
}

// The pick rules are in the header and docs/shuffle.md, "Reducer side".
void FetchScheduler::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    std::deque<Item>::iterator pick;
    idle_threads_++;
    while (!stop_ && !PickLocked(&pick)) {
      // Sleeps until a retry is due (never spins on one that is not).
      double due = 0;
      if (EarliestRetryLocked(&due)) {
        cv_.wait_for(lock, std::chrono::duration<double>(std::max(0.0, due - options_.clock->Now())));
      } else {
        cv_.wait(lock);
      }
    }
    idle_threads_--;
    if (stop_) return;
    Item item = std::move(*pick);
    queue_.erase(pick);
    if (!StillWantedLocked(item)) continue;
    const bool low = ShareLocked(item.job) <= 0;
    if (low) low_priority_fetches_++;
    const bool linked_priority = !low && CrossesLink(item);
    if (linked_priority) linked_priority_fetches_++;
    const SourceKey key = SourceOf(item);
    busy_sources_[key]++;
    in_flight_.emplace_back();
    auto flight = std::prev(in_flight_.end());
    flight->job = item.job;
    flight->reduce = item.reduce;
    flight->placement = item.placement;
    flight->map = item.loc.map_index();
    flight->attempt = item.loc.attempt();
    MaybeAddThreadLocked();  // more may be startable than there are idle threads
    lock.unlock();
    FetchOne(item, flight);
    Urgent();
    lock.lock();
    if (--busy_sources_[key] == 0) busy_sources_.erase(key);
    if (low) low_priority_fetches_--;
    if (linked_priority) linked_priority_fetches_--;
    cv_.notify_all();
  }
}

void FetchScheduler::FetchOne(const Item& item, std::list<InFlight>::iterator flight) {
  const double start = options_.clock->Now();
  // One try per turn: a failure is reported, and an unproven one retried after a backoff.
  FetchTarget target = TargetOf(item.loc, item.job, item.reduce);
  target.received = &flight->received;
  Result<FetchResult> r =
      options_.fetch(target, ReducerRunPath(options_.work_dir, item.job, item.reduce, item.loc.map_index()));
  proto::FetchEvent ev = NewEvent(item, start, r);
  std::lock_guard lock(mu_);
  in_flight_.erase(flight);  // with the bytes added below: one critical section
  if (item.generation != generation_) return;  // from before a Reset()
  auto it = reducers_.find({item.job, item.reduce});
  // A result for an earlier placement here, or for a reducer that failed, changes nothing.
  if (it != reducers_.end() && (it->second.placement != item.placement || it->second.failed)) it = reducers_.end();
  const uint32_t map = item.loc.map_index();
  if (r.ok()) {
    if (it != reducers_.end() && !it->second.fetched[map]) {
      Reducer& st = it->second;
      st.fetched[map] = 1;
      st.crcs[map] = r->crc32c;
      st.extents[map] = RunExtent{r->offset, r->bytes};
      st.sources[map] = item.loc;
      st.fetched_count++;
      st.bytes += r->bytes;
      st.progress_dirty = true;
      if (st.fetched_count == st.num_maps) urgent_ = true;
    }
  } else {
    MR_LOG_WARN("fetch of map {} for reduce {}/{} failed: {}", map, item.job, item.reduce, r.status().ToString());
    if (it != reducers_.end()) OnFailedLocked(item, ev.cause(), r.status(), it->second);
    urgent_ = true;
  }
  events_.push_back(std::move(ev));
}

proto::FetchEvent FetchScheduler::NewEvent(const Item& item, double start, const Result<FetchResult>& r) const {
  proto::FetchEvent ev;
  ev.set_job_id(item.job);
  ev.set_reduce_index(item.reduce);
  ev.set_map_index(item.loc.map_index());
  ev.set_src_worker(item.loc.worker_id());
  ev.set_start_time(start);
  ev.set_end_time(options_.clock->Now());
  ev.set_ok(r.ok());
  ev.set_map_attempt(item.loc.attempt());
  if (r.ok()) {
    ev.set_bytes(r->bytes);
  } else {
    ev.set_error(SanitizeUtf8(r.status().ToString()));
    ev.set_cause(FetchCauseOf(r.status()));
  }
  return ev;
}

uint64_t FetchScheduler::InFlightBytesLocked(uint64_t job, uint32_t reduce, uint64_t placement) const {
  uint64_t bytes = 0;
  for (const InFlight& f : in_flight_) {
    if (f.job == job && f.reduce == reduce && f.placement == placement) {
      bytes += f.received.load(std::memory_order_relaxed);
    }
  }
  return bytes;
}

double FetchScheduler::ShareLocked(uint64_t job) const {
  auto it = shares_.find(job);
  return it == shares_.end() ? 0.0 : it->second;
}

// The startable queued fetch of the highest-share job (earliest among equals); false if
// none may start now.
bool FetchScheduler::PickLocked(std::deque<Item>::iterator* pick) {
  bool found = false;
  double best = -1;
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    double share = ShareLocked(it->job);
    if (share <= best || !StartableLocked(*it, share)) continue;
    best = share;
    *pick = it;
    found = true;
  }
  return found;
}

// Whether `item` (of a job at `share`) may start now: its retry is due, its reducer has
// fewer than per_source fetches in flight from that source, and a share-0 fetch finds fewer
// than half the threads on share 0 and, if it crosses a link, no positive-share fetch
// crossing this host's link (receiver_shares).
bool FetchScheduler::StartableLocked(const Item& item, double share) const {
  if (item.not_before > options_.clock->Now()) return false;
  const uint32_t max_threads = std::max(1u, options_.max_threads);
  if (share <= 0 && low_priority_fetches_ >= std::max(1u, max_threads / 2)) return false;
  if (share <= 0 && options_.receiver_shares && linked_priority_fetches_ > 0 && CrossesLink(item)) return false;
  auto busy = busy_sources_.find(SourceOf(item));
  if (busy == busy_sources_.end()) return true;
  if (busy->second >= std::max(1u, options_.per_source)) return false;
  // The same map output queued twice (a location repeated) must not be fetched twice at
  // once into the same run file: it waits, and is dropped once the first copy is in.
  for (const InFlight& f : in_flight_) {
    if (f.job == item.job && f.reduce == item.reduce && f.placement == item.placement &&
        f.map == item.loc.map_index() && f.attempt == item.loc.attempt()) {
      return false;
    }
  }
  return true;
}

bool FetchScheduler::CrossesLink(const Item& item) const {
  return options_.own_host.empty() || item.loc.host() != options_.own_host;
}

// Starts one more fetch thread when a fetch could start and no thread is idle: the
// just-queued `added` if given (nothing else became startable), else any queued one.
void FetchScheduler::MaybeAddThreadLocked(const Item* added) {
  if (stop_ || idle_threads_ > 0 || threads_.size() >= std::max(1u, options_.max_threads)) return;
  std::deque<Item>::iterator unused;
  if (added != nullptr ? !StartableLocked(*added, ShareLocked(added->job)) : !PickLocked(&unused)) return;
  threads_.emplace_back([this] {
    SetThreadName("mr-fetch");
    Loop();
  });
}

// When the earliest deferred retry is due; false if nothing waits for one.
bool FetchScheduler::EarliestRetryLocked(double* due) const {
  bool any = false;
  const double now = options_.clock->Now();
  for (const auto& item : queue_) {
    if (item.not_before > now && (!any || item.not_before < *due)) {
      *due = item.not_before;
      any = true;
    }
  }
  return any;
}

// A queued fetch is still wanted if its reducer placement is live and lacks that map, and
// the location is the newest known attempt of the map.
bool FetchScheduler::StillWantedLocked(const Item& item) const {
  auto it = reducers_.find({item.job, item.reduce});
  if (it == reducers_.end() || it->second.failed || it->second.placement != item.placement ||
      item.loc.map_index() >= it->second.num_maps || it->second.fetched[item.loc.map_index()]) {
    return false;
  }
  auto job = locations_.find(item.job);
  if (job == locations_.end()) return true;
  auto loc = job->second.find(item.loc.map_index());
  return loc == job->second.end() || loc->second.attempt() == item.loc.attempt();
}

// The reducer failed on this worker (docs/reliability.md, "Blame and bounds"): it stops
// fetching, its fetched runs go at once, and the next report says FAILED.
void FetchScheduler::FailReducerLocked(Reducer& r, uint32_t reduce, const Status& why) {
  if (r.failed) return;
  r.failed = true;
  r.error = fmt::format("reduce r-{:05d} failed on its worker's disk ({}): {}", reduce, r.dir, why.message());
  r.progress_dirty = true;
  urgent_ = true;
  Status rm = RemoveAll(r.dir);  // under mu_: a new placement's MakeDirs cannot interleave
  if (!rm.ok()) MR_LOG_WARN("{}", rm.ToString());
  MR_LOG_WARN("{}", r.error);
}

// LOCAL: the reducer fails here. SOURCE_CORRUPT: the master re-executes the map at once and
// sends its new location; until then the reducer waits. UNREACHABLE: unproven, so the
// reducer tries again after a backoff (the master re-executes the map once the reports are
// corroborated or repeated, and the new location supersedes this one).
void FetchScheduler::OnFailedLocked(const Item& item, proto::FetchCause cause, const Status& error, Reducer& r) {
  if (cause == proto::FETCH_LOCAL) {
    FailReducerLocked(r, item.reduce, error);
    return;
  }
  if (cause != proto::FETCH_UNREACHABLE || stop_) return;
  const uint32_t n = ++r.unreachable[{item.loc.map_index(), item.loc.attempt()}];
  Item retry = item;
  retry.not_before = options_.clock->Now() + FetchRetryDelay(n);
  queue_.push_back(std::move(retry));
  cv_.notify_all();
}

void FetchScheduler::Urgent() {
  bool urgent;
  {
    std::lock_guard lock(mu_);
    urgent = urgent_;
    urgent_ = false;
  }
  if (urgent && options_.on_urgent) options_.on_urgent();
}

}  // namespace mr::shuffle
