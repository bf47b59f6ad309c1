#include "worker/worker.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "common/utf8.h"
#include "jobs/job.h"
#include "client/master_client.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/shuffle_server.h"
#include "worker/attempt_watch.h"
#include "shuffle/net/fetch_blame.h"
#include "worker/task/map_task.h"
#include "worker/task/reduce_task.h"

namespace mr::worker {

namespace {

std::atomic<bool> g_signalled{false};
void OnSignal(int) { g_signalled.store(true); }

// A reducer placed on this worker: fetching until it has every map's partition.
struct ReduceState {
  proto::JobSpec spec;
  uint32_t index = 0;
  uint32_t num_maps = 0;
  std::vector<char> fetched;     // per map
  // Per map, of the fetched run: its CRC32C, which the reduce task checks before merging,
  // and where it came from, to fetch it again if the local copy goes bad. In memory, not
  // beside the run: fetched runs do not outlive this process (a restarted worker deletes
  // them), and there is no second file to keep consistent with the run.
  std::vector<uint32_t> crcs;
  std::vector<proto::MapOutputLocation> sources;
  uint32_t fetched_count = 0;
  uint64_t bytes = 0;
  bool failed = false;            // on this worker (its disk, its directory): reported, then idle
  std::string error;              // why it failed, naming the path
  bool progress_dirty = true;
  bool ready_reported = false;
  std::string dir;
  uint64_t placement = 0;         // fetches of an earlier placement here are not this one's
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> unreachable;  // per (map, attempt): unproven failures (backoff)
};

// Task threads (map and reduce work, and streaming children they fork) run this much
// nicer than the worker's shuffle server and fetch threads. Those use little CPU but must
// get it at once: a sender that waits for a core behind three CPU-bound maps leaves its
// link idle, and the job whose turn it was gets less than its share.
constexpr int kTaskNiceIncrement = 5;

void LowerThisThreadsPriority() {
  const id_t tid = static_cast<id_t>(::gettid());
  errno = 0;
  int now = ::getpriority(PRIO_PROCESS, tid);
  if (now == -1 && errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, tid, std::min(19, now + kTaskNiceIncrement));  // best effort
}

// A fetch that makes no progress this long fails (Hadoop's
// mapreduce.reduce.shuffle.read.timeout). Long, because a share-0 job's fetch
// legitimately waits while the source serves the jobs the policy favours.
constexpr double kFetchProgressTimeoutSeconds = 180;

using SteadyTime = std::chrono::steady_clock::time_point;
std::string RunPath(const std::string& work_dir, uint64_t job, uint32_t reduce, uint32_t map) {
  return JoinPath(JoinPath(shuffle::MapOutputDir(work_dir, job), "r" + std::to_string(reduce)),
                  "m" + std::to_string(map) + ".run");
}

shuffle::FetchTarget TargetOf(const proto::MapOutputLocation& loc, uint64_t job, uint32_t reduce) {
  shuffle::FetchTarget target;
  target.host = loc.host();
  target.port = static_cast<uint16_t>(loc.shuffle_port());
  target.job_id = job;
  target.map_index = loc.map_index();
  target.attempt = loc.attempt();
  target.partition = reduce;
  return target;
}

struct FetchItem {
  uint64_t incarnation;
  uint64_t job;
  uint32_t reduce;
  proto::MapOutputLocation loc;
  uint64_t placement = 0;
  SteadyTime not_before{};  // a retry after an unproven failure waits until then
};

void FillCounters(const TaskCounters& c, proto::TaskReport* r) {
  r->set_records_in(c.records_in);
  r->set_bytes_in(c.bytes_in);
  r->set_records_out(c.records_out);
  r->set_bytes_out(c.bytes_out);
  auto add = [r](const std::string& name, int64_t v) {
    auto* x = r->add_counters();
    x->set_name(name);
    x->set_value(v);
  };
  const char* phase = r->kind() == proto::MAP ? "map" : "reduce";
  add(std::string(phase) + ".records_in", static_cast<int64_t>(c.records_in));
  add(std::string(phase) + ".records_out", static_cast<int64_t>(c.records_out));
  add(std::string(phase) + ".bytes_in", static_cast<int64_t>(c.bytes_in));
  add(std::string(phase) + ".bytes_out", static_cast<int64_t>(c.bytes_out));
  if (r->kind() == proto::MAP) {
    add("map.spills", static_cast<int64_t>(c.spills));
    add("combine.records_in", static_cast<int64_t>(c.combine_in));
    add("combine.records_out", static_cast<int64_t>(c.combine_out));
  }
  for (const auto& [k, v] : c.user) add("user." + k, v);
}

class WorkerImpl final : public Worker {
 public:
  explicit WorkerImpl(WorkerOptions o) : options_(std::move(o)) {}
  ~WorkerImpl() override { Shutdown(); }

  Status Init() {
    options_.work_dir = AbsolutePath(options_.work_dir);
    MR_RETURN_IF_ERROR(MakeDirs(options_.work_dir));
    shuffle::ShuffleServerOptions so;
    so.host = options_.host;
    so.port = 0;
    so.work_dir = options_.work_dir;
    so.bandwidth = options_.shuffle_bandwidth;
    so.token = options_.token;
    MR_ASSIGN_OR_RETURN(shuffle_, shuffle::ShuffleServer::Start(so));
    return Status::Ok();
  }

