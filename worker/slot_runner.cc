#include "worker/slot_runner.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/log.h"
#include "common/utf8.h"
#include "common/thread_name.h"

namespace mr::worker {

namespace {

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

bool SameAttempt(const proto::Assignment& a, const proto::KillTask& k) {
  return a.job_id() == k.job_id() && a.kind() == k.kind() && a.index() == k.index() && a.attempt() == k.attempt();
}

}  // namespace

SlotRunner::SlotRunner(Options options) : options_(std::move(options)) {}

SlotRunner::~SlotRunner() { Shutdown(); }

uint32_t& SlotRunner::CounterLocked(const proto::Assignment& a) {
  return a.unified_slot() ? running_unified_ : (a.kind() == proto::MAP ? running_map_ : running_reduce_);
}

void SlotRunner::Start(const proto::Assignment& a) {
  std::lock_guard lock(mu_);
  CounterLocked(a)++;
  Attempt& t = attempts_.emplace_back();
  t.assignment = a;
  t.done = std::make_shared<std::atomic<bool>>(false);
  t.watch = std::make_shared<AttemptWatch>();
  t.what = std::string(a.kind() == proto::MAP ? "map " : "reduce ") + std::to_string(a.job_id()) + "/" +
           std::to_string(a.index()) + " attempt " + std::to_string(a.attempt());
  t.start_time = options_.context.clock->Now();
  if (options_.stopping && options_.stopping()) t.watch->Cancel();
  AttemptContext ctx = options_.context;
  ctx.task_timeout = task_timeout_.load();
  t.thread = std::thread([this, a, ctx, done = t.done, watch = t.watch, generation = generation_] {
    SetThreadName(a.kind() == proto::MAP ? "mr-map" : "mr-reduce");
    LowerThisThreadsPriority();
    Finish(a, RunAttempt(a, ctx, *watch), generation, done.get());
  });
}

void SlotRunner::Finish(const proto::Assignment& a, proto::TaskReport report, uint64_t generation,
                        std::atomic<bool>* done) {
  {
    std::lock_guard lock(mu_);
    done->store(true);  // with the report: no RUNNING report follows the final one
    if (generation != generation_) return;  // from before a Reset()
    uint32_t& counter = CounterLocked(a);
    if (counter > 0) counter--;
    outbox_.push_back(std::move(report));
  }
  if (options_.on_finished) options_.on_finished();
}

bool SlotRunner::Kill(const proto::KillTask& k) {
  std::lock_guard lock(mu_);
  for (auto& t : attempts_) {
    if (SameAttempt(t.assignment, k) && !t.done->load()) {
      MR_LOG_INFO("{}: killed by the master", t.what);
      t.watch->Kill();
      return true;
    }
  }
  return false;
}

void SlotRunner::DropJob(uint64_t job) {
  std::list<Attempt> cancelled;
  {
    std::lock_guard lock(mu_);
    for (auto it = attempts_.begin(); it != attempts_.end();) {
      auto next = std::next(it);
      if (it->assignment.job_id() == job) {
        it->watch->Cancel();
        cancelled.splice(cancelled.end(), attempts_, it);
      }
      it = next;
    }
  }
  // Outside mu_: an ending attempt takes it to report (the master ignores the report).
  JoinAll(&cancelled);
  if (!cancelled.empty()) MR_LOG_INFO("job {} ended: cancelled {} running attempts", job, cancelled.size());
}

void SlotRunner::Reset() {
  std::list<Attempt> attempts;
  {
    std::lock_guard lock(mu_);
    for (auto& t : attempts_) t.watch->Cancel();
    attempts.swap(attempts_);
    generation_++;
    outbox_.clear();
    running_map_ = running_reduce_ = running_unified_ = 0;
  }
  JoinAll(&attempts);
}

void SlotRunner::Shutdown() {
  std::list<Attempt> attempts;
  {
    std::lock_guard lock(mu_);
    for (auto& t : attempts_) t.watch->Cancel();
    attempts.swap(attempts_);
  }
  JoinAll(&attempts);
}

void SlotRunner::Reap() {
  std::list<Attempt> ended;
  {
    std::lock_guard lock(mu_);
    for (auto it = attempts_.begin(); it != attempts_.end();) {
      auto next = std::next(it);
      if (it->done->load()) ended.splice(ended.end(), attempts_, it);
      it = next;
    }
  }
  JoinAll(&ended);
}

void SlotRunner::JoinAll(std::list<Attempt>* attempts) {
  for (auto& t : *attempts) {
    if (t.thread.joinable()) t.thread.join();
  }
}

// The task timeout: every running attempt silent that long is cancelled (its report says
// why). Runs each heartbeat round, with or without a master.
void SlotRunner::CheckHung(double now_monotonic) {
  const double timeout = task_timeout_.load();
  std::lock_guard lock(mu_);
  for (auto& t : attempts_) {
    if (t.watch->CheckHung(now_monotonic, timeout)) {
      MR_LOG_WARN("{}: no progress for {} s, killing it", t.what, timeout);
    }
  }
}

void SlotRunner::TakeReports(proto::Heartbeat* hb) {
  const double now = options_.context.clock->Now();
  std::lock_guard lock(mu_);
  hb->set_free_map_slots(options_.map_slots - std::min(options_.map_slots, running_map_));
  hb->set_free_reduce_slots(options_.reduce_slots - std::min(options_.reduce_slots, running_reduce_));
  hb->set_free_unified_slots(options_.unified_slots - std::min(options_.unified_slots, running_unified_));
  for (auto& r : outbox_) *hb->add_reports() = std::move(r);
  outbox_.clear();
  for (auto& t : attempts_) {
    if (t.done->load() || t.watch->cancel()->load()) continue;
    if (t.last_progress_report >= 0 && now - t.last_progress_report < options_.progress_interval) continue;
    t.last_progress_report = now;
    auto* r = hb->add_reports();
    r->set_job_id(t.assignment.job_id());
    r->set_kind(t.assignment.kind());
    r->set_index(t.assignment.index());
    r->set_attempt(t.assignment.attempt());
    r->set_state(proto::RUNNING);
    r->set_start_time(t.start_time);
    r->set_progress(std::clamp(t.watch->fraction()->load(std::memory_order_relaxed), 0.0, 1.0));
    if (std::string status = t.watch->status(); !status.empty()) r->set_task_status(SanitizeUtf8(status));
  }
}

}  // namespace mr::worker
