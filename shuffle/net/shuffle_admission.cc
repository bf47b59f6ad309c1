// The shuffle server's admission thread: accepts every connection, reads request frames
// without blocking, and hands a connection to a serving thread only once a whole frame has
// arrived. Connections not yet served a request share a bounded pool and a handshake
// deadline (docs/reliability.md "Admission").
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/framing.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "shuffle/net/shuffle_connection.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {

namespace {
// Connections accepted per poll round, after the waiting ones have been read: a flood of
// newcomers cannot push out a connection whose request has already arrived.
constexpr int kAcceptBatch = 16;

SteadyTime Now() { return std::chrono::steady_clock::now(); }

SteadyTime After(double seconds) {
  return Now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(seconds));
}

enum class ReadResult { kMore, kFrame, kClosed };

// Reads what has arrived of the next request frame on non-blocking fd into *in, never past
// the frame's end; a whole frame moves its payload to *frame. kClosed: EOF, an error, or an
// oversized frame (logged).
ReadResult ReadFrameBytes(int fd, std::string* in, std::string* frame) {
  for (;;) {
    size_t want = kFrameHeaderBytes - std::min(in->size(), kFrameHeaderBytes);
    if (want == 0) {
      uint32_t len = DecodeFrameLength(reinterpret_cast<const unsigned char*>(in->data()));
      if (len > kMaxFetchRequestBytes) {
        MR_LOG_WARN("shuffle server: dropping connection: frame of {} bytes exceeds maximum of {}", len,
                    kMaxFetchRequestBytes);
        return ReadResult::kClosed;
      }
      if (in->size() == kFrameHeaderBytes + len) {
        *frame = in->substr(kFrameHeaderBytes);
        in->clear();
        return ReadResult::kFrame;
      }
      want = kFrameHeaderBytes + len - in->size();
    }
    size_t had = in->size();
    in->resize(had + want);
    ssize_t n = ::recv(fd, in->data() + had, want, 0);
    in->resize(had + static_cast<size_t>(std::max<ssize_t>(n, 0)));
    if (n > 0) continue;
    if (n == 0) return ReadResult::kClosed;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? ReadResult::kMore : ReadResult::kClosed;
  }
}
}  // namespace

void ShuffleServer::AcceptLoop() {
  std::vector<pollfd> fds;
  std::vector<short> revents;
  for (;;) {
    TakeReturned();
    fds.assign({{listen_fd_.get(), POLLIN, 0}, {wake_fd_.get(), POLLIN, 0}});
    for (const auto& c : pending_) fds.push_back({c->fd.get(), POLLIN, 0});
    int r = ::poll(fds.data(), fds.size(), PollTimeoutMs());
    if (r < 0 && errno != EINTR) {
      MR_LOG_ERROR("shuffle server: poll failed: {}", std::strerror(errno));
      break;
    }
    uint64_t drained;
    if (fds[1].revents != 0) (void)!::read(wake_fd_.get(), &drained, sizeof(drained));
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) break;
    }
    revents.clear();
    for (size_t i = 2; i < fds.size(); ++i) revents.push_back(r > 0 ? fds[i].revents : 0);
    ReadPending(revents);
    ExpirePending();
    if (r > 0 && fds[0].revents != 0) AcceptNew();
  }
  pending_.clear();
}

