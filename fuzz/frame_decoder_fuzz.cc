// libFuzzer target: FrameDecoder fed arbitrary bytes in arbitrary chunks, checked against
// a one-pass reference decoder of the same stream. Input layout: 2 bytes choose the
// maximum frame size, then records of (1 byte chunk length, chunk bytes).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/framing.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "frame_decoder_fuzz: invariant broken: %s\n", what);
    abort();
  }
}

struct Reference {
  std::vector<std::string> frames;  // complete frames before any oversized header
  bool oversized = false;           // a complete header announced more than the maximum
  size_t leftover = 0;              // bytes after the last complete frame
};

Reference Decode(const std::string& s, uint32_t max) {
  Reference r;
  size_t p = 0;
  while (s.size() - p >= mr::kFrameHeaderBytes) {
    uint32_t len = mr::DecodeFrameLength(reinterpret_cast<const unsigned char*>(s.data() + p));
    if (len > max) {
      r.oversized = true;
      return r;
    }
    if (s.size() - p - mr::kFrameHeaderBytes < len) break;
    r.frames.push_back(s.substr(p + mr::kFrameHeaderBytes, len));
    p += mr::kFrameHeaderBytes + len;
  }
  r.leftover = s.size() - p;
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  // Small maxima make oversized headers likely; large ones exercise buffering.
  uint32_t max = (uint32_t{data[0]} << 8 | data[1]) * 16;
  mr::FrameDecoder decoder(max);
  std::string stream;
  std::vector<std::string> popped;
  bool failed = false;
  for (size_t pos = 2; pos < size;) {
    size_t n = std::min<size_t>(data[pos], size - pos - 1);
    const char* chunk = reinterpret_cast<const char*>(data + pos + 1);
    pos += 1 + n;
    stream.append(chunk, n);
    mr::Status s = decoder.Feed(chunk, n);
    Check(s.ok() == !decoder.failed(), "Feed status agrees with failed()");
    if (!s.ok()) {
      failed = true;
      Check(s.code() == mr::StatusCode::kProtocolError, "oversize is a ProtocolError");
      break;
    }
    while (auto f = decoder.Next()) {
      Check(f->size() <= max, "no payload above the maximum");
      popped.push_back(std::move(*f));
    }
  }
  Reference ref = Decode(stream, max);
  Check(failed == ref.oversized, "fails exactly when a header is oversized");
  Check(popped.size() <= ref.frames.size(), "no invented frames");
  for (size_t i = 0; i < popped.size(); ++i)
    Check(popped[i] == ref.frames[i], "frames equal the reference");
  if (failed) {
    Check(!decoder.Next().has_value(), "nothing after failure");
    Check(!decoder.Feed("x", 1).ok(), "stays failed");
  } else {
    Check(popped.size() == ref.frames.size(), "every complete frame popped");
    Check(decoder.buffered() == ref.leftover, "buffered bytes are the incomplete tail");
  }
  return 0;
}