  Status Run() override {
    struct sigaction sa {};
    sa.sa_handler = OnSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    Status s = ServeMaster();
    Shutdown();
    return s;
  }

  void Stop() override {
    stop_.store(true);
    wake_.notify_all();
  }

 private:
  bool stopping() const { return stop_.load() || g_signalled.load(); }
  double Now() const { return SystemClock::Get()->Now() + clock_offset_; }

  // Everything of a previous registration is void once we register again: the
  // master has re-executed or will re-execute it under new attempt ids.
  void ResetIncarnation() {
    std::list<TaskThread> threads;
    {
      std::lock_guard lock(mu_);
      for (auto& t : threads_) t.watch->Cancel();
      threads.swap(threads_);
      incarnation_++;
      reduces_.clear();
      job_locations_.clear();
      fetch_queue_.clear();
      outbox_reports_.clear();
      outbox_fetches_.clear();
      running_map_ = running_reduce_ = running_unified_ = 0;
    }
    for (auto& t : threads) {
      if (t.thread.joinable()) t.thread.join();
    }
    held_outputs_ = KeepFinishedMapOutputs();
  }

  // Keeps the finished map outputs (a data file whose index was written, which happens
  // last) in the job directories and removes everything else there: reducers' fetched
  // data, spills and unfinished outputs of cancelled maps. Returns what was kept, for a
  // restarted master to adopt (proto RegisterWorker.held_outputs).
  std::vector<proto::HeldMapOutput> KeepFinishedMapOutputs() {
    std::vector<proto::HeldMapOutput> held;
    auto jobs = ListDir(options_.work_dir);
    if (!jobs.ok()) return held;
    for (const auto& jn : *jobs) {
      uint64_t job = 0;
      if (!shuffle::ParseMapOutputDirName(jn, &job)) continue;
      const std::string dir = JoinPath(options_.work_dir, jn);
      auto files = ListDir(dir);
      if (!files.ok()) continue;
      std::set<std::string> keep;
      for (const auto& f : *files) {
        uint32_t map = 0, attempt = 0;
        if (!shuffle::ParseMapOutputIndexName(f, &map, &attempt)) continue;
        const std::string data = shuffle::MapOutputDataPath(options_.work_dir, job, map, attempt);
        if (!PathExists(data)) continue;
        // An unreadable index (corrupt, or version 1 without checksums) is not offered: the
        // master runs that map again.
        if (auto index = shuffle::MapOutputIndex::ReadFrom(JoinPath(dir, f)); !index.ok()) {
          MR_LOG_WARN("dropping map output: {}", index.status().ToString());
          continue;
        }
        keep.insert(f);
        keep.insert(data.substr(dir.size() + 1));
        auto& h = held.emplace_back();
        h.set_job_id(job);
        h.set_map(map);
        h.set_attempt(attempt);
      }
      if (keep.empty()) {
        (void)RemoveAll(dir);
        continue;
      }
      for (const auto& f : *files) {
        if (keep.count(f) == 0) (void)RemoveAll(JoinPath(dir, f));
      }
    }
    return held;
  }

  Status Connect() {
    if (registered_) {  // once per lost registration, not on every attempt to reconnect
      ResetIncarnation();
      registered_ = false;
    }
    MR_ASSIGN_OR_RETURN(client_, client::MasterClient::Connect(options_.master, "worker", options_.token));
    clock_offset_ = client_->clock_offset();
    proto::Envelope req;
    auto* r = req.mutable_register_worker();
    r->set_host(options_.host);
    r->set_shuffle_port(shuffle_->port());
    r->set_map_slots(options_.map_slots);
    r->set_reduce_slots(options_.reduce_slots);
    r->set_unified_slots(options_.unified_slots);
    r->set_speed(options_.speed);
    r->set_shuffle_bandwidth(options_.shuffle_bandwidth);
    r->set_work_dir(options_.work_dir);
    r->set_pid(static_cast<uint32_t>(getpid()));
    for (const auto& h : held_outputs_) *r->add_held_outputs() = h;
    MR_ASSIGN_OR_RETURN(proto::Envelope reply, client_->Call(req));
    if (!reply.has_register_reply()) return Status::ProtocolError("master did not answer the registration");
    held_outputs_.clear();
    for (uint64_t job : reply.register_reply().drop_jobs()) {
      Status s = RemoveAll(shuffle::MapOutputDir(options_.work_dir, job));
      if (!s.ok()) MR_LOG_WARN("cleanup of job {}: {}", job, s.ToString());
    }
    for (const auto& d : reply.register_reply().delete_outputs()) DeleteMapOutput(d);
    worker_id_ = reply.register_reply().worker_id();
    registered_ = true;
    heartbeat_ms_ = std::max(10u, reply.register_reply().heartbeat_ms());
    task_timeout_.store(reply.register_reply().task_timeout_seconds());
    MR_LOG_INFO("registered with master {} as worker {} (shuffle port {})", options_.master.ToString(), worker_id_,
                shuffle_->port());
    return Status::Ok();
  }

