// Length-prefixed frames: a 4-byte big-endian payload length, then the payload
// (a serialized protobuf message). See docs/protocol.md. The length is checked
// against a maximum *before* any buffer is allocated for the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <asio/ip/tcp.hpp>

#include "common/status.h"

namespace mr {

inline constexpr size_t kFrameHeaderBytes = 4;
inline constexpr uint32_t kDefaultMaxFrameBytes = 16u << 20;  // 16 MiB

// Appends header + payload to *out.
void AppendFrame(std::string_view payload, std::string* out);
std::string EncodeFrame(std::string_view payload);

// Incremental decoder for bytes arriving in arbitrary pieces. Not thread-safe.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint32_t max_frame_bytes = kDefaultMaxFrameBytes) : max_(max_frame_bytes) {}
  // Adds bytes. Returns ProtocolError (and stays failed) if a header announces
  // a frame larger than the maximum.
  Status Feed(const char* data, size_t n);
  // Pops the next complete payload, if any.
  std::optional<std::string> Next();
  // Bytes buffered that do not yet form a complete frame.
  size_t buffered() const { return buf_.size() - pos_; }
  bool failed() const { return failed_; }

 private:
  uint32_t max_;
  std::string buf_;
  size_t pos_ = 0;
  bool failed_ = false;
};

// Blocking helpers for a connected socket. They return NetworkError when the
// peer closes or the socket fails, ProtocolError for an oversized frame.
Status WriteFrame(asio::ip::tcp::socket& socket, std::string_view payload);
Result<std::string> ReadFrame(asio::ip::tcp::socket& socket,
                              uint32_t max_frame_bytes = kDefaultMaxFrameBytes);

// Decodes the header of a frame. REQUIRES: header has kFrameHeaderBytes bytes.
uint32_t DecodeFrameLength(const unsigned char* header);

}  // namespace mr
