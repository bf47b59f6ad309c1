#include "shuffle/net/net_io.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "common/framing.h"

namespace mr::shuffle::netio {

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) Reset(o.Release());
  return *this;
}

int UniqueFd::Release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void UniqueFd::Reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

namespace {

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

int TimeoutMs(double timeout_s) {
  if (!std::isfinite(timeout_s) || timeout_s > 1e6) return -1;
  return static_cast<int>(std::ceil(std::max(0.0, timeout_s) * 1000));
}

Status ConnectOne(const asio::ip::tcp::endpoint& ep, double timeout_s, UniqueFd* out) {
  UniqueFd fd(::socket(ep.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return Status::NetworkError(Errno("socket"));
  if (::connect(fd.get(), ep.data(), static_cast<socklen_t>(ep.size())) != 0) {
    if (errno != EINPROGRESS) return Status::NetworkError(Errno("connect"));
    MR_RETURN_IF_ERROR(WaitReady(fd.get(), POLLOUT, timeout_s).WithContext("connect"));
    int err = 0;
    socklen_t len = sizeof(err);
    if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    if (err != 0) return Status::NetworkError(std::string("connect: ") + std::strerror(err));
  }
  int one = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  *out = std::move(fd);
  return Status::Ok();
}

}  // namespace

Result<UniqueFd> ConnectTcp(const std::string& host, uint16_t port, double timeout_s) {
  asio::io_context ctx;
  asio::ip::tcp::resolver resolver(ctx);
  asio::error_code ec;
  auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) return Status::NetworkError("cannot resolve " + host + ": " + ec.message());
  Status last = Status::NetworkError("no address for " + host);
  for (const auto& entry : endpoints) {
    UniqueFd fd;
    last = ConnectOne(entry.endpoint(), timeout_s, &fd);
    if (last.ok()) return fd;
  }
  return last;
}

Status WaitReady(int fd, short events, double timeout_s) {
  pollfd p{fd, events, 0};
  for (;;) {
    int r = ::poll(&p, 1, TimeoutMs(timeout_s));
    if (r > 0) return Status::Ok();  // POLLERR/POLLHUP surface on the following syscall
    if (r == 0) return Status::NetworkError("timed out after " + std::to_string(timeout_s) + " s");
    if (errno != EINTR) return Status::NetworkError(Errno("poll"));
  }
}

Result<size_t> ReadSome(int fd, char* buf, size_t n, double timeout_s) {
  for (;;) {
    ssize_t r = ::recv(fd, buf, n, MSG_DONTWAIT);
    if (r >= 0) return static_cast<size_t>(r);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return Status::NetworkError(Errno("recv"));
    MR_RETURN_IF_ERROR(WaitReady(fd, POLLIN, timeout_s));
  }
}

Status ReadFull(int fd, char* buf, size_t n, double timeout_s) {
  size_t got = 0;
  while (got < n) {
    MR_ASSIGN_OR_RETURN(size_t r, ReadSome(fd, buf + got, n - got, timeout_s));
    if (r == 0) {
      return Status::NetworkError("connection closed after " + std::to_string(got) + " of " +
                                  std::to_string(n) + " bytes");
    }
    got += r;
  }
  return Status::Ok();
}

Status WriteFull(int fd, const char* buf, size_t n, double timeout_s, int flags) {
  size_t sent = 0;
  while (sent < n) {
    ssize_t r = ::send(fd, buf + sent, n - sent, flags | MSG_NOSIGNAL | MSG_DONTWAIT);
    if (r >= 0) {
      sent += static_cast<size_t>(r);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return Status::NetworkError(Errno("send"));
    MR_RETURN_IF_ERROR(WaitReady(fd, POLLOUT, timeout_s));
  }
  return Status::Ok();
}

Result<std::string> ReadFrameFd(int fd, uint32_t max_bytes, double first_byte_timeout_s,
                                double timeout_s) {
  unsigned char header[kFrameHeaderBytes];
  MR_ASSIGN_OR_RETURN(size_t first, ReadSome(fd, reinterpret_cast<char*>(header), kFrameHeaderBytes,
                                             first_byte_timeout_s));
  if (first == 0) return Status::NetworkError("connection closed by peer");
  MR_RETURN_IF_ERROR(ReadFull(fd, reinterpret_cast<char*>(header) + first, kFrameHeaderBytes - first,
                              timeout_s));
  uint32_t len = DecodeFrameLength(header);
  if (len > max_bytes) {
    return Status::ProtocolError("frame of " + std::to_string(len) + " bytes exceeds maximum of " +
                                 std::to_string(max_bytes));
  }
  std::string payload(len, '\0');
  MR_RETURN_IF_ERROR(ReadFull(fd, payload.data(), len, timeout_s));
  return payload;
}

Status WriteFrameFd(int fd, std::string_view payload, double timeout_s, int flags) {
  std::string frame = EncodeFrame(payload);
  return WriteFull(fd, frame.data(), frame.size(), timeout_s, flags);
}

SigPipeBlocker::SigPipeBlocker() {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  was_blocked_ = sigismember(&old, SIGPIPE) == 1;
}

SigPipeBlocker::~SigPipeBlocker() {
  if (was_blocked_) return;
  sigset_t pipe_only, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  // Discard SIGPIPEs raised in this thread while blocked; unblocking would deliver them.
  while (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
    timespec zero{};
    if (sigtimedwait(&pipe_only, nullptr, &zero) < 0) break;
  }
  pthread_sigmask(SIG_UNBLOCK, &pipe_only, nullptr);
}

}  // namespace mr::shuffle::netio