  Status ServeMaster() {
    double lost_since = 0;
    while (!stopping()) {
      KillHungAttempts();
      if (!client_) {
        Status s = Connect();
        if (!s.ok()) {
          // Refused (version mismatch, cluster token): retrying cannot help.
          if (s.code() == StatusCode::kProtocolError || s.code() == StatusCode::kPermissionDenied) return s;
          if (lost_since == 0) lost_since = MonotonicSeconds();
          if (MonotonicSeconds() - lost_since > options_.master_timeout) {
            return s.WithContext("giving up after " + std::to_string(options_.master_timeout) + "s");
          }
          std::unique_lock lock(mu_);
          wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping(); });
          continue;
        }
        lost_since = 0;
      }
      Status s = HeartbeatOnce();
      if (!s.ok()) {
        MR_LOG_WARN("lost master: {}", s.ToString());
        client_.reset();
        continue;
      }
      std::unique_lock lock(mu_);
      wake_.wait_for(lock, std::chrono::milliseconds(heartbeat_ms_), [this] { return urgent_ || stopping(); });
      urgent_ = false;
    }
    return Status::Ok();
  }

  Status HeartbeatOnce() {
    proto::Envelope req;
    auto* hb = req.mutable_heartbeat();
    hb->set_worker_id(worker_id_);
    {
      std::lock_guard lock(mu_);
      hb->set_free_map_slots(options_.map_slots - std::min(options_.map_slots, running_map_));
      hb->set_free_reduce_slots(options_.reduce_slots - std::min(options_.reduce_slots, running_reduce_));
      hb->set_free_unified_slots(options_.unified_slots - std::min(options_.unified_slots, running_unified_));
      for (auto& r : outbox_reports_) *hb->add_reports() = std::move(r);
      for (auto& f : outbox_fetches_) *hb->add_fetches() = std::move(f);
      outbox_reports_.clear();
      outbox_fetches_.clear();
      AddReduceProgressLocked(hb);
    }
    hb->set_shuffle_bytes_sent(static_cast<double>(shuffle_->bytes_sent()));
    AddServedBytes(hb);
    MR_ASSIGN_OR_RETURN(proto::Envelope reply, client_->Call(req));
    if (!reply.has_heartbeat_reply()) return Status::ProtocolError("master sent no heartbeat reply");
    const auto& r = reply.heartbeat_reply();
    if (r.reregister()) {
      client_.reset();
      return Status::Ok();
    }
    // The master stretches the interval as the cluster grows (docs/protocol.md).
    if (r.heartbeat_ms() > 0) heartbeat_ms_ = std::max(10u, r.heartbeat_ms());
    std::map<uint64_t, double> shares;
    for (const auto& s : r.shares()) shares[s.job_id()] = s.share();
    shuffle_->SetShares(shares);
    {
      std::lock_guard lock(mu_);
      shares_ = shares;
      MaybeAddFetcherLocked();  // a job that left share 0 may start fetches now
    }
    fetch_cv_.notify_all();
    for (const auto& a : r.assignments()) StartAssignment(a);
    for (const auto& loc : r.map_outputs()) EnqueueFetches(loc);
    for (const auto& d : r.delete_outputs()) DeleteMapOutput(d);
    for (uint64_t job : r.finished_jobs()) {
      DropJob(job);
      served_finished_.push_back(job);
    }
    ReapThreads();
    return Status::Ok();
  }

  // What the shuffle server sent per job since the last report, so the master can
  // trace each job's measured rate on this link (trace event `served`). Heartbeat
  // thread only. A report lost with a failed heartbeat is simply not traced.
  void AddServedBytes(proto::Heartbeat* hb) {
    constexpr double kServedReportSeconds = 0.25;
    const double now = Now();
    if (served_since_ == 0) served_since_ = now;
    if (now - served_since_ < kServedReportSeconds) return;
    for (const auto& [job, bytes] : shuffle_->bytes_sent_by_job()) {
      uint64_t& last = served_reported_[job];
      if (bytes <= last) continue;
      auto* e = hb->add_served();
      e->set_job_id(job);
      e->set_bytes(bytes - last);
      last = bytes;
    }
    if (hb->served_size() > 0) {
      hb->set_served_since(served_since_);
      hb->set_served_until(now);
    }
    served_since_ = now;
    // Finished jobs have had their last bytes reported above: forget them on both sides
    // together (forgetting one alone would report a job's whole total again).
    for (uint64_t job : served_finished_) {
      shuffle_->ForgetJob(job);
      served_reported_.erase(job);
    }
    served_finished_.clear();
  }

  // Progress of fetching reducers; READY once every map's partition is local.
  void AddReduceProgressLocked(proto::Heartbeat* hb) {
    for (auto& [key, st] : reduces_) {
      if (st.ready_reported || !st.progress_dirty) continue;
      auto* r = hb->add_reports();
      r->set_job_id(key.first);
      r->set_kind(proto::REDUCE);
      r->set_index(st.index);
      r->set_maps_fetched(st.fetched_count);
      r->set_shuffle_bytes(st.bytes);
      if (st.failed) {
        r->set_state(proto::FAILED);
        r->set_error(st.error);
        st.ready_reported = true;
      } else if (st.fetched_count == st.num_maps) {
        r->set_state(proto::READY);
        st.ready_reported = true;
      } else {
        r->set_state(proto::FETCHING);
      }
      st.progress_dirty = false;
    }
  }

