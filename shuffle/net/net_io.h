// Small POSIX socket helpers private to the shuffle: an owning fd, connect and full
// reads/writes with an inactivity timeout (poll-based, so a stalled peer cannot hang a
// thread), and frame I/O on raw fds. Asio sets sockets up; the data path uses the fd so it
// can use sendfile(2) and be woken by shutdown(2). Functions are thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::shuffle::netio {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { Reset(); }
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.Release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release();
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

// Connects to host:port (names resolved via Asio), waiting at most timeout_s. The
// returned socket is non-blocking with TCP_NODELAY set.
Result<UniqueFd> ConnectTcp(const std::string& host, uint16_t port, double timeout_s);

// Waits until fd is ready for `events` (POLLIN/POLLOUT); NetworkError after timeout_s.
Status WaitReady(int fd, short events, double timeout_s);
// Reads exactly n bytes; each wait for progress is bounded by timeout_s. A peer close
// before n bytes is NetworkError ("connection closed").
Status ReadFull(int fd, char* buf, size_t n, double timeout_s);
// Reads up to n bytes (at least 1); returns 0 only on orderly close.
Result<size_t> ReadSome(int fd, char* buf, size_t n, double timeout_s);
// Writes all n bytes. flags are passed to send(2) (e.g. MSG_MORE).
Status WriteFull(int fd, const char* buf, size_t n, double timeout_s, int flags = 0);

// Frames as in common/framing.h. ReadFrameFd waits up to first_byte_timeout_s for the
// header to start (keep-alive idleness), then timeout_s per step. Oversized = ProtocolError.
Result<std::string> ReadFrameFd(int fd, uint32_t max_bytes, double first_byte_timeout_s,
                                double timeout_s);
Status WriteFrameFd(int fd, std::string_view payload, double timeout_s, int flags = 0);

// sendfile(2) has no MSG_NOSIGNAL: writing to a socket whose peer has gone raises SIGPIPE,
// whose default action kills the process. While a SigPipeBlocker lives, SIGPIPE is blocked
// in the calling thread (a synchronous SIGPIPE is thread-directed, so it stays pending here
// and sendfile returns EPIPE); the destructor discards a pending one and restores the mask.
// The process-wide disposition is left alone, so spawned programs see the default.
class SigPipeBlocker {
 public:
  SigPipeBlocker();
  ~SigPipeBlocker();
  SigPipeBlocker(const SigPipeBlocker&) = delete;
  SigPipeBlocker& operator=(const SigPipeBlocker&) = delete;

 private:
  bool was_blocked_ = false;
};

}  // namespace mr::shuffle::netio
