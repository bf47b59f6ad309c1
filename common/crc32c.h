// CRC32C (Castagnoli, the iSCSI/ext4/RocksDB checksum) of byte ranges, hardware-accelerated
// through Intel ISA-L (crc32_iscsi, SSE4.2/PCLMUL or ARMv8 CRC, with a software fallback
// chosen at run time). Values are the standard ones: Crc32c("123456789") == 0xE3069283.
// Extend(Crc32c(a), b) == Crc32c(a + b), so a stream can be checksummed piece by piece;
// the empty range has CRC 0. Pure functions, thread-safe, any length (large ranges are
// fed to ISA-L in chunks that fit its `int` length).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mr::crc32c {

uint32_t Extend(uint32_t crc, const void* data, size_t n);
inline uint32_t Value(const void* data, size_t n) { return Extend(0, data, n); }
inline uint32_t Value(std::string_view bytes) { return Extend(0, bytes.data(), bytes.size()); }

}  // namespace mr::crc32c
