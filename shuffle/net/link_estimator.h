// LinkEstimator: how many payload bytes/s a shuffle server's link delivers, estimated while
// the server is backlogged, so that a ShareLimiter with no configured capacity can still
// divide the link among jobs by their shares (docs/multi-host.md, "Shares on the wire
// without a cap"). Without it, an uncapped server hands every chunk to TCP at once and the
// bottleneck's FIFO queue splits the link by connections, whatever the shares.
//
// The estimate is a windowed maximum of the delivery rate, as in BBR's bottleneck-bandwidth
// filter: time is cut into rounds of `round_seconds`; a round's delivery rate is the bytes
// the receivers acknowledged in it / round_seconds. A round counts as a sample when the
// sender was backlogged in it (a send found its socket buffer full, or a chunk waited for
// the pacer); a round that was not backlogged counts only if it raises the estimate. A
// backlogged round's sample is the delivery rate over the last `sample_rounds` rounds, all
// backlogged (acknowledgements come in lumps: one round's rate measured up to 1.21 x the
// link on 20 MB/s links, and the maximum kept the overshoot); the first rounds of a backlog
// give none. The estimate B is the largest sample of the last `window_rounds` rounds.
//
// States:
//  - unpaced (pacing rate 0: nothing limits the sender): the start, and after any doubt.
//    A round in which sends found the socket full while at least two jobs were sending
//    proves the link is the bottleneck and the shares matter: once there is an estimate,
//    pacing starts (at the drain phase, to empty the queues TCP filled).
//  - paced: the pacing rate is gain x B, the gain cycling per round through
//    probe (1.25), drain (0.75), then cruise (0.97) for the rest of the `cycle_rounds`.
//    Cruising a little under B keeps the pacer, not the link, the bottleneck (so the shares,
//    not TCP, split it); the probe asks the link for more than B, and the drain empties
//    what the probe queued. A probe round in which no send found its socket full means the
//    link carried 1.25 x B without queueing: the estimate is stale, so the estimator goes
//    back to unpaced (work-conserving: it never holds the senders below a faster link for
//    more than a round). `idle_rounds` rounds in a row without backlog also end pacing.
//
// No threads and no blocking; time comes from the Clock, so tests drive it with a
// ManualClock. Thread-compatible (the ShareLimiter calls it under its mutex).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <utility>

#include "common/clock.h"

namespace mr::shuffle {

class LinkEstimator {
 public:
  struct Params {
    double round_seconds = 0.25;
    int window_rounds = 10;  // > cycle_rounds: the window always holds the last probe
    int cycle_rounds = 8;
    double probe_gain = 1.25;
    double drain_gain = 0.75;
    double cruise_gain = 0.97;
    int idle_rounds = 8;
    int sample_rounds = 2;  // >= 1; 1 = each round alone (the estimator before 2026-11-28)
  };

  // What one closed round saw and decided, for the log (docs/multi-host.md reads the
  // pacing episodes from it). `event` is null when the state did not change, else why it
  // changed: "enter" (a full socket with two jobs sending), "exit-probe" (the probe found
  // headroom), "exit-idle" (idle_rounds without backlog).
  struct RoundRecord {
    int64_t round = 0;
    double rate = 0;  // bytes acknowledged / round_seconds
    bool socket_full = false;
    bool pace_limited = false;  // a chunk waited for the pacer (and no socket was full)
    size_t jobs = 0;
    double bandwidth = 0;     // B after the round
    double pacing_rate = 0;   // for the next round; 0 = unpaced
    const char* event = nullptr;
  };
  using Observer = std::function<void(const RoundRecord&)>;

  // REQUIRES: clock outlives the estimator; round_seconds > 0; window_rounds >= 1;
  // cycle_rounds >= 3.
  explicit LinkEstimator(const Clock* clock) : LinkEstimator(clock, Params{}) {}
  LinkEstimator(const Clock* clock, Params params);

  // Events of the current round (closed lazily by Update()).
  void OnDelivered(double bytes);  // acknowledged by the receivers
  void OnSocketFull();             // a send waited for room in its socket buffer
  void OnPaceLimited();            // a chunk waited for the pacer
  void OnJobSending(uint64_t job);

  // Closes every round that ended by now and returns the pacing rate in bytes/s (0 = do
  // not pace).
  double Update();

  bool paced() const { return paced_; }
  double bandwidth() const { return bandwidth_; }  // B; 0 until a first sample
  double pacing_rate() const;
  const Params& params() const { return params_; }
  // Called with every closed round that delivered bytes, was backlogged or changed state, after its
  // decision; runs inside Update(), so under the caller's lock.
  void SetObserver(Observer observer) { observer_ = std::move(observer); }

 private:
  void CloseRound(bool empty);
  void AddSample(double rate, bool backlogged);
  void Unpace();

  const Clock* clock_;
  const Params params_;
  double round_start_;
  int64_t round_ = 0;  // index of the current round
  // The current round's events.
  double delivered_ = 0;
  bool socket_full_ = false;
  bool pace_limited_ = false;
  std::set<uint64_t> jobs_;
  // The bytes of the last rounds while backlogged (newest last, at most sample_rounds).
  std::deque<double> recent_;
  bool sampled_ = false;  // a backlogged sample was taken while unpaced (entry needs one)
  // (round, rate) samples still in the window, for the maximum.
  std::deque<std::pair<int64_t, double>> samples_;
  double bandwidth_ = 0;
  bool paced_ = false;
  int phase_ = 0;  // paced: 0 probe, 1 drain, 2.. cruise (the current round's gain)
  int idle_ = 0;   // paced: rounds in a row without backlog
  Observer observer_;
};

}  // namespace mr::shuffle
