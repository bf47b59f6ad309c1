#include "shuffle/net/fetcher.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/file_util.h"
#include "common/log.h"
#include "common/version.h"
#include "mr.pb.h"
#include "shuffle/net/local_fetch.h"
#include "shuffle/net/receive_to_file.h"
#include "shuffle/net/run_commit.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {

namespace {

std::string Describe(const FetchTarget& t) {
  return "fetch job " + std::to_string(t.job_id) + " map " + std::to_string(t.map_index) + " attempt " +
         std::to_string(t.attempt) + " partition " + std::to_string(t.partition) + " from " + t.host +
         ":" + std::to_string(t.port);
}

// The server sends Status::ToString() text: keep NotFound and DataLoss (its copy is
// unusable), report anything else as a protocol-level refusal carrying the server's words.
Status ServerError(const std::string& error) {
  static const std::string kNotFound = "NotFound: ";
  static const std::string kDataLoss = "DataLoss: ";
  static const std::string kDenied = "PermissionDenied: ";
  if (error.rfind(kNotFound, 0) == 0) return Status::NotFound(error.substr(kNotFound.size()));
  if (error.rfind(kDataLoss, 0) == 0) return Status::DataLoss("source: " + error.substr(kDataLoss.size()));
  if (error.rfind(kDenied, 0) == 0) return Status::PermissionDenied(error.substr(kDenied.size()));
  return Status::ProtocolError("server refused: " + error);
}

// Test seam, for the full-disk tests on a machine that cannot mount a small tmpfs
// (tests/cluster/full_disk_test.cc, tests/shuffle/fetch_blame_test.cc; docs/reliability.md):
// with MR_TEST_FULL_DISK="BYTES:DIR" in the environment, DIR acts as a file system of BYTES
// bytes for the fetcher: reserving a file under DIR fails with ENOSPC when the regular files
// already there and the new one would not fit. Unset, it costs one getenv per fetch.
bool InjectedDiskFull(const std::string& path, uint64_t length) {
  const char* spec = std::getenv("MR_TEST_FULL_DISK");
  if (spec == nullptr) return false;
  const std::string text(spec);
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  const uint64_t capacity = std::strtoull(text.substr(0, colon).c_str(), nullptr, 10);
  const std::string dir = text.substr(colon + 1);
  if (dir.empty() || path.compare(0, dir.size() + 1, dir + "/") != 0) return false;
  uint64_t used = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) used += e.file_size(ec);
  }
  return used + length > capacity;
}

// Allocates the file's blocks up front. On ext4 this takes the per-block delayed-allocation
// bookkeeping out of every write (profiled: ext4_da_write_begin fell from 23 % to 16 % of
// the fetch's CPU samples; bytes per CPU-second +15 %), and a full disk fails here rather
// than midway. File systems
// without fallocate simply skip it.
Status Reserve(int file, uint64_t length, const std::string& path) {
  if (length > 0 && InjectedDiskFull(path, length)) {
    errno = ENOSPC;
  } else if (length == 0 || ::fallocate(file, 0, 0, static_cast<off_t>(length)) == 0) {
    return Status::Ok();
  }
  if (errno == EOPNOTSUPP || errno == ENOSYS) return Status::Ok();
  return Status::IoError("cannot reserve " + std::to_string(length) + " bytes for " + path + ": " +
                         std::strerror(errno));
}

