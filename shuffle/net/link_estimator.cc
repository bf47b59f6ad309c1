#include "shuffle/net/link_estimator.h"

#include <algorithm>
#include <cmath>

namespace mr::shuffle {

LinkEstimator::LinkEstimator(const Clock* clock, Params params)
    : clock_(clock), params_(params), round_start_(clock->Now()) {}

void LinkEstimator::OnDelivered(double bytes) { delivered_ += std::max(0.0, bytes); }
void LinkEstimator::OnSocketFull() { socket_full_ = true; }
void LinkEstimator::OnPaceLimited() { pace_limited_ = true; }
void LinkEstimator::OnJobSending(uint64_t job) { jobs_.insert(job); }

double LinkEstimator::pacing_rate() const {
  if (!paced_) return 0.0;
  const double gain = phase_ == 0 ? params_.probe_gain : phase_ == 1 ? params_.drain_gain : params_.cruise_gain;
  return gain * bandwidth_;
}

double LinkEstimator::Update() {
  const double now = clock_->Now();
  const double elapsed = (now - round_start_) / params_.round_seconds;
  if (elapsed >= 1) {
    // After a long silence every sample has left the window and pacing has ended: skip the
    // empty rounds instead of closing each one.
    const int64_t n = static_cast<int64_t>(std::floor(elapsed));
    const int64_t limit = params_.window_rounds + params_.idle_rounds + 1;
    CloseRound(false);
    for (int64_t i = 1; i < std::min(n, limit); ++i) CloseRound(true);
    if (n > limit) {
      Unpace();
      samples_.clear();
      recent_.clear();
      round_ += n - limit;
    }
    round_start_ += static_cast<double>(n) * params_.round_seconds;
  }
  return pacing_rate();
}

// Ends the current round: its rate is a sample, and the state machine of the header moves.
void LinkEstimator::CloseRound(bool empty) {
  const double rate = empty ? 0.0 : delivered_ / params_.round_seconds;
  const bool socket_full = !empty && socket_full_;
  const bool backlogged = socket_full || (!empty && pace_limited_);
  const size_t jobs = empty ? 0 : jobs_.size();
  const double before = bandwidth_;
  // The sample: the rate over this round and the backlogged rounds just before it, once
  // there are sample_rounds of them (a lone round's lump of acknowledgements is no sample).
  if (backlogged) {
    recent_.push_back(delivered_);
    while (recent_.size() > static_cast<size_t>(std::max(1, params_.sample_rounds))) recent_.pop_front();
  } else {
    recent_.clear();
  }
  if (!backlogged) {
    AddSample(rate, false);
  } else if (recent_.size() >= static_cast<size_t>(std::max(1, params_.sample_rounds))) {
    double bytes = 0;
    for (double b : recent_) bytes += b;
    AddSample(bytes / (params_.round_seconds * static_cast<double>(recent_.size())), true);
    sampled_ = true;
  } else {
    AddSample(0, false);  // only ages the window
  }
  const char* event = nullptr;
  if (!paced_) {
    if (socket_full && jobs >= 2 && sampled_ && bandwidth_ > 0) {
      paced_ = true;
      phase_ = 1;  // the drain: TCP filled the queues while unpaced
      idle_ = 0;
      event = "enter";
    }
  } else {
    // The link carried most of the probe's extra without a full socket: it is faster than
    // B; measure it unpaced rather than climbing 25% a cycle.
    const double headroom = 1 + (params_.probe_gain - 1) / 2;
    if (phase_ == 0 && !socket_full && rate >= headroom * before) {
      Unpace();
      event = "exit-probe";
    } else if (!backlogged && ++idle_ >= params_.idle_rounds) {
      Unpace();
      event = "exit-idle";
    } else {
      if (backlogged) idle_ = 0;
      phase_ = (phase_ + 1) % params_.cycle_rounds;
    }
  }
  if (observer_ && (rate > 0 || backlogged || event != nullptr)) {
    observer_(RoundRecord{round_, rate, socket_full, backlogged && !socket_full, jobs, bandwidth_, pacing_rate(), event});
  }
  round_++;
  delivered_ = 0;
  socket_full_ = pace_limited_ = false;
  jobs_.clear();
}

void LinkEstimator::AddSample(double rate, bool backlogged) {
  while (!samples_.empty() && samples_.front().first <= round_ - params_.window_rounds) samples_.pop_front();
  // A round that was not backlogged says only that the link can do at least its rate.
  if (backlogged || rate > bandwidth_) samples_.emplace_back(round_, rate);
  if (samples_.empty()) return;  // keep the last estimate
  double best = 0;
  for (const auto& s : samples_) best = std::max(best, s.second);
  bandwidth_ = best;
}

void LinkEstimator::Unpace() {
  recent_.clear();  // the rounds before were paced: the next sample is measured unpaced,
  sampled_ = false;  // and pacing starts again only after it
  paced_ = false;
  phase_ = 0;
  idle_ = 0;
}

}  // namespace mr::shuffle
