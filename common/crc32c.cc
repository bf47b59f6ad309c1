#include "common/crc32c.h"

#include <isa-l/crc.h>

#include <algorithm>

namespace mr::crc32c {

namespace {
// ISA-L takes an `int` length; 1 GiB pieces stay far from INT_MAX.
constexpr size_t kMaxChunk = size_t{1} << 30;
}  // namespace

uint32_t Extend(uint32_t crc, const void* data, size_t n) {
  // ISA-L's crc32_iscsi neither pre- nor post-inverts: the standard CRC32C is
  // ~crc32_iscsi(buf, len, ~0), and continuing from a finished CRC means un-inverting it.
  uint32_t state = ~crc;
  auto* p = static_cast<unsigned char*>(const_cast<void*>(data));  // ISA-L only reads it
  while (n > 0) {
    const size_t chunk = std::min(n, kMaxChunk);
    state = crc32_iscsi(p, static_cast<int>(chunk), state);
    p += chunk;
    n -= chunk;
  }
  return ~state;
}

}  // namespace mr::crc32c
