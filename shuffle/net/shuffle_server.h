// ShuffleServer: serves map-output partitions to reducers over TCP (protocol in
// docs/shuffle.md). One admission thread accepts every connection and polls the ones
// waiting for their next request frame (no thread per waiting connection); a connection
// gets one of at most `threads` serving threads only once a whole request frame has
// arrived, and goes back to the poller after the reply (keep-alive). Connections that have
// not yet had a request served share a bounded pool (max_pending_connections, the one
// silent longest is closed for a newcomer) and a handshake deadline, so silent peers can
// never hold a serving thread (docs/reliability.md "Admission"). Data goes out with
// sendfile, paced per job by a ShareLimiter. Start() binds and returns a running server;
// Stop() (or the destructor) closes the listener and every connection and joins all
// threads. A fetcher on this host may ask for the data file instead of the bytes and link
// it (FetchRequest.link). Public methods are thread-safe.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/auth.h"
#include "common/clock.h"
#include "common/status.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/share_limiter.h"

namespace mr::proto {
class InputRequest;
class OutputRequest;
}

namespace mr::shuffle {

class AckCounter;

inline constexpr uint32_t kMaxFetchRequestBytes = 64u << 10;

struct ShuffleServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;                     // 0 = ephemeral, see port()
  std::string work_dir;                  // map outputs live under MapOutputDir(work_dir, job)
  double bandwidth = 0;                  // bytes/s shared by all jobs; 0 = unlimited
  // With bandwidth 0: estimate the link while backlogged and pace the shares at the estimate
  // (ShareLimiter::EstimateLink, docs/multi-host.md). False: TCP divides the link.
  bool estimate_link = false;
  int threads = 256;                     // max requests served at once (one thread each)
  double idle_timeout_seconds = 120;     // keep-alive connection with no request is closed
  double io_timeout_seconds = 30;        // a peer that stops reading/writing this long is dropped
  uint64_t throttled_chunk_bytes = 256u << 10;  // unit of rate limiting when bandwidth > 0
  const Clock* clock = SystemClock::Get();
  auth::ClusterToken token;              // set: fetchers must authenticate first (docs/reliability.md)
  double handshake_timeout_seconds = 10; // an unauthenticated connection that stays silent is dropped
  int max_pending_connections = 256;     // connections not yet served a request; see above
  // Directories whose files this server hands out as job inputs (InputRequest; a data server,
  // docs/multi-host.md). Empty: it serves no inputs. A path outside them, also through a
  // symbolic link, is refused (PermissionDenied). With only roots and no work_dir, it serves
  // no map output.
  std::vector<std::string> input_roots;
  // Directories under which jobs' output directories may be made, written, committed and
  // removed (OutputRequest; `mr data-server --export-output`, docs/multi-host.md "Outputs").
  // Paths outside them, also through a symbolic link, are refused; a root itself is never
  // removed.
  std::vector<std::string> output_roots;
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
  // The link estimator's rate B in bytes/s (0: not estimating, or no sample yet).
  double estimated_link_rate() const { return limiter_.estimated_link_rate(); }
  // Partition bytes handed to the network, or to a reducer on this host as a link (reply
  // frames not counted).
  uint64_t bytes_sent() const { return limiter_.bytes_sent(); }
  std::map<uint64_t, uint64_t> bytes_sent_by_job() const { return limiter_.bytes_sent_by_job(); }
  void ForgetJob(uint64_t job) { limiter_.ForgetJob(job); }
  // Fetches answered with data (error replies not counted) / connections accepted. A fetch
  // is counted once: a granted link the fetcher could not make, and whose bytes it then asked
  // for on the same connection, is one request served, its bytes counted once (at the grant).
  uint64_t requests_served() const { return requests_.load(); }
  // Of those, fetches answered with the data file for a reducer on this host to link
  // (FetchRequest.link) and not fallen back from: no bytes sent.
  uint64_t links_served() const {
    const uint64_t fallbacks = link_fallbacks_.load();  // first: each follows its grant
    return links_.load() - fallbacks;
  }
  // Granted links whose bytes the fetcher asked for next on the same connection (sent, the
  // fetch not counted again).
  uint64_t link_fallbacks() const { return link_fallbacks_.load(); }
  uint64_t connections_accepted() const { return accepted_.load(); }
  // Idempotent.
  void Stop();

 private:
  struct Connection;
  struct OpenPartition;
  using ConnPtr = std::unique_ptr<Connection>;

  Status Bind();
  // Admission thread (shuffle_admission.cc): accepts, reads request frames, enforces the
  // pending pool and deadlines, and hands connections with a whole frame to serving threads.
  void AcceptLoop();
  int PollTimeoutMs();
  void TakeReturned();
  void ReadPending(const std::vector<short>& revents);
  void AcceptNew();
  void Admit(ConnPtr conn);
  void ExpirePending();
  bool ReadIfArrived(ConnPtr* slot);
  void Dispatch(ConnPtr conn);
  void DispatchLocked(ConnPtr conn);
  // Serving threads.
  void WorkerLoop();
  bool Handle(Connection* conn);
  Status ServeRequest(Connection* conn, bool* keep_open);
  // An InputRequest (shuffle/net/input_serving.cc): the local source's answer, for exported paths.
  Status ServeInput(int fd, const proto::InputRequest& req);
  // An OutputRequest (shuffle/net/output_serving.cc): an operation on an exported output
  // directory; a WRITE's bytes are read from fd after the frame.
  Status ServeOutput(int fd, const proto::OutputRequest& req);
  Result<OpenPartition> Open(uint64_t job, uint32_t map, uint32_t attempt, uint32_t partition) const;
  Status SendRange(int sock, int file, uint64_t offset, uint64_t length, uint64_t job);
  // Sends without pacing, in kUnthrottledChunkBytes chunks; counts them for `job` if `count`.
  Status SendUnpaced(int sock, int file, uint64_t offset, uint64_t length, uint64_t job, bool count);
  // acks: where the link estimator's reports go; nullptr: none.
  Status SendChunk(int sock, int file, off_t* offset, uint64_t bytes, AckCounter* acks);
  void Wake();

  const ShuffleServerOptions options_;
  ShareLimiter limiter_;
  uint16_t port_ = 0;
  netio::UniqueFd listen_fd_;
  netio::UniqueFd wake_fd_;  // eventfd: wakes the admission thread's poll
  std::thread accept_thread_;
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> links_{0};  // link grants, fallen back from or not
  std::atomic<uint64_t> link_fallbacks_{0};
  std::atomic<uint64_t> accepted_{0};
  // Owned by the admission thread: connections waiting for (the rest of) a request frame.
  std::list<ConnPtr> pending_;

  std::mutex mu_;
  // State below is protected by mu_.
  std::condition_variable work_cv_;      // ready_ gained a connection, or stopping_
  std::deque<ConnPtr> ready_;            // a whole frame in hand, waiting for a thread
  std::vector<ConnPtr> returned_;        // served, kept open: back to the admission thread
  std::vector<Connection*> serving_;     // owned by a serving thread right now
  std::vector<std::thread> workers_;     // at most options_.threads, started on demand
  int idle_workers_ = 0;
  bool stopping_ = false;
};

}  // namespace mr::shuffle
