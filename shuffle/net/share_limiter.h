// ShareLimiter: one per worker; divides the shuffle server's outgoing capacity between
// jobs. Senders call Acquire(job, bytes) before each chunk; it blocks until the chunk may
// go. A sender may instead Request its next chunk before sending the current one and Wait
// for it after, so its job stays backlogged while the thread is busy. Semantics
// (docs/shuffle.md): backlogged jobs with share > 0 split the capacity in proportion to
// their shares; jobs with share 0 or none get only what those leave unused; capacity
// nobody uses goes to whoever is waiting; the total never exceeds the capacity (plus
// `burst` bytes after idleness). Capacity 0 = unlimited, unless EstimateLink() was called:
// then the capacity is a LinkEstimator's pacing rate, fed by the senders' Delivered and
// SocketFull reports (docs/multi-host.md, "Shares on the wire without a cap"). Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "common/clock.h"
#include "shuffle/net/fair_queue.h"
#include "shuffle/net/link_estimator.h"

namespace mr::shuffle {

class ShareLimiter {
 public:
  static constexpr double kDefaultBurstBytes = 256.0 * 1024;

  // REQUIRES: clock outlives the limiter. The clock decides when the link is free; a
  // blocked sender re-checks it when woken, and at least every 50 ms of real time. With a
  // ManualClock, call ClockAdvanced() after moving it so blocked senders re-check at once.
  explicit ShareLimiter(double capacity_bytes_per_sec, const Clock* clock = SystemClock::Get(),
                        double burst_bytes = kDefaultBurstBytes);
  ~ShareLimiter();
  ShareLimiter(const ShareLimiter&) = delete;
  ShareLimiter& operator=(const ShareLimiter&) = delete;

  void SetShares(const std::map<uint64_t, double>& shares);
  // A capacity > 0 ends link estimation (a declared or configured rate wins).
  void SetCapacity(double capacity_bytes_per_sec);
  double capacity() const;

  // With capacity 0: from now on the capacity follows a LinkEstimator on the limiter's
  // clock (its pacing rate; 0, unlimited, until the link proves to be the bottleneck).
  void EstimateLink(LinkEstimator::Params params = {});
  bool estimating() const;
  // The estimator's link rate B (0 when not estimating or before a first sample).
  double estimated_link_rate() const;
  // Senders' reports for the estimator (no-ops when not estimating): bytes of `job` the
  // receiver has acknowledged; a send of `job` that found its socket buffer full.
  void Delivered(uint64_t job, uint64_t bytes);
  void SocketFull(uint64_t job);
  // Counts bytes of `job` sent without pacing (in bytes_sent and bytes_sent_by_job): an
  // estimating server's replies to its own host, which never cross the link.
  void CountUnpaced(uint64_t job, uint64_t bytes);

  // Blocks until `bytes` of `job` may be sent, and counts them as sent. Returns false
  // (without counting) once Shutdown() has been called. Same as Wait(Request(job, bytes)).
  bool Acquire(uint64_t job, uint64_t bytes);
  // Queues `bytes` of `job` without blocking; returns a ticket for Wait or Cancel (0 after
  // Shutdown()). REQUIRES: every ticket is passed to exactly one Wait or Cancel.
  uint64_t Request(uint64_t job, uint64_t bytes);
  // Blocks until the ticket's bytes may be sent, and counts them as sent. False (not
  // counted) for ticket 0 and once Shutdown() has been called.
  bool Wait(uint64_t ticket);
  // Withdraws a ticket that will not be waited for, granted or not; its bytes are not
  // counted (a granted one has been charged to the link all the same). No-op for 0.
  void Cancel(uint64_t ticket);
  // Wakes every waiter; later Acquire calls return false at once.
  void Shutdown();

  // Wakes blocked senders to re-check the link against the clock. Production never needs
  // it (the SystemClock moves by itself); a test stepping a ManualClock calls it per step.
  void ClockAdvanced();
  // Senders blocked in Wait that have seen the clock since the last ClockAdvanced() and
  // hold no grant: when it equals the number of sender threads, nothing more can happen
  // until the clock moves, so a test may step it (virtual time without races).
  size_t parked() const;

  uint64_t bytes_sent() const;
  std::map<uint64_t, uint64_t> bytes_sent_by_job() const;
  // Drops the job's entry of bytes_sent_by_job() (its bytes stay in bytes_sent()), so a
  // long-running worker does not keep one per job forever; bytes counted later start at 0.
  void ForgetJob(uint64_t job);

 private:
  void CountLocked(uint64_t job, uint64_t bytes);
  bool DispatchLocked();
  void PaceLocked();

  const Clock* clock_;
  mutable std::mutex mu_;
  // State below is protected by mu_.
  std::condition_variable cv_;
  FairQueue queue_;
  std::unique_ptr<LinkEstimator> estimator_;  // set by EstimateLink()
  std::map<uint64_t, FairQueue::Grant> granted_;  // by ticket, until waited for or cancelled
  std::set<uint64_t> parked_;  // tickets of blocked waiters; see parked()
  bool shutdown_ = false;
  uint64_t total_ = 0;
  std::map<uint64_t, uint64_t> by_job_;
};

}  // namespace mr::shuffle
