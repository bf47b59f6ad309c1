// AckCounter: how many bytes of one reply the receiver has acknowledged, read from the
// socket itself (bytes handed to it minus bytes still in its send queue, SIOCOUTQ), and
// reported to a ShareLimiter's link estimator as they are acknowledged (docs/multi-host.md,
// "Shares on the wire without a cap"). Acknowledged, not handed: sendfile returns once the
// bytes are in the socket buffer, which holds up to megabytes, so handed bytes run ahead of
// the link by a buffer whenever it fills. Does nothing unless the limiter is estimating.
// One per reply, used by the serving thread that owns the socket.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "shuffle/net/share_limiter.h"

namespace mr::shuffle {

// Whether the peer of a connected socket has this socket's own address: a reducer on the
// same host, whose fetch goes over loopback and never crosses the link (false on error).
bool PeerIsThisHost(int sock);

class AckCounter {
 public:
  // REQUIRES: limiter outlives the counter; sock is a connected TCP socket.
  AckCounter(ShareLimiter* limiter, int sock, uint64_t job);

  bool active() const { return active_; }
  // sendfile handed `bytes` to the socket: reports what has been acknowledged since.
  void Handed(uint64_t bytes);
  // A send waited for room in the socket buffer.
  void SocketFull();
  // Waits until the socket has room for more (POLLOUT), at most timeout_s (NetworkError
  // after, as netio::WaitReady), reporting what the receiver acknowledges every slice_s
  // meanwhile. Without the slices a sender blocked on a full socket reported a whole
  // wakeup's worth at once (up to half the socket buffer), and one round's delivery rate
  // read up to 1.21 x the link. Not active: a plain wait.
  Status WaitWritable(double timeout_s, double slice_s = 0.01);
  // Bytes reported to the limiter as acknowledged so far.
  uint64_t reported() const { return static_cast<uint64_t>(reported_); }
  // Waits until the socket's send queue is empty (polling every millisecond, at most
  // `max_seconds` of real time), reporting acknowledgements, so the estimator sees the tail
  // of the reply in the round it was delivered. The reply's reader needs those bytes anyway.
  void Drain(double max_seconds);

 private:
  int64_t Queued() const;  // bytes in the send queue, not yet acknowledged; -1 on error
  void Report();

  ShareLimiter* limiter_;
  int sock_;
  uint64_t job_;
  bool active_;
  int64_t base_ = 0;      // queued when the reply started (its header frame, an earlier reply)
  int64_t handed_ = 0;
  int64_t reported_ = 0;  // acknowledged and reported so far
};

}  // namespace mr::shuffle
