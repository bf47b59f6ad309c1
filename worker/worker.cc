#include "worker/worker.h"

#include <signal.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <set>
#include <thread>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/log.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetch_scheduler.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/local_fetch.h"
#include "shuffle/net/input_client.h"
#include "shuffle/net/link_estimator.h"
#include "shuffle/net/output_client.h"
#include "shuffle/net/run_commit.h"
#include "shuffle/net/shuffle_server.h"
#include "worker/held_outputs.h"
#include "worker/master_link.h"
#include "worker/served_bytes.h"
#include "worker/slot_runner.h"

namespace mr::worker {

namespace {

std::atomic<bool> g_signalled{false};
// Written by OnSignal (write(2) is async-signal-safe), so a SIGTERM stops the heartbeat
// thread at once instead of when its current wait between heartbeats runs out.
std::atomic<int> g_signal_fd{-1};
void OnSignal(int) {
  g_signalled.store(true);
  const int fd = g_signal_fd.load();
  const uint64_t one = 1;
  if (fd >= 0) (void)!::write(fd, &one, sizeof one);
}

// A fetch that makes no progress this long fails (Hadoop's
// mapreduce.reduce.shuffle.read.timeout). Long, because a share-0 job's fetch
// legitimately waits while the source serves the jobs the policy favours.
constexpr double kFetchProgressTimeoutSeconds = 180;

// The worker's straggler injection, for the master to show (absent when off).
void SetStraggler(const StragglerSpec& s, proto::RegisterWorker* r) {
  if (!s.enabled) return;
  proto::StragglerInjection* x = r->mutable_straggler();
  x->set_offset(s.offset);
  x->set_rate(s.rate);
  x->set_tail(StragglerTailName(s.tail));
  if (s.tail == StragglerTail::kPareto) x->set_shape(s.shape);
  x->set_seed(s.seed);
}

proto::TaskReport ReportOf(const shuffle::ReducerProgress& p) {
  proto::TaskReport r;
  r.set_job_id(p.job);
  r.set_kind(proto::REDUCE);
  r.set_index(p.reduce);
  r.set_maps_fetched(p.maps_fetched);
  r.set_shuffle_bytes(p.bytes);
  r.set_shuffle_bytes_in_flight(p.bytes_in_flight);
  switch (p.state) {
    case shuffle::ReducerProgress::State::kFailed:
      r.set_state(proto::FAILED);
      r.set_error(p.error);
      break;
    case shuffle::ReducerProgress::State::kReady:
      r.set_state(proto::READY);
      break;
    case shuffle::ReducerProgress::State::kFetching:
      r.set_state(proto::FETCHING);
      break;
  }
  return r;
}

// The worker wires its rooms together: the shuffle server (serves this worker's map
// outputs), the master link (heartbeat thread), the slot runner (task threads) and the
// fetch scheduler (fetch threads). It is the link's Handler, so everything below except
// Stop() runs on the heartbeat thread; each room guards its own state.
class WorkerImpl final : public Worker, private MasterLink::Handler {
 public:
  explicit WorkerImpl(WorkerOptions o)
      : options_(std::move(o)), remote_inputs_(std::make_shared<shuffle::RemoteInputsCache>(options_.token)),
        remote_outputs_(std::make_shared<shuffle::RemoteOutputsCache>(options_.token)) {}
  ~WorkerImpl() override { Shutdown(); }

