#include "shuffle/net/receive_to_file.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/net/net_io.h"

namespace mr::shuffle::netio {

namespace {

constexpr size_t kCopyBufferBytes = 1u << 20;
// Pipe capacity asked for: a bigger pipe means fewer splice calls per partition. 1 MiB is
// the default ceiling for unprivileged processes (/proc/sys/fs/pipe-max-size).
constexpr int kPipeBytes = 1 << 20;

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// errno values by which splice says "not for this pair of files", as opposed to a failed
// transfer: the same bytes can still be moved by read and write.
bool SpliceUnsupported(int err) { return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP; }

struct Transfer {
  int sock;
  int file;
  uint64_t length;
  double timeout;
  uint64_t got = 0;  // bytes taken from the socket
  ReceiveStats stats;
  std::unique_ptr<char[]> buf;  // only if some bytes are copied or read back
  bool checksum = false;
  off_t start = 0;        // file position of the first byte (for reading spliced bytes back)
  uint64_t hashed = 0;    // bytes folded into crc
  uint32_t crc = 0;
  std::atomic<uint64_t>* received = nullptr;  // optional: mirrors got

  // n more bytes were taken from the socket.
  void Took(uint64_t n) {
    got += n;
    if (received != nullptr) received->store(got, std::memory_order_relaxed);
  }
  char* Buffer() {
    if (!buf) buf = std::make_unique<char[]>(kCopyBufferBytes);
    return buf.get();
  }
  Status ShortRead() const {
    return Status::NetworkError("short read: connection closed after " + std::to_string(got) +
                                " of " + std::to_string(length) + " bytes");
  }
};

// Folds the next n received bytes, at `data`, into the CRC.
void Hash(Transfer& t, const char* data, size_t n) {
  if (!t.checksum) return;
  t.crc = crc32c::Extend(t.crc, data, n);
  t.hashed += n;
}

// Folds the bytes spliced into the file since the last call into the CRC, read back from
// the page cache they were just written to.
Status HashFromFile(Transfer& t, uint64_t upto) {
  while (t.checksum && t.hashed < upto) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(upto - t.hashed, kCopyBufferBytes));
    ssize_t r = ::pread(t.file, t.Buffer(), want, t.start + static_cast<off_t>(t.hashed));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return Status::IoError(r == 0 ? std::string("read back: file shorter than written") : Errno("read back"));
    Hash(t, t.Buffer(), static_cast<size_t>(r));
  }
  return Status::Ok();
}

// The caller (fetcher.cc) names the file in IoError messages.
Status WriteAll(int file, const char* data, size_t n) { return WriteAllToFd(file, {data, n}, ""); }

Status CopyRest(Transfer& t) {
  while (t.got < t.length) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(t.length - t.got, kCopyBufferBytes));
    MR_ASSIGN_OR_RETURN(size_t n, ReadSome(t.sock, t.Buffer(), want, t.timeout));
    if (n == 0) return t.ShortRead();
    Hash(t, t.Buffer(), n);
    MR_RETURN_IF_ERROR(WriteAll(t.file, t.Buffer(), n));
    t.Took(n);
    t.stats.copied += n;
  }
  return Status::Ok();
}

// The n bytes left in the pipe when the file refused splice: read them out and write them.
Status CopyFromPipe(Transfer& t, int pipe_r, size_t n) {
  while (n > 0) {
    ssize_t r = ::read(pipe_r, t.Buffer(), std::min(n, kCopyBufferBytes));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return Status::Internal(r == 0 ? "pipe emptied early" : Errno("read pipe"));
    Hash(t, t.Buffer(), static_cast<size_t>(r));
    MR_RETURN_IF_ERROR(WriteAll(t.file, t.Buffer(), static_cast<size_t>(r)));
    n -= static_cast<size_t>(r);
    t.stats.copied += static_cast<uint64_t>(r);
  }
  return Status::Ok();
}

// Moves the n bytes just spliced into the pipe on to the file. *unsupported: the file
// refused splice; the bytes were then copied instead and the caller must stop splicing.
Status PipeToFile(Transfer& t, int pipe_r, size_t n, bool* unsupported) {
  while (n > 0) {
    ssize_t r = ::splice(pipe_r, nullptr, t.file, nullptr, n, SPLICE_F_MOVE);
    if (r > 0) {
      n -= static_cast<size_t>(r);
      t.stats.spliced += static_cast<uint64_t>(r);
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && SpliceUnsupported(errno)) {
      *unsupported = true;
      MR_RETURN_IF_ERROR(HashFromFile(t, t.got - n));  // what did reach the file, in order
      return CopyFromPipe(t, pipe_r, n);
    }
    return Status::IoError(r == 0 ? std::string("write: splice made no progress") : Errno("write"));
  }
  return Status::Ok();
}

struct Pipe {
  UniqueFd r, w;
  size_t capacity = 0;
};

bool MakePipe(Pipe* p) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  p->r.Reset(fds[0]);
  p->w.Reset(fds[1]);
  int cap = ::fcntl(fds[1], F_SETPIPE_SZ, kPipeBytes);
  if (cap < 0) cap = ::fcntl(fds[1], F_GETPIPE_SZ);  // over the user's pipe quota: keep the default
  if (cap <= 0) return false;
  p->capacity = static_cast<size_t>(cap);
  return true;
}

// Splices until done, or until splice turns out unsupported (*fallback = true; t.got
// says how far it got, and every byte taken from the socket is in the file).
Status SpliceRest(Transfer& t, bool* fallback) {
  Pipe pipe;
  if (!MakePipe(&pipe)) {
    *fallback = true;
    return Status::Ok();
  }
  while (t.got < t.length) {
    // The pipe is empty here (each batch is drained below), so EAGAIN means the socket.
    size_t want = static_cast<size_t>(std::min<uint64_t>(t.length - t.got, pipe.capacity));
    ssize_t n =
        ::splice(t.sock, nullptr, pipe.w.get(), nullptr, want, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      t.Took(static_cast<uint64_t>(n));
      bool unsupported = false;
      MR_RETURN_IF_ERROR(PipeToFile(t, pipe.r.get(), static_cast<size_t>(n), &unsupported));
      MR_RETURN_IF_ERROR(HashFromFile(t, t.got));
      if (unsupported) {
        *fallback = true;
        return Status::Ok();
      }
      continue;
    }
    if (n == 0) return t.ShortRead();
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      MR_RETURN_IF_ERROR(WaitReady(t.sock, POLLIN, t.timeout));
      continue;
    }
    if (SpliceUnsupported(errno)) {
      *fallback = true;
      return Status::Ok();
    }
    return Status::NetworkError(Errno("splice"));
  }
  return Status::Ok();
}

}  // namespace

Result<ReceiveStats> ReceiveToFile(int sock, int file, uint64_t length, double timeout_s,
                                   ReceiveMethod method, uint32_t* crc, std::atomic<uint64_t>* received) {
  Transfer t{sock, file, length, timeout_s, 0, {}, nullptr};
  t.received = received;
  if (crc != nullptr) {
    t.checksum = true;
    t.start = ::lseek(file, 0, SEEK_CUR);
    if (t.start < 0) return Status::IoError(Errno("lseek"));
  }
  bool copy = method == ReceiveMethod::kCopy || length == 0;
  if (!copy) MR_RETURN_IF_ERROR(SpliceRest(t, &copy));
  if (copy) MR_RETURN_IF_ERROR(CopyRest(t));
  if (crc != nullptr) *crc = t.crc;
  return t.stats;
}

}  // namespace mr::shuffle::netio
