#include "shuffle/net/shuffle_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "common/version.h"
#include "mr.pb.h"
#include "shuffle/map_output.h"
#include "shuffle/net/ack_counter.h"
#include "shuffle/net/shuffle_connection.h"
#include "shuffle/task_log.h"

namespace mr::shuffle {

namespace {
// Unthrottled sends go in large pieces: fewer limiter calls and sendfile syscalls.
constexpr uint64_t kUnthrottledChunkBytes = 8u << 20;
// How long a reply's serving thread waits for its last bytes to be acknowledged when the
// limiter estimates the link (AckCounter::Drain): a 4 MiB socket buffer drains in 0.2 s at
// 20 MB/s; a slower link's tail is left uncounted rather than holding the thread.
constexpr double kAckDrainSeconds = 1.0;

Status Refuse(int fd, const Status& why, double timeout) {
  proto::FetchReply reply;
  reply.set_ok(false);
  reply.set_error(why.ToString());
  (void)netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);  // closing either way
  return why;
}

// One handshake step on a connection that is not authenticated yet. A request carrying
// auth_nonce is the fetcher's challenge: answer it with our proof and our own challenge
// (*serve = false). Any other request must carry a valid auth_proof; it is then served
// (*serve = true). Anything else is refused with a reply and an error (close).
Status AuthStep(int fd, const std::string& frame, const auth::ClusterToken& token, double timeout, AuthState* st,
                bool* serve) {
  *serve = false;
  proto::FetchRequest req;
  if (!req.ParseFromString(frame)) return Status::ProtocolError("malformed FetchRequest");
  if (!req.auth_nonce().empty()) {
    if (!st->nonce.empty() || req.auth_nonce().size() != auth::kNonceBytes) {
      return Refuse(fd, Status::ProtocolError("bad authentication request"), timeout);
    }
    MR_ASSIGN_OR_RETURN(st->nonce, auth::RandomBytes(auth::kNonceBytes));
    proto::FetchReply reply;
    reply.set_ok(true);
    reply.set_auth_nonce(st->nonce);
    reply.set_auth_proof(token.Prove(req.auth_nonce(), auth::kRoleShuffleServer, kProtocolVersion));
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
  }
  if (st->nonce.empty() || !token.Verify(st->nonce, auth::kRoleFetcher, kProtocolVersion, req.auth_proof())) {
    return Refuse(fd, Status::PermissionDenied(auth::kAuthFailedMessage), timeout);
  }
  st->done = true;
  *serve = true;
  return Status::Ok();
}
// A piece of a task attempt's log (FetchRequest.log, `mr logs`): a FetchReply with the
// log's size so far, then up to kTaskLogChunkBytes of it from the offset asked for, with
// their CRC32C. Not paced by the job's share: a log is small and read by a person. A log
// this worker does not have is a NotFound reply (the connection stays usable).
Status ServeTaskLog(int fd, const std::string& work_dir, const proto::TaskLogRequest& req, double timeout) {
  const bool is_map = req.kind() == proto::MAP;
  proto::FetchReply reply;
  if (!is_map && req.kind() != proto::REDUCE) {
    reply.set_error(Status::InvalidArgument("a task log request names a map or a reduce").ToString());
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
  }
  const std::string path = TaskLogPath(work_dir, req.job_id(), is_map, req.index(), req.attempt());
  netio::UniqueFd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.valid() || ::fstat(file.get(), &st) != 0) {
    char what[96];
    std::snprintf(what, sizeof what, "no log of job %llu %c-%05u attempt %u on this worker",
                  static_cast<unsigned long long>(req.job_id()), is_map ? 'm' : 'r', req.index(), req.attempt());
    reply.set_error(Status::NotFound(what).ToString());
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  const uint64_t offset = std::min<uint64_t>(req.offset(), size);
  const uint64_t want = std::min<uint64_t>({size - offset, req.max_bytes(), kTaskLogChunkBytes});
  std::string data(static_cast<size_t>(want), '\0');
  size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::pread(file.get(), data.data() + got, data.size() - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // shorter than fstat said: send what there is
    got += static_cast<size_t>(n);
  }
  data.resize(got);
  reply.set_ok(true);
  reply.set_length(data.size());
  reply.set_log_size(size);
  reply.set_crc32c(crc32c::Value(data));
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout, data.empty() ? 0 : MSG_MORE));
  return netio::WriteFull(fd, data.data(), data.size(), timeout);
}

}  // namespace

struct ShuffleServer::OpenPartition {
  netio::UniqueFd file;
  PartitionExtent extent;
  std::string data_path;  // absolute: a reducer on this host links it (FetchRequest.link)
};

