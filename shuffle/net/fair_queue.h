// FairQueue: the deterministic core of ShareLimiter. Requests (job, bytes) queue per job;
// GrantNext hands out the link (a TokenBucket at `capacity`) one request at a time, choosing
// by start-time fair queueing over jobs weighted by share. Jobs with share 0 (or none) form
// a second class served only when no positive-share job is queued. A job whose queue runs
// dry for at most `resume_grace` seconds after a grant keeps its place, up to its fair share
// of `resume_grace` seconds of the link or one other job's turn, whichever is more (its
// sender was busy, not idle); after a longer pause it restarts from the current virtual
// time. No
// threads, no blocking: time comes from the Clock, so tests drive it with a ManualClock.
// Thread-compatible.
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

  // Long enough to cover a sender thread's wake-up, its send and the next fetch's
  // connection set-up on a loaded host; short enough that a pause is not banked.
  static constexpr double kDefaultResumeGraceSeconds = 0.05;

  // capacity <= 0 means unlimited. burst: bytes of credit an idle link may accumulate.
  // REQUIRES: clock outlives the queue; resume_grace >= 0.
  FairQueue(double capacity, double burst, const Clock* clock,
            double resume_grace = kDefaultResumeGraceSeconds);

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
    double last_grant = -std::numeric_limits<double>::infinity();  // clock time
    double last_step = 0;  // virtual time of its last grant: bytes / weight
  };

  bool Positive(const JobState& j) const { return j.share > 0; }
  double& VirtualTime(const JobState& j) { return Positive(j) ? v_positive_ : v_lending_; }
  bool Resuming(const JobState& j) const { return clock_->Now() - j.last_grant <= resume_grace_; }
  void TagHead(JobState& j);
  double ResumeCredit(const JobState& j) const;
  JobState* PickNext(uint64_t* job_id);
  void Prune();

  const Clock* clock_;
  const double resume_grace_;
  TokenBucket link_;
  std::map<uint64_t, JobState> jobs_;
  std::map<uint64_t, double> shares_;
  double v_positive_ = 0;
  double v_lending_ = 0;
  uint64_t next_ticket_ = 1;
  uint64_t queued_ = 0;
};

}  // namespace mr::shuffle