  Status Init() {
    options_.work_dir = AbsolutePath(options_.work_dir);
    MR_RETURN_IF_ERROR(MakeDirs(options_.work_dir));
    shuffle::ShuffleServerOptions so;
    so.host = options_.host;
    so.port = 0;
    so.work_dir = options_.work_dir;
    so.bandwidth = ShuffleBandwidth();
    so.estimate_link = options_.shuffle_bandwidth <= 0 && options_.shuffle_link == WorkerOptions::LinkMode::kEstimate;
    so.token = options_.token;
    MR_ASSIGN_OR_RETURN(shuffle_, shuffle::ShuffleServer::Start(so));
    MasterLink::Options lo;
    lo.master = options_.master;
    lo.token = options_.token;
    lo.master_timeout = options_.master_timeout;
    proto::RegisterWorker& r = lo.registration;
    r.set_host(options_.host);
    r.set_shuffle_port(shuffle_->port());
    r.set_map_slots(options_.map_slots);
    r.set_reduce_slots(options_.reduce_slots);
    r.set_unified_slots(options_.unified_slots);
    r.set_speed(options_.speed);
    SetStraggler(options_.straggler, &r);
    for (const Label& l : options_.labels) {  // sorted by key; re-sent on every registration
      proto::WorkerLabel* out = r.add_labels();
      out->set_key(l.key);
      out->set_value(l.value);
    }
    r.set_shuffle_bandwidth(ShuffleBandwidth());  // a declared link is a known capacity
    r.set_work_dir(options_.work_dir);
    r.set_pid(static_cast<uint32_t>(getpid()));
    link_ = std::make_unique<MasterLink>(std::move(lo), static_cast<MasterLink::Handler*>(this));
    MasterLink* link = link_.get();
    shuffle::FetchScheduler::Options fo;
    fo.work_dir = options_.work_dir;
    fo.max_threads = options_.fetch_threads;
    fo.per_source = options_.fetches_per_source;
    fo.own_host = options_.host;
    fo.receiver_shares = options_.receiver_shares;
    fo.clock = link->clock();
    // A map output on this host is linked and merged in place (shuffle/net/local_fetch.h), not
    // sent over loopback into a copy: this worker's own straight from its directory, another
    // worker's on the same host (mr run's embedded cluster) once that worker's shuffle server
    // has answered the fetch with its data file (FetchTarget::link), so a stopped or dead
    // source fails the fetch as over the network. Where a link is refused, the bytes are fetched.
    fo.fetch = [token = options_.token, work_dir = options_.work_dir, host = options_.host,
                port = LinksLocalRuns(options_) ? shuffle_->port() : 0](const shuffle::FetchTarget& target,
                                                                       const std::string& dest) {
      if (port != 0 && target.port == port && target.host == host) {
        auto local = shuffle::FetchLocalPartition(work_dir, target, dest);
        if (local.ok() || local.status().code() != StatusCode::kFailedPrecondition) return local;
      }
      shuffle::FetchTarget t = target;
      t.link = port != 0 && target.port != port && target.host == host;
      return shuffle::FetchPartition(t, dest, kFetchProgressTimeoutSeconds, SystemClock::Get(), token);
    };
    fo.on_urgent = [link] { link->Wake(); };
    fetches_ = std::make_unique<shuffle::FetchScheduler>(std::move(fo));
    SlotRunner::Options so2;
    so2.map_slots = options_.map_slots;
    so2.reduce_slots = options_.reduce_slots;
    so2.unified_slots = options_.unified_slots;
    so2.context.work_dir = options_.work_dir;
    so2.context.speed = options_.speed;
    so2.context.straggler = options_.straggler;
    so2.context.sort_buffer_bytes = options_.sort_buffer_bytes;
    so2.context.sync_map_outputs = options_.sync_map_outputs;
    so2.context.clock = link->clock();
    so2.context.fetches = fetches_.get();
    so2.context.host = options_.host;
    so2.context.remote_inputs = [inputs = remote_inputs_](const std::string& server)
        -> Result<const jobs::InputSource*> {
      MR_ASSIGN_OR_RETURN(const shuffle::RemoteInputs* source, inputs->For(server));
      return static_cast<const jobs::InputSource*>(source);
    };
    so2.context.remote_outputs = [outputs = remote_outputs_](const std::string& server)
        -> Result<const jobs::OutputStore*> {
      MR_ASSIGN_OR_RETURN(const shuffle::RemoteOutputs* store, outputs->For(server));
      return static_cast<const jobs::OutputStore*>(store);
    };
    so2.on_finished = [link] { link->Wake(); };
    so2.stopping = [this] { return stopping(); };
    slots_ = std::make_unique<SlotRunner>(std::move(so2));
    return Status::Ok();
  }