ShuffleServer::ShuffleServer(PrivateTag, const ShuffleServerOptions& options)
    : options_(options), limiter_(options.bandwidth, options.clock) {
  if (options.estimate_link) limiter_.EstimateLink();  // no-op under a configured bandwidth
}

ShuffleServer::~ShuffleServer() { Stop(); }

Result<std::unique_ptr<ShuffleServer>> ShuffleServer::Start(const ShuffleServerOptions& options) {
  if (options.work_dir.empty() && options.input_roots.empty() && options.output_roots.empty()) {
    return Status::InvalidArgument("shuffle server: work_dir is empty");
  }
  if (options.threads <= 0) return Status::InvalidArgument("shuffle server: threads must be > 0");
  if (options.max_pending_connections <= 0) {
    return Status::InvalidArgument("shuffle server: max_pending_connections must be > 0");
  }
  if (options.throttled_chunk_bytes == 0) {
    return Status::InvalidArgument("shuffle server: throttled_chunk_bytes must be > 0");
  }
  ShuffleServerOptions opts = options;
  for (std::string& root : opts.input_roots) {  // compared with each request's real path
    std::error_code ec;
    std::filesystem::path real = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(real)) {
      return Status::InvalidArgument("exported input directory " + root + ": " +
                                     (ec ? ec.message() : std::string("not a directory")));
    }
    root = real.string();
  }
  for (std::string& root : opts.output_roots) {
    std::error_code ec;
    std::filesystem::path real = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(real)) {
      return Status::InvalidArgument("exported output directory " + root + ": " +
                                     (ec ? ec.message() : std::string("not a directory")));
    }
    root = real.string();
  }
  auto server = std::make_unique<ShuffleServer>(PrivateTag{}, opts);
  MR_RETURN_IF_ERROR(server->Bind());
  server->accept_thread_ = std::thread([s = server.get()] {
    SetThreadName("mr-shuf-accept");
    s->AcceptLoop();
  });
  MR_LOG_INFO("shuffle server listening on {}:{} (bandwidth {})", options.host, server->port_,
              options.bandwidth > 0 ? std::to_string(options.bandwidth) + " B/s" : "unlimited");
  return server;
}

Status ShuffleServer::Bind() {
  asio::io_context ctx;
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(ctx);
  auto endpoints = resolver.resolve(options_.host, std::to_string(options_.port),
                                    asio::ip::resolver_base::passive, ec);
  if (ec || endpoints.empty()) {
    return Status::NetworkError("shuffle server: cannot resolve " + options_.host + ": " + ec.message());
  }
  asio::ip::tcp::endpoint ep = endpoints.begin()->endpoint();
  asio::ip::tcp::acceptor acceptor(ctx);
  acceptor.open(ep.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(ep, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) port_ = acceptor.local_endpoint(ec).port();
  if (ec) {
    return Status::NetworkError("shuffle server: cannot listen on " + options_.host + ":" +
                                std::to_string(options_.port) + ": " + ec.message());
  }
  listen_fd_.Reset(acceptor.release(ec));
  if (ec) return Status::NetworkError("shuffle server: " + ec.message());
  ::fcntl(listen_fd_.get(), F_SETFL, ::fcntl(listen_fd_.get(), F_GETFL) | O_NONBLOCK);
  wake_fd_.Reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_fd_.valid()) return Status::Internal(std::string("eventfd: ") + std::strerror(errno));
  return Status::Ok();
}

void ShuffleServer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    // shutdown(2) wakes a thread blocked in poll/recv/sendfile on that socket.
    for (Connection* c : serving_) ::shutdown(c->fd.get(), SHUT_RDWR);
  }
  work_cv_.notify_all();
  Wake();
  if (accept_thread_.joinable()) accept_thread_.join();  // closes the waiting connections
  limiter_.Shutdown();
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    workers.swap(workers_);  // the admission thread, which starts them, has exited
  }
  for (auto& t : workers) t.join();
  ready_.clear();
  returned_.clear();
  listen_fd_.Reset();
}

void ShuffleServer::WorkerLoop() {
  netio::SigPipeBlocker no_sigpipe;  // a reducer that vanishes mid-transfer is EPIPE, not death
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (stopping_) return;
    if (ready_.empty()) {
      ++idle_workers_;
      work_cv_.wait(lock);
      --idle_workers_;
      continue;
    }
    ConnPtr conn = std::move(ready_.front());
    ready_.pop_front();
    serving_.push_back(conn.get());
    lock.unlock();
    bool keep_open = Handle(conn.get());
    lock.lock();
    serving_.erase(std::find(serving_.begin(), serving_.end(), conn.get()));
    if (keep_open && !stopping_) {
      returned_.push_back(std::move(conn));  // wait for its next request without a thread
      Wake();
    }
  }
}

