#include "shuffle/net/ack_counter.h"

#include <linux/sockios.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "shuffle/net/net_io.h"

namespace mr::shuffle {

bool PeerIsThisHost(int sock) {
  sockaddr_storage self{}, peer{};
  socklen_t self_len = sizeof self, peer_len = sizeof peer;
  if (::getsockname(sock, reinterpret_cast<sockaddr*>(&self), &self_len) != 0 ||
      ::getpeername(sock, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 || self.ss_family != peer.ss_family) {
    return false;
  }
  if (self.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(self);
    const auto& b = reinterpret_cast<const sockaddr_in&>(peer);
    return a.sin_addr.s_addr == b.sin_addr.s_addr;
  }
  if (self.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(self);
    const auto& b = reinterpret_cast<const sockaddr_in6&>(peer);
    return std::memcmp(&a.sin6_addr, &b.sin6_addr, sizeof a.sin6_addr) == 0;
  }
  return false;
}

AckCounter::AckCounter(ShareLimiter* limiter, int sock, uint64_t job)
    : limiter_(limiter), sock_(sock), job_(job), active_(limiter->estimating()) {
  if (active_) base_ = Queued();
  if (base_ < 0) active_ = false;  // not a TCP socket we can read: report nothing
}

int64_t AckCounter::Queued() const {
  int queued = 0;
  if (::ioctl(sock_, SIOCOUTQ, &queued) != 0) return -1;
  return queued;
}

void AckCounter::Report() {
  const int64_t queued = Queued();
  if (queued < 0) return;
  const int64_t acked = base_ + handed_ - queued;
  if (acked > reported_) {
    limiter_->Delivered(job_, static_cast<uint64_t>(acked - reported_));
    reported_ = acked;
  }
}

void AckCounter::Handed(uint64_t bytes) {
  if (!active_) return;
  handed_ += static_cast<int64_t>(bytes);
  Report();
}

void AckCounter::SocketFull() {
  if (!active_) return;
  limiter_->SocketFull(job_);
  Report();
}

Status AckCounter::WaitWritable(double timeout_s, double slice_s) {
  if (!active_) return netio::WaitReady(sock_, POLLOUT, timeout_s);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return Status::NetworkError("timed out after " + std::to_string(timeout_s) + " s");
    pollfd p{sock_, POLLOUT, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::ceil(std::min(left, slice_s) * 1000)));
    Report();
    if (r > 0) return Status::Ok();  // POLLERR/POLLHUP surface on the following send
    if (r < 0 && errno != EINTR) return Status::NetworkError(std::string("poll: ") + std::strerror(errno));
  }
}

void AckCounter::Drain(double max_seconds) {
  if (!active_) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  for (;;) {
    Report();
    const int64_t queued = Queued();
    if (queued <= 0 || std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace mr::shuffle