  void StartAssignment(const proto::Assignment& a) {
    if (a.kind() == proto::REDUCE && a.place_only()) {
      std::lock_guard lock(mu_);
      if (dropped_.count(a.job_id()) > 0) return;  // killed or ended meanwhile
      ReduceState& st = reduces_[{a.job_id(), a.index()}];
      st = ReduceState{};  // a re-placed reducer starts over
      st.spec = a.spec();
      st.index = a.index();
      st.num_maps = a.num_maps();
      st.fetched.assign(a.num_maps(), 0);
      st.crcs.assign(a.num_maps(), 0);
      st.sources.assign(a.num_maps(), {});
      st.dir = JoinPath(shuffle::MapOutputDir(options_.work_dir, a.job_id()), "r" + std::to_string(a.index()));
      st.placement = ++placements_;
      Status s = MakeDirs(st.dir);
      if (!s.ok()) FailReducerLocked(st, s);
      // The master sends each map's location once per worker, so a reducer
      // placed here later (a re-placement) learns them from what we kept.
      auto known = job_locations_.find(a.job_id());
      if (known != job_locations_.end()) {
        for (const auto& [map, loc] : known->second) EnqueueOneLocked(a.job_id(), a.index(), loc);
      }
      return;
    }
    std::lock_guard lock(mu_);
    if (dropped_.count(a.job_id()) > 0) return;
    uint32_t& counter = a.unified_slot() ? running_unified_ : (a.kind() == proto::MAP ? running_map_ : running_reduce_);
    counter++;
    threads_.emplace_back();
    auto done = std::make_shared<std::atomic<bool>>(false);
    threads_.back().done = done;
    auto watch = std::make_shared<AttemptWatch>();
    threads_.back().watch = watch;
    threads_.back().what = std::string(a.kind() == proto::MAP ? "map " : "reduce ") + std::to_string(a.job_id()) +
                           "/" + std::to_string(a.index()) + " attempt " + std::to_string(a.attempt());
    if (stopping()) watch->Cancel();
    threads_.back().job = a.job_id();
    uint64_t incarnation = incarnation_;
    threads_.back().thread = std::thread([this, a, done, watch, incarnation] {
      SetThreadName(a.kind() == proto::MAP ? "mr-map" : "mr-reduce");
      LowerThisThreadsPriority();
      if (a.kind() == proto::MAP) RunMap(a, watch.get(), incarnation);
      else RunReduce(a, watch.get(), incarnation);
      done->store(true);
    });
  }

  void FinishTask(const proto::Assignment& a, proto::TaskReport report, uint64_t incarnation) {
    std::lock_guard lock(mu_);
    if (incarnation != incarnation_) return;
    uint32_t& counter = a.unified_slot() ? running_unified_ : (a.kind() == proto::MAP ? running_map_ : running_reduce_);
    if (counter > 0) counter--;
    outbox_reports_.push_back(std::move(report));
    urgent_ = true;
    wake_.notify_all();
  }

  proto::TaskReport NewReport(const proto::Assignment& a, double start) {
    proto::TaskReport r;
    r.set_job_id(a.job_id());
    r.set_kind(a.kind());
    r.set_index(a.index());
    r.set_attempt(a.attempt());
    r.set_start_time(start);
    return r;
  }

  // The task timeout: every running attempt silent that long is cancelled (its report
  // says why). Heartbeat thread only; runs each heartbeat interval, with or without a master.
  void KillHungAttempts() {
    const double timeout = task_timeout_.load();
    const double now = MonotonicSeconds();
    std::lock_guard lock(mu_);
    for (auto& t : threads_) {
      if (t.watch->CheckHung(now, timeout)) {
        MR_LOG_WARN("{}: no progress for {} s, killing it", t.what, timeout);
      }
    }
  }

  // Runs one attempt: makes the job, runs `body`, reports the outcome. An attempt the
  // watchdog cancelled fails with the reason, whatever its body returned.
  void RunAttempt(const proto::Assignment& a, uint64_t incarnation, const AttemptWatch& watch,
                  const std::function<Status(const jobs::Job&, proto::TaskReport*)>& body) {
    proto::TaskReport report = NewReport(a, Now());
    jobs::Params params(a.spec().params().begin(), a.spec().params().end());
    auto job = jobs::CreateJob(a.spec().job(), params);
    Status status = job.ok() ? body(**job, &report) : job.status();
    if (watch.timed_out()) {
      char why[96];
      std::snprintf(why, sizeof why, "no progress for %g s (task timeout)", task_timeout_.load());
      status = Status::Aborted(why);
    }
    report.set_end_time(Now());
    report.set_state(status.ok() ? proto::SUCCEEDED : proto::FAILED);
    // A reduce whose input must be fetched again (a run's source is gone) is not at fault:
    // it gives its slot back and waits for the run (the master puts it back to fetching).
    if (a.kind() == proto::REDUCE && status.code() == StatusCode::kUnavailable) report.set_state(proto::KILLED);
    if (!status.ok()) {
      report.set_error(SanitizeUtf8(status.ToString()));
      MR_LOG_WARN("{} {}/{} failed: {}", a.kind() == proto::MAP ? "map" : "reduce", a.job_id(), a.index(),
                  status.ToString());
    }
    FinishTask(a, std::move(report), incarnation);
  }