// Read-write: the CRC of spliced bytes is computed by reading them back (receive_to_file.h).
Status ReceiveToFile(int sock, uint64_t length, const std::string& path, double timeout, uint32_t* crc,
                     std::atomic<uint64_t>* received) {
  netio::UniqueFd file(::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!file.valid()) return Status::IoError("cannot create " + path + ": " + std::strerror(errno));
  MR_RETURN_IF_ERROR(Reserve(file.get(), length, path));
  auto r = netio::ReceiveToFile(sock, file.get(), length, timeout, netio::ReceiveMethod::kAuto, crc, received);
  // A file error names the file; a socket error is named by the caller (peer and map).
  if (!r.ok()) return r.status().code() == StatusCode::kIoError ? r.status().WithContext(path) : r.status();
  if (::close(file.Release()) != 0) return Status::IoError("close " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

std::string Hex(uint32_t v) {
  char b[11];
  std::snprintf(b, sizeof(b), "0x%08x", v);
  return b;
}

Status ChecksumMismatch(uint32_t expected, uint32_t got) {
  return Status::DataLoss("partition bytes failed their checksum: expected crc32c " + Hex(expected) + ", got " +
                          Hex(got) + " (the source's copy is corrupt)");
}

Result<FetchResult> FetchOn(int sock, const FetchTarget& t, const std::string& dest, double timeout,
                            bool* got_reply, bool* reusable, const std::string& proof = {},
                            const Clock* clock = nullptr, double* replied = nullptr);

// The server answered a link request with its data file (no bytes follow, so the stream is in
// sync whatever happens here): link it as the run. Where it cannot be linked from here (another
// file system, a path this process does not see, the file gone since), ask again for the bytes.
Result<FetchResult> LinkAnswered(int sock, const FetchTarget& t, const proto::FetchReply& reply,
                                 const std::string& dest, double timeout, bool* got_reply, bool* reusable) {
  *reusable = true;
  if (!t.link) return Status::ProtocolError("FetchReply names a data file for a fetch that asked for the bytes");
  const PartitionExtent extent{reply.offset(), reply.length(), reply.records(), reply.crc32c()};
  auto linked = LinkPartition(reply.data_path(), extent, t, dest);
  if (linked.ok()) return linked;
  const StatusCode code = linked.status().code();
  if (code != StatusCode::kNotFound && code != StatusCode::kFailedPrecondition) return linked;
  FetchTarget bytes = t;
  bytes.link = false;
  return FetchOn(sock, bytes, dest, timeout, got_reply, reusable);
}

// One request/reply on a connected socket. *got_reply tells a retry whether the server
// ever answered; *reusable whether the connection may carry another request.
// proof: the answer to the server's challenge on a connection just authenticated, else empty.
// *replied (optional) is set to clock->Now() when the reply header has arrived.
Result<FetchResult> FetchOn(int sock, const FetchTarget& t, const std::string& dest, double timeout,
                            bool* got_reply, bool* reusable, const std::string& proof,
                            const Clock* clock, double* replied) {
  *got_reply = false;
  *reusable = false;
  proto::FetchRequest req;
  req.set_job_id(t.job_id);
  req.set_map_index(t.map_index);
  req.set_attempt(t.attempt);
  req.set_partition(t.partition);
  req.set_link(t.link);
  if (!proof.empty()) req.set_auth_proof(proof);
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(sock, req.SerializeAsString(), timeout));
  MR_ASSIGN_OR_RETURN(std::string frame, netio::ReadFrameFd(sock, kMaxFetchRequestBytes, timeout, timeout));
  *got_reply = true;
  if (replied != nullptr) *replied = clock->Now();
  proto::FetchReply reply;
  if (!reply.ParseFromString(frame)) return Status::ProtocolError("malformed FetchReply");
  if (!reply.ok()) {
    Status err = ServerError(reply.error());
    // An error reply carries no payload, the stream is still in sync; but a refused
    // authentication is followed by the server closing.
    *reusable = err.code() != StatusCode::kPermissionDenied;
    return err;
  }
  if (!reply.has_crc32c()) return Status::ProtocolError("FetchReply without a crc32c (server too old?)");
  if (!reply.data_path().empty()) return LinkAnswered(sock, t, reply, dest, timeout, got_reply, reusable);
  // A name of this fetch's own: another attempt of the map may be fetched into dest at the
  // same time (shuffle/net/run_commit.h).
  const std::string tmp = RunTempPath(dest, t.attempt);
  uint32_t crc = 0;
  Status s = ReceiveToFile(sock, reply.length(), tmp, timeout, &crc, t.received);
  // Every payload byte was read: the stream is in sync even when the bytes are bad.
  if (s.ok() && crc != reply.crc32c()) s = ChecksumMismatch(reply.crc32c(), crc);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    *reusable = s.code() == StatusCode::kDataLoss;
    return s;
  }
  *reusable = true;  // the stream is in sync whatever the commit does
  return CommitRun(tmp, dest, FetchResult{reply.length(), reply.records(), 0, 0, crc});
}

// The phases of one fetch on a fresh connection, on the caller's clock (for the debug line
// that says what fills the time before a fetch's first byte; docs/multi-host.md).
struct FetchPhases {
  double start = 0, connected = 0, authenticated = 0, replied = 0;
};

Result<FetchResult> FetchFresh(const FetchTarget& t, const auth::ClusterToken& token, const std::string& dest,
                               double timeout, netio::UniqueFd* conn, const Clock* clock, FetchPhases* ph) {
  ph->start = clock->Now();
  MR_ASSIGN_OR_RETURN(*conn, netio::ConnectTcp(t.host, t.port, timeout));
  ph->connected = clock->Now();
  std::string proof;
  if (token.enabled()) {
    auto p = AuthenticateToServer(conn->get(), token, timeout);
    if (!p.ok()) {
      conn->Reset();
      return p.status();
    }
    proof = std::move(p).value();
  }
  ph->authenticated = clock->Now();
  bool got_reply = false, reusable = false;
  auto r = FetchOn(conn->get(), t, dest, timeout, &got_reply, &reusable, proof, clock, &ph->replied);
  if (!reusable) conn->Reset();
  return r;
}

