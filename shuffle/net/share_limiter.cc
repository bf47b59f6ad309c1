#include "shuffle/net/share_limiter.h"

#include <algorithm>
#include <chrono>

#include "common/log.h"

namespace mr::shuffle {

namespace {
// Upper bound on one condition-variable wait, so a stepped wall clock cannot strand a waiter.
constexpr double kMaxWaitSeconds = 0.05;

// The estimator's decisions: pacing starts and ends are rare, so logged with their reason;
// every active round at debug level (MR_LOG_LEVEL=debug), to read the episodes from a run.
void LogRound(const LinkEstimator::RoundRecord& r) {
  if (r.event != nullptr) {
    MR_LOG_INFO("shuffle link estimate: {} (B = {:.0f} bytes/s; {}: round {} delivered {:.0f} bytes/s, {} jobs{})",
                r.pacing_rate > 0 ? "pacing the shares" : "unpaced", r.bandwidth, r.event, r.round, r.rate, r.jobs,
                r.socket_full ? ", socket full" : r.pace_limited ? ", pace-limited" : ", not backlogged");
  }
  ::spdlog::debug("shuffle link round {}: delivered {:.0f} bytes/s{} jobs {} B {:.0f} pacing {:.0f}", r.round, r.rate,
                  r.socket_full ? " full" : r.pace_limited ? " paced" : " idle", r.jobs, r.bandwidth, r.pacing_rate);
}
}  // namespace

ShareLimiter::ShareLimiter(double capacity, const Clock* clock, double burst_bytes)
    : clock_(clock), queue_(capacity, burst_bytes, clock) {}

ShareLimiter::~ShareLimiter() { Shutdown(); }

void ShareLimiter::SetShares(const std::map<uint64_t, double>& shares) {
  std::lock_guard<std::mutex> lock(mu_);
  queue_.SetShares(shares);
  cv_.notify_all();
}

void ShareLimiter::SetCapacity(double capacity) {
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity > 0) estimator_.reset();
  queue_.SetCapacity(capacity);
  cv_.notify_all();
}

double ShareLimiter::capacity() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.capacity();
}

void ShareLimiter::EstimateLink(LinkEstimator::Params params) {
  std::lock_guard<std::mutex> lock(mu_);
  if (queue_.capacity() > 0) return;  // a configured capacity wins
  estimator_ = std::make_unique<LinkEstimator>(clock_, params);
  estimator_->SetObserver(LogRound);
}

bool ShareLimiter::estimating() const {
  std::lock_guard<std::mutex> lock(mu_);
  return estimator_ != nullptr;
}

double ShareLimiter::estimated_link_rate() const {
  std::lock_guard<std::mutex> lock(mu_);
  return estimator_ ? estimator_->bandwidth() : 0.0;
}

void ShareLimiter::Delivered(uint64_t job, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!estimator_) return;
  estimator_->OnDelivered(static_cast<double>(bytes));
  estimator_->OnJobSending(job);
  PaceLocked();
}

void ShareLimiter::SocketFull(uint64_t job) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!estimator_) return;
  estimator_->OnSocketFull();
  estimator_->OnJobSending(job);
}

// Moves the link's rate to the estimator's pacing rate (rounds close as time passes).
void ShareLimiter::PaceLocked() {
  if (!estimator_) return;
  const double rate = estimator_->Update();
  if (rate != queue_.capacity()) {
    queue_.SetCapacity(rate);
    cv_.notify_all();
  }
}

void ShareLimiter::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shutdown_ = true;
  cv_.notify_all();
}

void ShareLimiter::CountUnpaced(uint64_t job, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  CountLocked(job, bytes);
}

void ShareLimiter::CountLocked(uint64_t job, uint64_t bytes) {
  total_ += bytes;
  by_job_[job] += bytes;
}

// Grants everything the link allows now; any waiter may run this, whoever's ticket it is.
bool ShareLimiter::DispatchLocked() {
  bool any = false;
  while (auto g = queue_.GrantNext()) {
    granted_.emplace(g->ticket, *g);
    parked_.erase(g->ticket);  // its waiter has something to do
    any = true;
  }
  return any;
}

bool ShareLimiter::Acquire(uint64_t job, uint64_t bytes) { return Wait(Request(job, bytes)); }

uint64_t ShareLimiter::Request(uint64_t job, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_) return 0;
  PaceLocked();
  uint64_t ticket = queue_.Enqueue(job, bytes);
  // Unlimited, or a turn free now: grant at once, so Wait need not block.
  if (DispatchLocked()) cv_.notify_all();
  return ticket;
}

bool ShareLimiter::Wait(uint64_t ticket) {
  if (ticket == 0) return false;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (shutdown_) {
      queue_.Cancel(ticket);
      granted_.erase(ticket);
      parked_.erase(ticket);
      return false;
    }
    PaceLocked();
    if (DispatchLocked()) cv_.notify_all();
    auto it = granted_.find(ticket);
    if (it != granted_.end()) {
      CountLocked(it->second.job, it->second.bytes);
      granted_.erase(it);
      parked_.erase(ticket);
      return true;
    }
    parked_.insert(ticket);
    if (estimator_) estimator_->OnPaceLimited();  // granted later than asked: the pacer holds it
    double wait = std::min(queue_.TimeUntilNextGrant(), kMaxWaitSeconds);
    cv_.wait_for(lock, std::chrono::duration<double>(wait));
  }
}

void ShareLimiter::Cancel(uint64_t ticket) {
  if (ticket == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  queue_.Cancel(ticket);
  granted_.erase(ticket);
  parked_.erase(ticket);
}

void ShareLimiter::ClockAdvanced() {
  std::lock_guard<std::mutex> lock(mu_);
  parked_.clear();  // every waiter must look at the new time before it counts again
  cv_.notify_all();
}

size_t ShareLimiter::parked() const {
  std::lock_guard<std::mutex> lock(mu_);
  return parked_.size();
}

uint64_t ShareLimiter::bytes_sent() const {
  std::lock_guard<std::mutex> lock(mu_);
  return total_;
}

std::map<uint64_t, uint64_t> ShareLimiter::bytes_sent_by_job() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_job_;
}

void ShareLimiter::ForgetJob(uint64_t job) {
  std::lock_guard<std::mutex> lock(mu_);
  by_job_.erase(job);
}

}  // namespace mr::shuffle