  Status Run() override {
    struct sigaction sa {};
    sa.sa_handler = OnSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    // A thread that turns a signal into link_->Stop() (which wakes the heartbeat thread).
    // The eventfd is the process's for good: a late signal never writes to a reused fd.
    static const int fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    std::thread waker;
    if (fd >= 0) {
      g_signal_fd.store(fd);
      waker = std::thread([this] {
        struct pollfd p{fd, POLLIN, 0};
        while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
        }
        uint64_t n = 0;
        (void)!::read(fd, &n, sizeof n);  // drained for the next Run
        if (g_signalled.load()) link_->Stop();
      });
    }
    Status s = link_->Run([this] { return stopping(); });
    if (fd >= 0) {
      const uint64_t one = 1;
      (void)!::write(fd, &one, sizeof one);  // ends the waker if no signal did
      waker.join();
    }
    Shutdown();
    return s;
  }

  void Stop() override {
    stop_.store(true);
    if (link_) link_->Stop();
  }

 private:
  bool stopping() const { return stop_.load() || g_signalled.load(); }

  // MasterLink::Handler (heartbeat thread).

  // Everything of a previous registration is void once we register again: the master has
  // re-executed or will re-execute it under new attempt ids.
  std::vector<proto::HeldMapOutput> VoidRegistration() override {
    slots_->Reset();
    fetches_->Reset();
    shuffle::ForgetRunsUnder(options_.work_dir);  // the runs' commits (shuffle/net/run_commit.h)
    return KeepFinishedMapOutputs(options_.work_dir);
  }

  void Registered(const proto::RegisterReply& reply) override {
    for (uint64_t job : reply.drop_jobs()) {
      Status s = RemoveAll(shuffle::MapOutputDir(options_.work_dir, job));
      if (!s.ok()) MR_LOG_WARN("cleanup of job {}: {}", job, s.ToString());
      shuffle::ForgetRunsUnder(shuffle::MapOutputDir(options_.work_dir, job));
    }
    for (const auto& d : reply.delete_outputs()) DeleteMapOutput(options_.work_dir, d);
    slots_->set_task_timeout(reply.task_timeout_seconds());
  }

  double ShuffleBandwidth() const {
    if (options_.shuffle_link == WorkerOptions::LinkMode::kDeclared) return ShuffleCapacityOfLink(options_.shuffle_link_rate);
    return options_.shuffle_bandwidth;
  }

  void FillHeartbeat(proto::Heartbeat* hb) override {
    slots_->TakeReports(hb);
    std::vector<proto::FetchEvent> events;
    std::vector<shuffle::ReducerProgress> progress;
    fetches_->TakeOutbox(&events, &progress);
    for (auto& e : events) *hb->add_fetches() = std::move(e);
    for (const auto& p : progress) *hb->add_reports() = ReportOf(p);
    hb->set_shuffle_bytes_sent(static_cast<double>(shuffle_->bytes_sent()));
    served_.AddTo(*shuffle_, link_->clock()->Now(), hb);
  }

  void Apply(const proto::HeartbeatReply& r) override {
    std::map<uint64_t, double> shares;
    for (const auto& s : r.shares()) shares[s.job_id()] = s.share();
    shuffle_->SetShares(shares);
    fetches_->SetShares(std::move(shares));
    for (const auto& a : r.assignments()) StartAssignment(a);
    for (const auto& k : r.kills()) {
      if (!slots_->Kill(k)) MR_LOG_INFO("kill of {}/{} attempt {}: not running here", k.job_id(), k.index(), k.attempt());
    }
    for (const auto& loc : r.map_outputs()) fetches_->AddLocation(loc);
    for (const auto& d : r.delete_outputs()) DeleteMapOutput(options_.work_dir, d);
    for (uint64_t job : r.finished_jobs()) {
      DropJob(job);
      served_.JobFinished(job);
    }
    slots_->Reap();
  }

