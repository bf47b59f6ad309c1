// ReceiveToFile: moves exactly `length` bytes from a connected non-blocking socket into an
// open file, the fetcher's data path. By default the bytes go socket -> pipe -> file with
// splice(2), so the payload never crosses user space (one kernel copy into the page cache
// instead of two copies through a user buffer). Where splice is unsupported for this socket
// or file (EINVAL, ENOSYS, ...: e.g. a file opened O_APPEND, a file system without splice
// writes, no pipe available), it falls back to recv + write for the rest of the transfer,
// at the start or midway, without losing a byte. Thread-compatible (one call per socket).
#pragma once

#include <atomic>
#include <cstdint>

#include "common/status.h"

namespace mr::shuffle::netio {

enum class ReceiveMethod {
  kAuto,  // splice, falling back to copying where unsupported
  kCopy,  // recv into a user buffer + write (what kAuto falls back to)
};

struct ReceiveStats {
  uint64_t spliced = 0;  // bytes moved by splice (file side)
  uint64_t copied = 0;   // bytes moved through a user-space buffer
};

// crc (optional): receives the CRC32C of the `length` bytes (common/crc32c.h), computed as
// they arrive: on the user buffer when copying, and on each spliced batch read back from
// the file (page cache) right after it was written; the file must then be readable.
// Errors: NetworkError for the socket (no progress within timeout_s per wait: "timed out";
// peer closed early: "short read: connection closed after X of Y bytes"); IoError for the
// file ("write: <errno text>"). On error the file holds an unspecified prefix.
// received (optional): set to the bytes taken from the socket so far, after each batch, for
// a reader on another thread (a reducer's progress report counts fetches in flight).
// REQUIRES: sock is non-blocking; file is open for writing at the desired position.
Result<ReceiveStats> ReceiveToFile(int sock, int file, uint64_t length, double timeout_s,
                                   ReceiveMethod method = ReceiveMethod::kAuto, uint32_t* crc = nullptr,
                                   std::atomic<uint64_t>* received = nullptr);

}  // namespace mr::shuffle::netio
