// FairQueue: the deterministic core of ShareLimiter. Requests (job, bytes) queue per job;
// GrantNext hands out the link (a TokenBucket at `capacity`) one request at a time, choosing
// by start-time fair queueing over jobs weighted by share. Jobs with share 0 (or none) form
// a second class served only when no positive-share job is queued. No threads, no blocking:
// time comes from the Clock, so tests drive it with a ManualClock. Thread-compatible.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>

#include "common/clock.h"
#include "shuffle/net/token_bucket.h"

namespace mr::shuffle {

class FairQueue {
 public:
  struct Grant {
    uint64_t ticket = 0;
    uint64_t job = 0;
    uint64_t bytes = 0;
  };

  // capacity <= 0 means unlimited. burst: bytes of credit an idle link may accumulate.
  FairQueue(double capacity, double burst, const Clock* clock);

  void SetCapacity(double capacity) { link_.SetRate(capacity); }
  double capacity() const { return link_.rate(); }
  // job -> share; missing jobs and shares <= 0 are in the lending class.
  void SetShares(const std::map<uint64_t, double>& shares);

  // Queues a request; returns its ticket (unique, > 0).
  uint64_t Enqueue(uint64_t job, uint64_t bytes);
  // Removes a queued request (no-op if already granted).
  void Cancel(uint64_t ticket);
  // Grants the best queued request if the link is free now.
  std::optional<Grant> GrantNext();
  // Seconds until GrantNext can succeed: 0 = now, +inf when nothing is queued.
  double TimeUntilNextGrant() const;
  bool empty() const { return queued_ == 0; }

 private:
  struct Request {
    uint64_t ticket;
    uint64_t bytes;
  };
  struct JobState {
    std::deque<Request> queue;
    double share = 0;      // <= 0: lending class
    double start = 0;      // start tag of the head request (valid when queue non-empty)
    double finish = 0;     // finish tag of the last granted request
  };

  bool Positive(const JobState& j) const { return j.share > 0; }
  double& VirtualTime(const JobState& j) { return Positive(j) ? v_positive_ : v_lending_; }
  void TagHead(JobState& j) { j.start = std::max(VirtualTime(j), j.finish); }
  JobState* PickNext(uint64_t* job_id);
  void Prune();

  TokenBucket link_;
  std::map<uint64_t, JobState> jobs_;
  std::map<uint64_t, double> shares_;
  double v_positive_ = 0;
  double v_lending_ = 0;
  uint64_t next_ticket_ = 1;
  uint64_t queued_ = 0;
};

}  // namespace mr::shuffle
