#include "shuffle/net/token_bucket.h"

#include <algorithm>

namespace mr::shuffle {

namespace {
constexpr double kReadySlackSeconds = 1e-9;
}  // namespace

TokenBucket::TokenBucket(double rate, double burst, const Clock* clock)
    : rate_(rate), burst_(std::max(0.0, burst)), clock_(clock), tokens_(burst_), last_(clock->Now()) {}

double TokenBucket::TokensAt(double now) const {
  if (rate_ <= 0) return burst_;
  // Time may step backwards on a wall clock: never refill negatively.
  double elapsed = std::max(0.0, now - last_);
  return std::min(burst_, tokens_ + elapsed * rate_);
}

void TokenBucket::Refill() {
  double now = clock_->Now();
  tokens_ = TokensAt(now);
  last_ = std::max(last_, now);
}

double TokenBucket::Acquire(double n) {
  if (rate_ <= 0) return 0.0;
  Refill();
  tokens_ -= n;
  return tokens_ >= 0 ? 0.0 : -tokens_ / rate_;
}

double TokenBucket::TimeUntilReady() const {
  if (rate_ <= 0) return 0.0;
  double t = TokensAt(clock_->Now());
  double wait = t >= 0 ? 0.0 : -t / rate_;
  // A caller that slept exactly the returned wait must find the bucket ready, despite
  // rounding in now - last; a nanosecond is far below any clock's resolution here.
  return wait <= kReadySlackSeconds ? 0.0 : wait;
}

void TokenBucket::SetRate(double rate) {
  Refill();
  // Leaving "unlimited": start from a full bucket rather than from stale debt.
  if (rate_ <= 0) tokens_ = burst_;
  rate_ = rate;
}

double TokenBucket::tokens() const { return TokensAt(clock_->Now()); }

}  // namespace mr::shuffle