  void RunMap(const proto::Assignment& a, AttemptWatch* watch, uint64_t incarnation) {
    RunAttempt(a, incarnation, *watch, [&](const jobs::Job& job, proto::TaskReport* report) {
      MapTaskSpec spec;
      spec.job_id = a.job_id();
      spec.map_index = a.index();
      spec.attempt = a.attempt();
      spec.job = &job;
      spec.split.path = a.split().path();
      spec.split.file_index = a.split().file_index();
      spec.split.offset = a.split().offset();
      spec.split.length = a.split().length();
      spec.num_reduces = a.spec().reducers();
      if (a.spec().sort_buffer_bytes() > 0) spec.sort_buffer_bytes = a.spec().sort_buffer_bytes();
      if (options_.sort_buffer_bytes > 0) spec.sort_buffer_bytes = options_.sort_buffer_bytes;
      spec.work_dir = options_.work_dir;
      spec.speed = options_.speed;
      spec.progress = watch->progress();
      auto result = RunMapTask(spec, watch->cancel());
      if (!result.ok()) return result.status();
      for (const auto& p : result->index.partitions) report->add_partition_bytes(p.length);
      FillCounters(result->counters, report);
      return Status::Ok();
    });
  }

  void RunReduce(const proto::Assignment& a, AttemptWatch* watch, uint64_t incarnation) {
    RunAttempt(a, incarnation, *watch, [&](const jobs::Job& job, proto::TaskReport* report) {
      ReduceTaskSpec spec;
      spec.job_id = a.job_id();
      spec.reduce_index = a.index();
      spec.job = &job;
      spec.speed = options_.speed;
      spec.progress = watch->progress();
      for (uint32_t m = 0; m < a.num_maps(); ++m) {
        spec.run_files.push_back(RunPath(options_.work_dir, a.job_id(), a.index(), m));
      }
      MR_ASSIGN_OR_RETURN(spec.run_crcs, RunCrcs(a.job_id(), a.index(), a.num_maps()));
      spec.output_path = a.temp_output();
      const std::string attempt_dir = a.temp_output().substr(0, a.temp_output().rfind('/'));
      MR_RETURN_IF_ERROR(MakeAttemptDir(attempt_dir));
      auto result = RunReduceTaskWithRefetch(spec, watch->cancel(), [&](uint32_t map) {
        return RefetchRun(a.job_id(), a.index(), map, incarnation);
      });
      if (!result.ok()) {
        (void)RemoveAll(attempt_dir);
        if (result.status().code() == StatusCode::kUnavailable) {
          report->set_maps_fetched(FetchedCount(a.job_id(), a.index()));
        }
        return result.status();
      }
      FillCounters(result->counters, report);
      return Status::Ok();
    });
  }

  // OUTPUT/_temporary/attempt-...: only the last level is created. The master made
  // OUTPUT/_temporary at submit and removes the whole output when the job fails or is
  // killed; an attempt that starts after that must not bring the directory back.
  static Status MakeAttemptDir(const std::string& dir) {
    if (::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) return Status::Ok();
    if (errno == ENOENT) return Status::Aborted("the job's output directory is gone (job ended)");
    return Status::IoError("cannot create " + dir + ": " + std::strerror(errno));
  }