// One debug line per fetch (MR_LOG_LEVEL=debug; spdlog's runtime level, as the link
// estimator's rounds): connect, handshake, request to reply header (the server's admission
// and open), and the transfer, in milliseconds.
void LogPhases(const FetchTarget& t, const FetchPhases& ph, double end, uint64_t bytes) {
  if (!::spdlog::should_log(::spdlog::level::debug)) return;
  ::spdlog::debug("fetch phases job {} map {} partition {} from {}:{}: connect {:.1f} ms handshake {:.1f} ms "
               "reply {:.1f} ms transfer {:.1f} ms bytes {}",
               t.job_id, t.map_index, t.partition, t.host, t.port, 1e3 * (ph.connected - ph.start),
               1e3 * (ph.authenticated - ph.connected), 1e3 * (ph.replied - ph.authenticated),
               1e3 * (end - ph.replied), bytes);
}

}  // namespace

// Handshake on a fresh connection when the cluster has a token: send our challenge, check
// the server's proof (a fetcher must not take map output from an impostor), and return
// the proof for the server's challenge, which travels with the first fetch.
Result<std::string> AuthenticateToServer(int sock, const auth::ClusterToken& token, double timeout) {
  MR_ASSIGN_OR_RETURN(std::string nonce, auth::RandomBytes(auth::kNonceBytes));
  proto::FetchRequest hello;
  hello.set_auth_nonce(nonce);
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(sock, hello.SerializeAsString(), timeout));
  MR_ASSIGN_OR_RETURN(std::string frame, netio::ReadFrameFd(sock, kMaxFetchRequestBytes, timeout, timeout));
  proto::FetchReply reply;
  if (!reply.ParseFromString(frame)) return Status::ProtocolError("malformed FetchReply");
  if (!reply.ok() && reply.error().rfind("PermissionDenied: ", 0) == 0) return ServerError(reply.error());
  if (!token.Verify(nonce, auth::kRoleShuffleServer, kProtocolVersion, reply.auth_proof())) {
    return Status::PermissionDenied("authentication failed: the shuffle server does not know the cluster token");
  }
  if (reply.auth_nonce().size() != auth::kNonceBytes) return Status::ProtocolError("bad authentication challenge");
  return token.Prove(reply.auth_nonce(), auth::kRoleFetcher, kProtocolVersion);
}

Status ShuffleServerError(const std::string& error) { return ServerError(error); }

Result<FetchResult> FetchPartition(const FetchTarget& target, const std::string& dest_path,
                                   double timeout_seconds, const Clock* clock, const auth::ClusterToken& token) {
  double start = clock->Now();
  netio::UniqueFd conn;
  FetchPhases phases;
  auto r = FetchFresh(target, token, dest_path, timeout_seconds, &conn, clock, &phases);
  if (!r.ok()) return r.status().WithContext(Describe(target));
  r->start_time = start;
  r->end_time = clock->Now();
  LogPhases(target, phases, r->end_time, r->bytes);
  return r;
}

Fetcher::Fetcher(double timeout_seconds, const Clock* clock, size_t max_idle_per_peer, auth::ClusterToken token)
    : timeout_(timeout_seconds), clock_(clock), max_idle_(max_idle_per_peer), token_(std::move(token)) {}

Result<FetchResult> Fetcher::Fetch(const FetchTarget& t, const std::string& dest_path) {
  double start = clock_->Now();
  std::string peer = t.host + ":" + std::to_string(t.port);
  netio::UniqueFd conn = TakeIdle(peer);
  Result<FetchResult> r = Status::Internal("unreachable");
  bool retry = true;
  if (conn.valid()) {
    bool got_reply = false, reusable = false;
    r = FetchOn(conn.get(), t, dest_path, timeout_, &got_reply, &reusable);
    // Only a connection the server closed while idle is worth a second try.
    retry = !r.ok() && !got_reply && r.status().code() == StatusCode::kNetworkError;
    if (!reusable) conn.Reset();
  }
  FetchPhases phases;
  if (retry) r = FetchFresh(t, token_, dest_path, timeout_, &conn, clock_, &phases);
  if (conn.valid()) ReturnIdle(peer, std::move(conn));  // still valid after an error reply too
  if (!r.ok()) return r.status().WithContext(Describe(t));
  r->start_time = start;
  r->end_time = clock_->Now();
  return r;
}

netio::UniqueFd Fetcher::TakeIdle(const std::string& peer) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = idle_.find(peer);
  if (it == idle_.end() || it->second.empty()) return {};
  netio::UniqueFd fd = std::move(it->second.back());
  it->second.pop_back();
  return fd;
}

void Fetcher::ReturnIdle(const std::string& peer, netio::UniqueFd fd) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& pool = idle_[peer];
  if (pool.size() < max_idle_) pool.push_back(std::move(fd));
}

size_t Fetcher::idle_connections() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& [peer, pool] : idle_) n += pool.size();
  return n;
}

}  // namespace mr::shuffle
