// Fetcher: the reducer side of the shuffle. Fetches one map's partition from a
// ShuffleServer into a local file, written under a temporary name of the fetch's own
// (dest_path + ".a<attempt>.<n>.tmp") and committed on success, so a partial or corrupt fetch
// never looks complete (on failure the temporary file is removed). Two fetches into one
// dest_path may overlap (two attempts of a map): the first run committed stays, and a later
// fetch returns that run's result (shuffle/net/run_commit.h).
// The bytes' CRC32C is computed as they arrive and compared with the one the server sends
// from the map output's index (docs/shuffle.md). Error classes, which callers act on
// (shuffle/net/fetch_blame.h maps them to FetchEvent.cause):
//   DataLoss     the source's copy is proven bad: the bytes failed their checksum, or the
//                server found its index or data file corrupt or short;
//   NotFound     the server does not have that map output;
//   IoError      the FETCHING side's own file failed (create, reserve, write, close,
//                rename of the local run file, e.g. ENOSPC);
//   NetworkError connect, read or write failed, timed out, or the peer closed early;
//   ProtocolError any other server error or a malformed reply;
//   PermissionDenied authentication refused, or a server that cannot prove `token`.
// Every error names host:port, job, map, attempt and partition. With a token, each new
// connection first authenticates both ways (docs/reliability.md). timeout_seconds bounds
// each wait for progress, not the whole fetch, so a slow but moving throttled transfer is
// never cut off.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/auth.h"
#include "common/clock.h"
#include "common/status.h"
#include "shuffle/net/net_io.h"

namespace mr::shuffle {

struct FetchTarget {
  std::string host;
  uint16_t port = 0;
  uint64_t job_id = 0;
  uint32_t map_index = 0;
  uint32_t attempt = 0;
  uint32_t partition = 0;
  // The source is on this host: ask its shuffle server to answer with the map output's data
  // file instead of its bytes, and link that file as the run (FetchRequest.link,
  // shuffle/net/local_fetch.h LinkPartition). The server must still answer, so a stopped or
  // dead source fails the fetch as it would over the network. Where the server sends the
  // bytes, or the file cannot be linked from here, the run is received as without it.
  bool link = false;
  // Optional: set to the partition's bytes received so far as they arrive (0 again if a
  // reused connection's try is redone on a fresh one), for a reader on another thread.
  std::atomic<uint64_t>* received = nullptr;
};

struct FetchResult {
  uint64_t bytes = 0;
  uint64_t records = 0;
  double start_time = 0;  // clock->Now() before connecting
  double end_time = 0;    // clock->Now() after the file was renamed into place
  uint32_t crc32c = 0;    // of the fetched bytes (verified against the server's)
  // Where the run starts in the destination file: 0 for a fetched copy; a linked run
  // (shuffle/net/local_fetch.h) is the map output's whole data file.
  uint64_t offset = 0;
};

// The fetcher's side of the handshake on a fresh connection to a shuffle or data server
// (docs/reliability.md): sends our challenge, checks the server's proof, and returns our
// proof for the server's challenge, which must travel with the first request.
// PermissionDenied if either side does not hold `token`. REQUIRES: token.enabled().
Result<std::string> AuthenticateToServer(int sock, const auth::ClusterToken& token, double timeout);
// A shuffle server's error reply (FetchReply.error, Status::ToString() text) as a Status:
// NotFound, DataLoss and PermissionDenied keep their code, anything else is ProtocolError.
Status ShuffleServerError(const std::string& error);

// One fetch on a fresh connection (closed afterwards). Thread-safe.
Result<FetchResult> FetchPartition(const FetchTarget& target, const std::string& dest_path,
                                   double timeout_seconds, const Clock* clock = SystemClock::Get(),
                                   const auth::ClusterToken& token = {});

// Same contract, but keeps up to max_idle_per_peer idle connections per host:port and
// reuses them (the server supports keep-alive). A reused connection that turns out to be
// closed by the server is retried once on a fresh one. Thread-safe.
class Fetcher {
 public:
  explicit Fetcher(double timeout_seconds = 30, const Clock* clock = SystemClock::Get(),
                   size_t max_idle_per_peer = 4, auth::ClusterToken token = {});

  Result<FetchResult> Fetch(const FetchTarget& target, const std::string& dest_path);
  size_t idle_connections() const;

 private:
  netio::UniqueFd TakeIdle(const std::string& peer);
  void ReturnIdle(const std::string& peer, netio::UniqueFd fd);

  const double timeout_;
  const Clock* clock_;
  const size_t max_idle_;
  const auth::ClusterToken token_;
  mutable std::mutex mu_;
  std::map<std::string, std::vector<netio::UniqueFd>> idle_;  // guarded by mu_
};

}  // namespace mr::shuffle