  // The CRCs the reducer's runs were fetched with.
  Result<std::vector<uint32_t>> RunCrcs(uint64_t job, uint32_t reduce, uint32_t num_maps) {
    std::lock_guard lock(mu_);
    auto it = reduces_.find({job, reduce});
    if (it == reduces_.end() || it->second.crcs.size() != num_maps) {
      return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " has no fetched runs on this worker");
    }
    return it->second.crcs;
  }

  // Fetches the run of `map` again from the location it was first fetched from, after its
  // local copy failed its checksum; reports the fetch like any other. On failure the run
  // counts as not fetched, so a new location for the map (the master re-executes it on a
  // failed fetch) brings it in again.
  Result<uint32_t> RefetchRun(uint64_t job, uint32_t reduce, uint32_t map, uint64_t incarnation) {
    proto::MapOutputLocation loc;
    {
      std::lock_guard lock(mu_);
      auto it = reduces_.find({job, reduce});
      if (it == reduces_.end() || map >= it->second.sources.size()) {
        return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " is no longer placed here");
      }
      loc = it->second.sources[map];
    }
    const std::string dest = RunPath(options_.work_dir, job, reduce, map);
    (void)RemoveAll(dest);
    double start = Now();
    auto r = shuffle::FetchPartition(TargetOf(loc, job, reduce), dest, kFetchProgressTimeoutSeconds,
                                     SystemClock::Get(), options_.token);
    proto::FetchEvent ev = NewFetchEvent(job, reduce, loc, start, r);
    std::lock_guard lock(mu_);
    if (incarnation != incarnation_) return Status::Aborted("worker re-registered during the reduce");
    auto it = reduces_.find({job, reduce});
    const proto::FetchCause cause = ev.cause();
    outbox_fetches_.push_back(std::move(ev));
    urgent_ = true;
    wake_.notify_all();
    if (it == reduces_.end() || map >= it->second.crcs.size()) {
      return Status::FailedPrecondition("reduce " + std::to_string(reduce) + " is no longer placed here");
    }
    if (r.ok()) {
      it->second.crcs[map] = r->crc32c;
      return r->crc32c;
    }
    if (cause == proto::FETCH_LOCAL) return r.status();  // this worker's disk: the attempt fails
    // The source no longer serves the run: it is fetched again like any missing run (a
    // retry after a backoff if unproven; the master re-executes the map if proven), and the
    // attempt gives its slot back (Unavailable -> KILLED) instead of failing.
    ReduceState& st = it->second;
    if (st.fetched[map]) {
      st.fetched[map] = 0;
      st.fetched_count--;
    }
    st.ready_reported = false;
    st.progress_dirty = true;
    OnFetchFailedLocked(FetchItem{incarnation_, job, reduce, loc, st.placement}, cause, r.status(), st);
    return Status::Unavailable("the run of map " + std::to_string(map) + " must be fetched again: " +
                               r.status().ToString());
  }

  // Maps whose runs are on this worker for the reducer (0 if it is not placed here).
  uint32_t FetchedCount(uint64_t job, uint32_t reduce) {
    std::lock_guard lock(mu_);
    auto it = reduces_.find({job, reduce});
    return it == reduces_.end() ? 0 : it->second.fetched_count;
  }

  proto::FetchEvent NewFetchEvent(uint64_t job, uint32_t reduce, const proto::MapOutputLocation& loc, double start,
                                  const Result<shuffle::FetchResult>& r) {
    proto::FetchEvent ev;
    ev.set_job_id(job);
    ev.set_reduce_index(reduce);
    ev.set_map_index(loc.map_index());
    ev.set_src_worker(loc.worker_id());
    ev.set_start_time(start);
    ev.set_end_time(Now());
    ev.set_ok(r.ok());
    ev.set_map_attempt(loc.attempt());
    if (r.ok()) {
      ev.set_bytes(r->bytes);
    } else {
      ev.set_error(SanitizeUtf8(r.status().ToString()));
      ev.set_cause(shuffle::FetchCauseOf(r.status()));
    }
    return ev;
  }

  void EnqueueFetches(const proto::MapOutputLocation& loc) {
    std::lock_guard lock(mu_);
    job_locations_[loc.job_id()][loc.map_index()] = loc;  // the newest attempt wins
    for (auto& [key, st] : reduces_) {
      if (key.first == loc.job_id()) EnqueueOneLocked(key.first, key.second, loc);
    }
  }

  void EnqueueOneLocked(uint64_t job, uint32_t reduce, const proto::MapOutputLocation& loc) {
    auto st = reduces_.find({job, reduce});
    if (st == reduces_.end() || st->second.failed) return;
    fetch_queue_.push_back(FetchItem{incarnation_, job, reduce, loc, st->second.placement});
    fetch_cv_.notify_one();
    MaybeAddFetcherLocked(&fetch_queue_.back());
  }

  // Fetch scheduling (docs/shuffle.md, "Reducer side"). Threads are started on
  // demand up to --fetch-threads. As in Hadoop's shuffle, a reducer fetches from
  // one source worker at a time, so a fetch that a source throttles holds only
  // that reducer's turn at that source, never a thread another source could use.
  // Among fetches that may start, the highest-share job goes first (earliest among
  // equals). A share-0 job is served by the source only with leftover capacity, so
  // its fetches may wait long: they may hold at most half of the threads.
  void FetchLoop() {
    std::unique_lock lock(mu_);
    for (;;) {
      std::deque<FetchItem>::iterator pick;
      idle_fetchers_++;
      while (!fetch_stop_ && !PickFetchLocked(&pick)) {
        // Sleeps until a retry is due (never spins on one that is not).
        if (auto due = EarliestRetryLocked()) fetch_cv_.wait_until(lock, *due);
        else fetch_cv_.wait(lock);
      }
      idle_fetchers_--;
      if (fetch_stop_) return;
      FetchItem item = std::move(*pick);
      fetch_queue_.erase(pick);
      if (!StillWantedLocked(item)) continue;
      const bool low = ShareLocked(item.job) <= 0;
      if (low) low_priority_fetches_++;
      const SourceKey key = SourceOf(item);
      busy_sources_.insert(key);
      MaybeAddFetcherLocked();  // more may be startable than there are idle threads
      lock.unlock();
      FetchOne(item);
      lock.lock();
      busy_sources_.erase(key);
      if (low) low_priority_fetches_--;
      fetch_cv_.notify_all();
    }
  }

  // A reducer's turn at one source worker: (job, reduce, source worker).
  using SourceKey = std::tuple<uint64_t, uint32_t, uint32_t>;
  static SourceKey SourceOf(const FetchItem& item) { return {item.job, item.reduce, item.loc.worker_id()}; }

  double ShareLocked(uint64_t job) const {
    auto it = shares_.find(job);
    return it == shares_.end() ? 0.0 : it->second;
  }

  uint32_t MaxFetchers() const { return std::max(1u, options_.fetch_threads); }

  // The startable queued fetch of the highest-share job (earliest among equals);
  // false if none may start now.
  bool PickFetchLocked(std::deque<FetchItem>::iterator* pick) {
    bool found = false;
    double best = -1;
    for (auto it = fetch_queue_.begin(); it != fetch_queue_.end(); ++it) {
      double share = ShareLocked(it->job);
      if (share <= best || !StartableLocked(*it, share)) continue;
      best = share;
      *pick = it;
      found = true;
    }
    return found;
  }

  // Whether `item` (of a job at `share`) may start now: its retry is due, its reducer's
  // turn at that source is free, and a share-0 fetch finds fewer than half the threads on
  // share 0.
  bool StartableLocked(const FetchItem& item, double share) const {
    if (item.not_before > std::chrono::steady_clock::now()) return false;
    if (share <= 0 && low_priority_fetches_ >= std::max(1u, MaxFetchers() / 2)) return false;
    return busy_sources_.count(SourceOf(item)) == 0;
  }

  // Starts one more fetch thread when a fetch could start and no thread is idle: the
  // just-queued `added` if given (nothing else became startable), else any queued one.
  void MaybeAddFetcherLocked(const FetchItem* added = nullptr) {
    if (fetch_stop_ || idle_fetchers_ > 0 || fetchers_.size() >= MaxFetchers()) return;
    std::deque<FetchItem>::iterator unused;
    if (added != nullptr ? !StartableLocked(*added, ShareLocked(added->job)) : !PickFetchLocked(&unused)) return;
    fetchers_.emplace_back([this] {
      SetThreadName("mr-fetch");
      FetchLoop();
    });
  }

  // When the earliest deferred retry is due; none if nothing waits for one.
  std::optional<SteadyTime> EarliestRetryLocked() const {
    std::optional<SteadyTime> due;
    const SteadyTime now = std::chrono::steady_clock::now();
    for (const auto& item : fetch_queue_) {
      if (item.not_before > now && (!due || item.not_before < *due)) due = item.not_before;
    }
    return due;
  }

  // A queued fetch is still wanted if its reducer placement is live and lacks that map,
  // and the location is the newest known attempt of the map.
  bool StillWantedLocked(const FetchItem& item) const {
    auto it = reduces_.find({item.job, item.reduce});
    if (it == reduces_.end() || it->second.failed || it->second.placement != item.placement ||
        item.loc.map_index() >= it->second.num_maps || it->second.fetched[item.loc.map_index()]) {
      return false;
    }
    auto job = job_locations_.find(item.job);
    if (job == job_locations_.end()) return true;
    auto loc = job->second.find(item.loc.map_index());
    return loc == job->second.end() || loc->second.attempt() == item.loc.attempt();
  }

  // The reducer failed on this worker (docs/reliability.md, "Blame and bounds"): it stops
  // fetching, its fetched runs go at once, and the next heartbeat reports it FAILED.
  void FailReducerLocked(ReduceState& st, const Status& why) {
    if (st.failed) return;
    st.failed = true;
    st.error = fmt::format("reduce r-{:05d} failed on its worker's disk ({}): {}", st.index, st.dir, why.ToString());
    st.progress_dirty = true;
    urgent_ = true;
    Status rm = RemoveAll(st.dir);  // under mu_: a new placement's MakeDirs cannot interleave
    if (!rm.ok()) MR_LOG_WARN("{}", rm.ToString());
    MR_LOG_WARN("{}", st.error);
  }

  void FetchOne(const FetchItem& item) {
    double start = Now();
    // One try per turn: a failure is reported, and an unproven one retried after a backoff.
    Result<shuffle::FetchResult> r =
        shuffle::FetchPartition(TargetOf(item.loc, item.job, item.reduce),
                                RunPath(options_.work_dir, item.job, item.reduce, item.loc.map_index()),
                                kFetchProgressTimeoutSeconds, SystemClock::Get(), options_.token);
    proto::FetchEvent ev = NewFetchEvent(item.job, item.reduce, item.loc, start, r);
    std::lock_guard lock(mu_);
    if (item.incarnation != incarnation_) return;  // from before a re-registration
    auto it = reduces_.find({item.job, item.reduce});
    // A result for an earlier placement here, or for a reducer that failed, changes nothing.
    if (it != reduces_.end() && (it->second.placement != item.placement || it->second.failed)) it = reduces_.end();
    if (r.ok()) {
      if (it != reduces_.end() && !it->second.fetched[item.loc.map_index()]) {
        it->second.fetched[item.loc.map_index()] = 1;
        it->second.crcs[item.loc.map_index()] = r->crc32c;
        it->second.sources[item.loc.map_index()] = item.loc;
        it->second.fetched_count++;
        it->second.bytes += r->bytes;
        it->second.progress_dirty = true;
        if (it->second.fetched_count == it->second.num_maps) urgent_ = true;
      }
    } else {
      MR_LOG_WARN("fetch of map {} for reduce {}/{} failed: {}", item.loc.map_index(), item.job, item.reduce,
                  r.status().ToString());
      if (it != reduces_.end()) OnFetchFailedLocked(item, ev.cause(), r.status(), it->second);
      urgent_ = true;
    }
    outbox_fetches_.push_back(std::move(ev));
    if (urgent_) wake_.notify_all();
  }

  // LOCAL: the reducer fails here. SOURCE_CORRUPT: the master re-executes the map at once
  // and sends its new location; until then the reducer waits. UNREACHABLE: unproven, so
  // the reducer tries again after a backoff (the master re-executes the map once the
  // reports are corroborated or repeated, and the new location supersedes this one).
  void OnFetchFailedLocked(const FetchItem& item, proto::FetchCause cause, const Status& error, ReduceState& st) {
    if (cause == proto::FETCH_LOCAL) {
      FailReducerLocked(st, error);
      return;
    }
    if (cause != proto::FETCH_UNREACHABLE || stopping()) return;
    const uint32_t n = ++st.unreachable[{item.loc.map_index(), item.loc.attempt()}];
    FetchItem retry = item;
    retry.not_before = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(shuffle::FetchRetryDelay(n)));
    fetch_queue_.push_back(std::move(retry));
    fetch_cv_.notify_all();
  }

  // Deletes one superseded map output of this worker (index first: the shuffle server then
  // answers NotFound rather than serve a half-deleted output).
  void DeleteMapOutput(const proto::HeldMapOutput& d) {
    Status s = shuffle::RemoveMapOutput(options_.work_dir, d.job_id(), d.map(), d.attempt());
    if (!s.ok()) MR_LOG_WARN("deleting superseded output: {}", s.ToString());
  }


  // The job ended (succeeded, failed, or was killed): its running attempts are cancelled
  // and joined (a streaming child is killed with them), then its directory goes, so
  // nothing of the job is left running or on disk here. Heartbeat thread only.
  void DropJob(uint64_t job) {
    std::list<TaskThread> cancelled;
    {
      std::lock_guard lock(mu_);
      for (auto it = reduces_.begin(); it != reduces_.end();) {
        it = it->first.first == job ? reduces_.erase(it) : std::next(it);
      }
      job_locations_.erase(job);
      dropped_.insert(job);
      for (auto it = threads_.begin(); it != threads_.end();) {
        auto next = std::next(it);
        if (it->job == job) {
          it->watch->Cancel();
          cancelled.splice(cancelled.end(), threads_, it);
        }
        it = next;
      }
    }
    // Outside mu_: an ending attempt takes it to report (the master ignores the report).
    for (auto& t : cancelled) t.thread.join();
    if (!cancelled.empty()) MR_LOG_INFO("job {} ended: cancelled {} running attempts", job, cancelled.size());
    Status s = RemoveAll(shuffle::MapOutputDir(options_.work_dir, job));
    if (!s.ok()) MR_LOG_WARN("cleanup of job {}: {}", job, s.ToString());
  }

  void ReapThreads() {
    std::lock_guard lock(mu_);
    for (auto it = threads_.begin(); it != threads_.end();) {
      if (it->done->load()) {
        it->thread.join();
        it = threads_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void Shutdown() {
    stop_.store(true);
    {
      std::lock_guard lock(mu_);
      for (auto& t : threads_) t.watch->Cancel();
      fetch_stop_ = true;
    }
    fetch_cv_.notify_all();
    wake_.notify_all();
    for (auto& t : fetchers_) {
      if (t.joinable()) t.join();
    }
    fetchers_.clear();
    std::list<TaskThread> threads;
    {
      std::lock_guard lock(mu_);
      threads.swap(threads_);
    }
    for (auto& t : threads) {
      if (t.thread.joinable()) t.thread.join();
    }
    if (shuffle_) shuffle_->Stop();
  }

  struct TaskThread {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
    std::shared_ptr<AttemptWatch> watch;  // its progress and cancel flag
    std::string what;                     // "map JOB/INDEX attempt N", for the log
    uint64_t job = 0;
  };

  WorkerOptions options_;
  std::unique_ptr<shuffle::ShuffleServer> shuffle_;
  std::unique_ptr<client::MasterClient> client_;  // heartbeat thread only
  uint32_t worker_id_ = 0;
  uint32_t heartbeat_ms_ = 100;
  std::vector<proto::HeldMapOutput> held_outputs_;  // heartbeat thread only: offered at the next registration
  double clock_offset_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<double> task_timeout_{0};  // seconds without progress before an attempt is killed; 0 = off
  bool registered_ = false;  // heartbeat thread only: a registration whose work the next one voids
  double served_since_ = 0;                         // heartbeat thread only
  std::map<uint64_t, uint64_t> served_reported_;    // heartbeat thread only: per job, bytes reported
  std::vector<uint64_t> served_finished_;           // heartbeat thread only: to forget at the next report

  // State below is protected by mu_.
  std::mutex mu_;
  std::condition_variable wake_;       // heartbeat thread: urgent_ or stop
  std::condition_variable fetch_cv_;   // fetch threads: queue or fetch_stop_
  bool urgent_ = false;
  bool fetch_stop_ = false;
  uint64_t incarnation_ = 0;
  uint64_t placements_ = 0;  // reducer placements received (ReduceState::placement)
  uint32_t running_map_ = 0, running_reduce_ = 0, running_unified_ = 0;
  std::vector<proto::TaskReport> outbox_reports_;
  std::vector<proto::FetchEvent> outbox_fetches_;
  std::map<std::pair<uint64_t, uint32_t>, ReduceState> reduces_;
  // Every map-output location received, per job and map (latest attempt).
  std::map<uint64_t, std::map<uint32_t, proto::MapOutputLocation>> job_locations_;
  std::deque<FetchItem> fetch_queue_;
  std::map<uint64_t, double> shares_;     // current shuffle share per job
  uint32_t low_priority_fetches_ = 0;     // in flight for share-0 jobs
  uint32_t idle_fetchers_ = 0;            // fetch threads waiting for work
  std::set<SourceKey> busy_sources_;      // reducers' turns at sources, in flight
  std::set<uint64_t> dropped_;
  std::list<TaskThread> threads_;
  std::vector<std::thread> fetchers_;  // grows under mu_ until fetch_stop_; joined in Shutdown
};

}  // namespace

Result<std::unique_ptr<Worker>> Worker::Create(const WorkerOptions& options) {
  if (options.work_dir.empty()) return Status::InvalidArgument("worker needs --work-dir DIR");
  if (options.map_slots + options.reduce_slots + options.unified_slots == 0) {
    return Status::InvalidArgument("worker needs at least one slot");
  }
  if (options.speed <= 0 || options.speed > 1000) return Status::InvalidArgument("--speed must be in (0, 1000]");
  auto w = std::make_unique<WorkerImpl>(options);
  MR_RETURN_IF_ERROR(w->Init());
  return std::unique_ptr<Worker>(std::move(w));
}

}  // namespace mr::worker