// Answers the whole request frame conn holds; true if the connection stays open.
bool ShuffleServer::Handle(Connection* conn) {
  int fd = conn->fd.get();
  bool keep_open = true;
  bool serve = true;
  Status s = conn->auth.done
                 ? Status::Ok()
                 : AuthStep(fd, conn->frame, options_.token, options_.io_timeout_seconds, &conn->auth, &serve);
  if (s.ok() && serve) {
    conn->established = true;
    s = ServeRequest(conn, &keep_open);
  }
  conn->frame.clear();
  if (!s.ok()) MR_LOG_WARN("shuffle server: {}", s.ToString());
  return s.ok() && keep_open;
}

Status ShuffleServer::ServeRequest(Connection* conn, bool* keep_open) {
  const int fd = conn->fd.get();
  proto::FetchRequest req;
  if (!req.ParseFromString(conn->frame)) {
    *keep_open = false;
    return Status::ProtocolError("malformed FetchRequest");
  }
  const std::optional<GrantedLink> granted = std::exchange(conn->granted_link, std::nullopt);
  if (req.has_input()) return ServeInput(fd, req.input());
  if (req.has_output()) return ServeOutput(fd, req.output());
  if (req.has_log()) return ServeTaskLog(fd, options_.work_dir, req.log(), options_.io_timeout_seconds);
  const GrantedLink asked{req.job_id(), req.map_index(), req.attempt(), req.partition()};
  auto part = Open(asked.job, asked.map, asked.attempt, asked.partition);
  proto::FetchReply reply;
  if (!part.ok()) {
    reply.set_ok(false);
    reply.set_error(part.status().ToString());
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), options_.io_timeout_seconds);
  }
  const PartitionExtent& e = part->extent;
  reply.set_ok(true);
  reply.set_length(e.length);
  reply.set_records(e.records);
  reply.set_crc32c(e.crc32c);  // the fetcher checks the bytes against it as they arrive
  if (req.link() && limiter_.capacity() <= 0 && PeerIsThisHost(fd)) {
    // A reducer on this host links the data file (shuffle/net/local_fetch.h): this answer is
    // the fetch, the bytes stay where they are. Under a software cap every byte is sent.
    reply.set_data_path(part->data_path);
    reply.set_offset(e.offset);
    MR_RETURN_IF_ERROR(netio::WriteFrameFd(fd, reply.SerializeAsString(), options_.io_timeout_seconds));
    limiter_.CountUnpaced(req.job_id(), e.length);  // served, as the loopback copy was
    requests_.fetch_add(1);
    links_.fetch_add(1);
    conn->granted_link = asked;
    return Status::Ok();
  }
  // MSG_MORE lets the kernel put the reply header in the same segment as the first data.
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(fd, reply.SerializeAsString(), options_.io_timeout_seconds,
                                         e.length > 0 ? MSG_MORE : 0));
  if (granted == asked) {
    // The fetcher could not make the link it was just granted (shuffle/net/fetcher.cc,
    // LinkAnswered) and asks for the bytes: the same fetch, counted (bytes included) at the
    // grant. Sent as the grant was made: unpaced, to this host.
    MR_RETURN_IF_ERROR(SendUnpaced(fd, part->file.get(), e.offset, e.length, req.job_id(), /*count=*/false));
    link_fallbacks_.fetch_add(1);
    return Status::Ok();
  }
  MR_RETURN_IF_ERROR(SendRange(fd, part->file.get(), e.offset, e.length, req.job_id()));
  requests_.fetch_add(1);
  return Status::Ok();
}

