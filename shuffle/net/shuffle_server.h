// ShuffleServer: serves map-output partitions to reducers over TCP (protocol in
// docs/shuffle.md). One acceptor thread plus one thread per connection (blocking-style I/O
// with poll timeouts, sendfile for the data); outgoing bytes are paced per job by a
// ShareLimiter. Start() binds and returns a running server; Stop() (or the destructor)
// closes the listener and every connection and joins all threads. Public methods are
// thread-safe.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/auth.h"
#include "common/clock.h"
#include "common/status.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/share_limiter.h"

namespace mr::shuffle {

inline constexpr uint32_t kMaxFetchRequestBytes = 64u << 10;

struct ShuffleServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;                     // 0 = ephemeral, see port()
  std::string work_dir;                  // map outputs live under MapOutputDir(work_dir, job)
  double bandwidth = 0;                  // bytes/s shared by all jobs; 0 = unlimited
  int threads = 256;                     // max concurrent connections (one thread each)
  double idle_timeout_seconds = 120;     // keep-alive connection with no request is closed
  double io_timeout_seconds = 30;        // a peer that stops reading/writing this long is dropped
  uint64_t throttled_chunk_bytes = 256u << 10;  // unit of rate limiting when bandwidth > 0
  const Clock* clock = SystemClock::Get();
  auth::ClusterToken token;              // set: fetchers must authenticate first (docs/reliability.md)
  double handshake_timeout_seconds = 10; // an unauthenticated connection that stays silent is dropped
};

class ShuffleServer {
  struct PrivateTag {
    explicit PrivateTag() = default;
  };

 public:
  // Binds host:port and starts serving. NetworkError if the address cannot be bound,
  // InvalidArgument for bad options.
  static Result<std::unique_ptr<ShuffleServer>> Start(const ShuffleServerOptions& options);
  ShuffleServer(PrivateTag, const ShuffleServerOptions& options);  // use Start()
  ~ShuffleServer();
  ShuffleServer(const ShuffleServer&) = delete;
  ShuffleServer& operator=(const ShuffleServer&) = delete;

  uint16_t port() const { return port_; }
  // Per-job shares of the bandwidth (see ShareLimiter); takes effect for the next chunk.
  void SetShares(const std::map<uint64_t, double>& shares) { limiter_.SetShares(shares); }
  void SetBandwidth(double bytes_per_sec) { limiter_.SetCapacity(bytes_per_sec); }
  // Partition bytes handed to the network (reply frames not counted).
  uint64_t bytes_sent() const { return limiter_.bytes_sent(); }
  std::map<uint64_t, uint64_t> bytes_sent_by_job() const { return limiter_.bytes_sent_by_job(); }
  void ForgetJob(uint64_t job) { limiter_.ForgetJob(job); }
  // Requests answered with data (error replies not counted) / connections accepted.
  uint64_t requests_served() const { return requests_.load(); }
  uint64_t connections_accepted() const { return accepted_.load(); }
  // Idempotent.
  void Stop();

 private:
  struct Connection;
  struct OpenPartition;

  Status Bind();
  void AcceptLoop();
  void ReapFinishedLocked();
  void Serve(Connection* conn);
  Status ServeRequest(int fd, const std::string& frame, bool* keep_open);
  Result<OpenPartition> Open(uint64_t job, uint32_t map, uint32_t attempt, uint32_t partition) const;
  Status SendRange(int sock, int file, uint64_t offset, uint64_t length, uint64_t job);
  Status SendChunk(int sock, int file, off_t* offset, uint64_t bytes);

  const ShuffleServerOptions options_;
  ShareLimiter limiter_;
  uint16_t port_ = 0;
  netio::UniqueFd listen_fd_;
  netio::UniqueFd wake_fd_;  // eventfd: wakes the acceptor's poll on Stop()
  std::thread accept_thread_;
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> accepted_{0};

  std::mutex mu_;
  // State below is protected by mu_.
  std::condition_variable slot_freed_;
  std::list<std::unique_ptr<Connection>> connections_;
  int active_ = 0;
  bool stopping_ = false;
};

}  // namespace mr::shuffle