  void Tick() override { slots_->CheckHung(MonotonicSeconds()); }

  void StartAssignment(const proto::Assignment& a) {
    if (dropped_.count(a.job_id()) > 0) return;  // killed or ended meanwhile
    if (a.kind() == proto::REDUCE && a.place_only()) {
      fetches_->Place(a.job_id(), a.index(), a.num_maps());
    } else {
      slots_->Start(a);
    }
  }

  // The job ended (succeeded, failed, or was killed): its running attempts are cancelled
  // and joined (a streaming child is killed with them), then its directory goes, so
  // nothing of the job is left running or on disk here.
  void DropJob(uint64_t job) {
    dropped_.insert(job);
    fetches_->DropJob(job);
    slots_->DropJob(job);
    Status s = RemoveAll(shuffle::MapOutputDir(options_.work_dir, job));
    if (!s.ok()) MR_LOG_WARN("cleanup of job {}: {}", job, s.ToString());
    shuffle::ForgetRunsUnder(shuffle::MapOutputDir(options_.work_dir, job));
  }

  void Shutdown() {
    stop_.store(true);
    if (link_) link_->Stop();
    if (slots_) slots_->Shutdown();
    if (fetches_) fetches_->Shutdown();
    if (shuffle_) shuffle_->Stop();
  }

  WorkerOptions options_;
  std::shared_ptr<shuffle::RemoteInputsCache> remote_inputs_;  // splits held by data servers
  std::shared_ptr<shuffle::RemoteOutputsCache> remote_outputs_;  // output directories held by data servers
  std::atomic<bool> stop_{false};
  // The rooms, in the order they are built; each is destroyed after those that use it.
  std::unique_ptr<shuffle::ShuffleServer> shuffle_;
  std::unique_ptr<MasterLink> link_;
  std::unique_ptr<shuffle::FetchScheduler> fetches_;
  std::unique_ptr<SlotRunner> slots_;
  // Heartbeat thread only.
  ServedBytes served_;
  std::set<uint64_t> dropped_;  // ended jobs: a late assignment of theirs is ignored
};

}  // namespace

bool LinksLocalRuns(const WorkerOptions& options) {
  return options.link_local_runs && !(options.shuffle_bandwidth > 0);
}

double ShuffleCapacityOfLink(double link_rate) {
  constexpr double kPayloadPerWireByte = 1448.0 / 1514.0;
  return link_rate * kPayloadPerWireByte * shuffle::LinkEstimator::Params{}.cruise_gain;
}

Result<std::unique_ptr<Worker>> Worker::Create(const WorkerOptions& options) {
  if (options.work_dir.empty()) return Status::InvalidArgument("worker needs --work-dir DIR");
  if (options.map_slots + options.reduce_slots + options.unified_slots == 0) {
    return Status::InvalidArgument("worker needs at least one slot");
  }
  if (options.speed <= 0 || options.speed > 1000) return Status::InvalidArgument("--speed must be in (0, 1000]");
  MR_RETURN_IF_ERROR(options.straggler.Validate());
  if ((options.shuffle_link == WorkerOptions::LinkMode::kDeclared) != (options.shuffle_link_rate > 0)) {
    return Status::InvalidArgument("a declared link needs a rate > 0 (and only a declared link has one)");
  }
  if (options.shuffle_link == WorkerOptions::LinkMode::kDeclared && options.shuffle_bandwidth > 0) {
    return Status::InvalidArgument("give --shuffle-bandwidth or --shuffle-link-rate RATE, not both");
  }
  auto w = std::make_unique<WorkerImpl>(options);
  MR_RETURN_IF_ERROR(w->Init());
  return std::unique_ptr<Worker>(std::move(w));
}

}  // namespace mr::worker