Result<ShuffleServer::OpenPartition> ShuffleServer::Open(uint64_t job, uint32_t map, uint32_t attempt,
                                                         uint32_t partition) const {
  if (options_.work_dir.empty()) return Status::NotFound("this server holds no map output");
  // Paths come only from numeric ids, never from peer strings.
  std::string what = "job " + std::to_string(job) + " map " + std::to_string(map) + " attempt " +
                     std::to_string(attempt);
  std::string index_path = MapOutputIndexPath(options_.work_dir, job, map, attempt);
  if (!PathExists(index_path)) return Status::NotFound("no map output for " + what);
  // From here on an unusable output is DataLoss: the fetcher reports the source's copy bad
  // and the master runs the map again (a version-1 index, without checksums, included).
  auto read = MapOutputIndex::ReadFrom(index_path);
  if (!read.ok()) return Status::DataLoss(read.status().message());
  MapOutputIndex index = std::move(read).value();
  if (partition >= index.partitions.size()) {
    return Status::InvalidArgument("partition " + std::to_string(partition) + " out of range: " + what +
                                   " has " + std::to_string(index.partitions.size()) + " partitions");
  }
  OpenPartition out;
  out.extent = index.partitions[partition];
  std::string data_path = MapOutputDataPath(options_.work_dir, job, map, attempt);
  out.file.Reset(::open(data_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!out.file.valid()) {
    // Gone while its index is present: the copy is broken. Anything else is this server's.
    const std::string why = "cannot open data file of " + what + ": " + std::strerror(errno);
    return errno == ENOENT ? Status::DataLoss(why) : Status::IoError(why);
  }
  struct stat st {};
  if (::fstat(out.file.get(), &st) != 0 ||
      static_cast<uint64_t>(st.st_size) < out.extent.offset + out.extent.length) {
    return Status::DataLoss("data file of " + what + " is shorter than its index says");
  }
  std::error_code ec;
  out.data_path = std::filesystem::absolute(data_path, ec).string();
  return out;
}

Status ShuffleServer::SendUnpaced(int sock, int file, uint64_t offset, uint64_t length, uint64_t job, bool count) {
  off_t off = static_cast<off_t>(offset);
  for (uint64_t remaining = length; remaining > 0;) {
    const uint64_t chunk = std::min(remaining, kUnthrottledChunkBytes);
    if (count) limiter_.CountUnpaced(job, chunk);
    MR_RETURN_IF_ERROR(SendChunk(sock, file, &off, chunk, nullptr));
    remaining -= chunk;
  }
  return Status::Ok();
}

Status ShuffleServer::SendRange(int sock, int file, uint64_t offset, uint64_t length, uint64_t job) {
  off_t off = static_cast<off_t>(offset);
  uint64_t remaining = length;
  if (limiter_.estimating() && PeerIsThisHost(sock)) {
    // A reducer on this host: loopback, not the link the estimator paces. Sent unpaced,
    // counted with the job's bytes chunk by chunk as an unlimited limiter would.
    return SendUnpaced(sock, file, offset, length, job, /*count=*/true);
  }
  AckCounter acks(&limiter_, sock, job);
  auto next_chunk = [&] {
    // Estimating: small chunks too while unpaced, so pacing can start in the middle of a reply.
    uint64_t unit =
        limiter_.capacity() > 0 || acks.active() ? options_.throttled_chunk_bytes : kUnthrottledChunkBytes;
    // A short remainder rides with the chunk before it: a grant of its own would cost the
    // job a whole turn of the link (the bucket is in debt after every chunk): with 1 MiB
    // chunks and 1025 KiB partitions a 0.9 share measured 0.66-0.82 of the link.
    return remaining <= unit + unit / 2 ? remaining : unit;
  };
  uint64_t chunk = next_chunk();
  uint64_t ticket = remaining > 0 ? limiter_.Request(job, chunk) : 0;
  while (remaining > 0) {
    if (!limiter_.Wait(ticket)) return Status::Aborted("shuffle server stopping");
    remaining -= chunk;
    // Ask for the next chunk before sending this one: the job stays backlogged while this
    // thread sends or waits for a CPU, instead of losing its turns to other jobs.
    uint64_t next = next_chunk();
    ticket = remaining > 0 ? limiter_.Request(job, next) : 0;
    Status sent = SendChunk(sock, file, &off, chunk, &acks);
    if (!sent.ok()) {
      limiter_.Cancel(ticket);
      return sent;
    }
    chunk = next;
  }
  acks.Drain(kAckDrainSeconds);
  return Status::Ok();
}

Status ShuffleServer::SendChunk(int sock, int file, off_t* off, uint64_t bytes, AckCounter* acks) {
  while (bytes > 0) {
    ssize_t n = ::sendfile(sock, file, off, bytes);
    if (n > 0) {
      bytes -= static_cast<uint64_t>(n);
      if (acks != nullptr) acks->Handed(static_cast<uint64_t>(n));
      continue;
    }
    if (n == 0) return Status::IoError("data file shrank while sending");
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return Status::NetworkError(std::string("sendfile: ") + std::strerror(errno));
    if (acks != nullptr) {
      acks->SocketFull();
      MR_RETURN_IF_ERROR(acks->WaitWritable(options_.io_timeout_seconds).WithContext("send"));
      continue;
    }
    MR_RETURN_IF_ERROR(netio::WaitReady(sock, POLLOUT, options_.io_timeout_seconds).WithContext("send"));
  }
  return Status::Ok();
}

}  // namespace mr::shuffle
