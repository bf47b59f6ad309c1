#include "common/framing.h"

#include <asio/read.hpp>
#include <asio/write.hpp>

namespace mr {

namespace {
void PutBigEndian32(uint32_t v, char* out) {
  out[0] = static_cast<char>(v >> 24);
  out[1] = static_cast<char>(v >> 16);
  out[2] = static_cast<char>(v >> 8);
  out[3] = static_cast<char>(v);
}
}  // namespace

uint32_t DecodeFrameLength(const unsigned char* h) {
  return (uint32_t{h[0]} << 24) | (uint32_t{h[1]} << 16) | (uint32_t{h[2]} << 8) | uint32_t{h[3]};
}

void AppendFrame(std::string_view payload, std::string* out) {
  char header[kFrameHeaderBytes];
  PutBigEndian32(static_cast<uint32_t>(payload.size()), header);
  out->append(header, kFrameHeaderBytes);
  out->append(payload);
}

std::string EncodeFrame(std::string_view payload) {
  std::string out;
  out.reserve(kFrameHeaderBytes + payload.size());
  AppendFrame(payload, &out);
  return out;
}

Status FrameDecoder::Feed(const char* data, size_t n) {
  if (failed_) return Status::ProtocolError("frame decoder already failed");
  // Compact consumed bytes before growing.
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  } else if (pos_ > (1u << 16) && pos_ * 2 > buf_.size()) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  buf_.append(data, n);
  // Validate every complete header now, so an oversized frame is refused before
  // its payload is buffered.
  size_t p = pos_;
  while (buf_.size() - p >= kFrameHeaderBytes) {
    uint32_t len = DecodeFrameLength(reinterpret_cast<const unsigned char*>(buf_.data() + p));
    if (len > max_) {
      failed_ = true;
      return Status::ProtocolError("frame of " + std::to_string(len) + " bytes exceeds maximum of " +
                                   std::to_string(max_));
    }
    if (buf_.size() - p - kFrameHeaderBytes < len) break;
    p += kFrameHeaderBytes + len;
  }
  return Status::Ok();
}

std::optional<std::string> FrameDecoder::Next() {
  if (failed_ || buf_.size() - pos_ < kFrameHeaderBytes) return std::nullopt;
  uint32_t len = DecodeFrameLength(reinterpret_cast<const unsigned char*>(buf_.data() + pos_));
  if (buf_.size() - pos_ - kFrameHeaderBytes < len) return std::nullopt;
  std::string payload = buf_.substr(pos_ + kFrameHeaderBytes, len);
  pos_ += kFrameHeaderBytes + len;
  return payload;
}

Status WriteFrame(asio::ip::tcp::socket& socket, std::string_view payload) {
  if (payload.size() > UINT32_MAX) return Status::InvalidArgument("frame too large to send");
  char header[kFrameHeaderBytes];
  PutBigEndian32(static_cast<uint32_t>(payload.size()), header);
  std::array<asio::const_buffer, 2> bufs{asio::buffer(header, kFrameHeaderBytes),
                                         asio::buffer(payload.data(), payload.size())};
  asio::error_code ec;
  asio::write(socket, bufs, ec);
  if (ec) return Status::NetworkError("write failed: " + ec.message());
  return Status::Ok();
}

Result<std::string> ReadFrame(asio::ip::tcp::socket& socket, uint32_t max_frame_bytes) {
  unsigned char header[kFrameHeaderBytes];
  asio::error_code ec;
  asio::read(socket, asio::buffer(header, kFrameHeaderBytes), ec);
  if (ec) {
    if (ec == asio::error::eof) return Status::NetworkError("connection closed by peer");
    return Status::NetworkError("read failed: " + ec.message());
  }
  uint32_t len = DecodeFrameLength(header);
  if (len > max_frame_bytes) {
    return Status::ProtocolError("frame of " + std::to_string(len) + " bytes exceeds maximum of " +
                                 std::to_string(max_frame_bytes));
  }
  std::string payload(len, '\0');
  asio::read(socket, asio::buffer(payload.data(), len), ec);
  if (ec) return Status::NetworkError("truncated frame: " + ec.message());
  return payload;
}

}  // namespace mr
