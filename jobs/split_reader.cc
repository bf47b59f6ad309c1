#include "jobs/split_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace mr::jobs {
namespace {

class PlainReader final : public SplitReader {
 public:
  PlainReader(const InputSource& source, const Split& split) : SplitReader(source, split) {}

 private:
  Result<std::string_view> NextChunk() override { return NextWindow(); }
};

// Inflates the split (a whole gzip file) as its raw windows come, one member after another.
class GzipReader final : public SplitReader {
 public:
  GzipReader(const InputSource& source, const Split& split) : SplitReader(source, split), out_(kOutBytes, '\0') {
    std::memset(&z_, 0, sizeof z_);
    // 16 + MAX_WBITS: a gzip header and trailer, not zlib's.
    ok_ = inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK;
  }
  ~GzipReader() override {
    if (ok_) inflateEnd(&z_);
  }

 private:
  static constexpr size_t kOutBytes = 256 << 10;

  Status Bad(const std::string& why) const {
    return Status::IoError("input " + split_.path + " is not valid gzip: " + why);
  }

  Result<std::string_view> NextChunk() override {
    if (!ok_) return Bad("cannot start zlib");
    z_.next_out = reinterpret_cast<Bytef*>(out_.data());
    z_.avail_out = static_cast<uInt>(out_.size());
    while (z_.avail_out == out_.size()) {
      if (z_.avail_in == 0) {
        MR_ASSIGN_OR_RETURN(std::string_view raw, NextWindow());
        if (raw.empty()) {
          if (in_member_) return Bad("it ends in the middle of a member");
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
        z_.avail_in = static_cast<uInt>(raw.size());
      }
      in_member_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        if (inflateReset(&z_) != Z_OK) return Bad("cannot restart zlib");  // a next member may follow
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return Bad(z_.msg != nullptr ? z_.msg : "inflate failed");
      }
    }
    return std::string_view(out_.data(), out_.size() - z_.avail_out);
  }

  z_stream z_;
  bool ok_ = false;
  bool in_member_ = false;  // inside a member: its end must still come
  std::string out_;
};

}  // namespace

Result<std::unique_ptr<SplitReader>> SplitReader::Open(const InputSource& source, const Split& split) {
  // An empty split is probed; any other is opened by its first window's read.
  if (split.length == 0) MR_RETURN_IF_ERROR(source.Read(split.path, split.offset, 0).status());
  if (CodecOf(split.path) == Codec::kGzip) return std::unique_ptr<SplitReader>(new GzipReader(source, split));
  auto r = std::unique_ptr<SplitReader>(new PlainReader(source, split));
  r->chunk_offset_ = split.offset;
  return r;
}

Result<std::string_view> SplitReader::NextWindow() {
  window_.reset();
  const uint64_t left = split_.length - consumed_;
  if (left == 0) return std::string_view();
  const uint64_t want = std::min(kWindowBytes, left);
  MR_ASSIGN_OR_RETURN(window_, source_.Read(split_.path, split_.offset + consumed_, want));
  const uint64_t got = window_->data().size();
  if (got != want) {
    return Status::IoError("input " + split_.path + " holds " + std::to_string(consumed_ + got) + " of the " +
                           std::to_string(split_.length) + " bytes of its split at offset " +
                           std::to_string(split_.offset) + " (changed since it was split)");
  }
  consumed_ += got;
  return window_->data();
}

Result<std::string_view> SplitReader::Next(uint64_t* offset) {
  auto advance = [this](size_t n) {
    chunk_.remove_prefix(n);
    chunk_offset_ += n;
  };
  for (;;) {
    if (!chunk_.empty()) {
      if (!carry_.empty()) {
        const void* nl = std::memchr(chunk_.data(), '\n', chunk_.size());
        if (nl == nullptr) {
          carry_.append(chunk_);
          advance(chunk_.size());
          continue;
        }
        const size_t take = static_cast<size_t>(static_cast<const char*>(nl) - chunk_.data()) + 1;
        carry_.append(chunk_.substr(0, take));
        advance(take);
        out_.swap(carry_);
        carry_.clear();
        *offset = carry_offset_;
        return std::string_view(out_);
      }
      const void* last = ::memrchr(chunk_.data(), '\n', chunk_.size());
      if (last == nullptr) {
        carry_offset_ = chunk_offset_;
        carry_.assign(chunk_);
        advance(chunk_.size());
        continue;
      }
      const size_t take = static_cast<size_t>(static_cast<const char*>(last) - chunk_.data()) + 1;
      std::string_view block = chunk_.substr(0, take);
      *offset = chunk_offset_;
      advance(take);
      return block;
    }
    if (ended_) return std::string_view();
    MR_ASSIGN_OR_RETURN(std::string_view chunk, NextChunk());
    if (chunk.empty()) {
      ended_ = true;
      if (carry_.empty()) return std::string_view();
      out_.swap(carry_);
      carry_.clear();
      *offset = carry_offset_;
      return std::string_view(out_);
    }
    chunk_ = chunk;
  }
}

}  // namespace mr::jobs