int ShuffleServer::PollTimeoutMs() {
  bool any = false;
  SteadyTime first;
  auto consider = [&](SteadyTime t) {
    if (!any || t < first) first = t;
    any = true;
  };
  for (const auto& c : pending_) consider(c->deadline);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& c : ready_) {
      if (!c->established) consider(c->handshake_deadline);
    }
  }
  if (!any) return -1;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(first - Now()).count() + 1;
  return static_cast<int>(std::clamp<int64_t>(ms, 0, 60'000));
}

void ShuffleServer::TakeReturned() {
  std::vector<ConnPtr> back;
  {
    std::lock_guard<std::mutex> lock(mu_);
    back.swap(returned_);
  }
  for (auto& c : back) {
    c->deadline = c->established ? After(options_.idle_timeout_seconds) : c->handshake_deadline;
    c->last_active = Now();
    pending_.push_back(std::move(c));
  }
}

void ShuffleServer::ReadPending(const std::vector<short>& revents) {
  size_t i = 0;
  for (auto it = pending_.begin(); it != pending_.end(); ++i) {
    Connection* c = it->get();
    if (i >= revents.size() || revents[i] == 0) {
      ++it;
      continue;
    }
    size_t had = c->in.size();
    ReadResult r = ReadFrameBytes(c->fd.get(), &c->in, &c->frame);
    if (r == ReadResult::kMore) {
      if (c->in.size() != had) {
        c->last_active = Now();
        // Once a frame has started, the rest must follow within the I/O timeout.
        if (c->established) c->deadline = After(options_.io_timeout_seconds);
      }
      ++it;
      continue;
    }
    ConnPtr conn = std::move(*it);
    it = pending_.erase(it);
    if (r == ReadResult::kFrame) Dispatch(std::move(conn));
  }
}

void ShuffleServer::AcceptNew() {
  // A batch larger than the pool could close a newcomer before its request is looked at.
  const int batch = std::clamp(options_.max_pending_connections / 2, 1, kAcceptBatch);
  for (int n = 0; n < batch; ++n) {
    int fd = ::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // none left, the peer gone already, or EMFILE: the next round retries
    accepted_.fetch_add(1);
    auto c = std::make_unique<Connection>();
    c->fd.Reset(fd);
    c->auth.done = !options_.token.enabled();
    c->handshake_deadline = After(options_.handshake_timeout_seconds);
    c->deadline = c->handshake_deadline;
    c->last_active = Now();
    Admit(std::move(c));
  }
}

void ShuffleServer::Admit(ConnPtr conn) {
  std::lock_guard<std::mutex> lock(mu_);
  // Not-yet-served connections, waiting or with a frame queued, share the pool (serving
  // threads' connections are not counted). At the cap, the one silent longest makes room
  // for the newcomer; a candidate whose bytes have arrived since the last poll is read
  // instead (it is not silent) and the next candidate is tried.
  for (;;) {
    size_t count = 0;
    ConnPtr* victim = nullptr;
    bool victim_waiting = false;  // in pending_, not ready_
    auto consider = [&](ConnPtr& c, bool waiting) {
      if (c->established) return;
      ++count;
      if (victim == nullptr || c->last_active < (*victim)->last_active) {
        victim = &c;
        victim_waiting = waiting;
      }
    };
    for (auto& c : pending_) consider(c, true);
    for (auto& c : ready_) consider(c, false);
    if (victim == nullptr || count < static_cast<size_t>(options_.max_pending_connections)) break;
    if (!victim_waiting || !ReadIfArrived(victim)) victim->reset();  // closes it
    pending_.remove(nullptr);
    ready_.erase(std::remove(ready_.begin(), ready_.end(), nullptr), ready_.end());
  }
  pending_.push_back(std::move(conn));
}

// REQUIRES: mu_ held, *slot a waiting connection in pending_. Reads what it has sent since
// the last poll; a whole frame moves it to ready_. False if nothing arrived. *slot may be
// left null (moved or closed); the caller removes nulls.
bool ShuffleServer::ReadIfArrived(ConnPtr* slot) {
  Connection* c = slot->get();
  pollfd p{c->fd.get(), POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  size_t had = c->in.size();
  ReadResult r = ReadFrameBytes(c->fd.get(), &c->in, &c->frame);
  if (r == ReadResult::kClosed) {
    slot->reset();
  } else if (r == ReadResult::kFrame) {
    DispatchLocked(std::move(*slot));
  } else if (c->in.size() == had) {
    return false;
  } else {
    c->last_active = Now();
  }
  return true;
}

void ShuffleServer::ExpirePending() {
  SteadyTime now = Now();
  pending_.remove_if([&](const ConnPtr& c) { return c->deadline <= now; });
  std::lock_guard<std::mutex> lock(mu_);
  ready_.erase(std::remove_if(ready_.begin(), ready_.end(),
                              [&](const ConnPtr& c) { return !c->established && c->handshake_deadline <= now; }),
               ready_.end());
}

void ShuffleServer::Dispatch(ConnPtr conn) {
  std::lock_guard<std::mutex> lock(mu_);
  DispatchLocked(std::move(conn));
}

void ShuffleServer::DispatchLocked(ConnPtr conn) {
  ready_.push_back(std::move(conn));
  // A frame not covered by a waiting thread gets a new one, up to the cap; past it, it
  // waits for the next thread to finish (backpressure).
  if (ready_.size() > static_cast<size_t>(idle_workers_) &&
      workers_.size() < static_cast<size_t>(options_.threads)) {
    workers_.emplace_back([this] {
      SetThreadName("mr-shuf-send");
      WorkerLoop();
    });
  }
  work_cv_.notify_one();
}

void ShuffleServer::Wake() {
  uint64_t one = 1;
  if (wake_fd_.valid()) (void)!::write(wake_fd_.get(), &one, sizeof(one));
}

}  // namespace mr::shuffle
