// TokenBucket: paces bytes at `rate` bytes/s with up to `burst` bytes of credit.
// Acquire never blocks: it charges the bytes (the bucket may go into debt) and says how
// long the caller must wait before sending them, so long-run throughput equals the rate
// exactly. Time comes from an injected Clock. Thread-compatible (callers lock).
#pragma once

#include "common/clock.h"

namespace mr::shuffle {

class TokenBucket {
 public:
  // rate <= 0 means unlimited (Acquire always returns 0). The bucket starts full.
  // REQUIRES: clock outlives the bucket; burst >= 0.
  TokenBucket(double rate, double burst, const Clock* clock);

  // Charges n bytes; returns the seconds (>= 0) to wait before they may be sent.
  double Acquire(double n);
  // Seconds until the bucket is out of debt (0 if it holds >= 0 tokens now).
  double TimeUntilReady() const;
  // Changes the rate from now on; credit earned so far at the old rate is kept.
  void SetRate(double rate);

  double rate() const { return rate_; }
  double burst() const { return burst_; }
  // Current tokens (negative = debt).
  double tokens() const;

 private:
  void Refill();
  double TokensAt(double now) const;

  double rate_;
  double burst_;
  const Clock* clock_;
  double tokens_;
  double last_;
};

}  // namespace mr::shuffle
