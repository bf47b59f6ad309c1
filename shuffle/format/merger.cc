#include "shuffle/format/merger.h"

#include <cstdio>
#include <cstring>

#include "common/crc32c.h"
#include "shuffle/map_output.h"

namespace mr::shuffle {

namespace {

// The key's first 8 bytes as a big-endian number (zero padded): comparing two of them
// orders keys as comparing their first 8 bytes does (a shorter key, padded with zeros,
// ties with a longer one that continues with zeros: equal prefixes fall back to the bytes).
uint64_t KeyPrefix(std::string_view key) {
  if (key.size() >= 8) {
    uint64_t w;
    std::memcpy(&w, key.data(), 8);
    return __builtin_bswap64(w);
  }
  uint64_t p = 0;
  for (size_t i = 0; i < key.size(); ++i) p |= uint64_t{static_cast<unsigned char>(key[i])} << (56 - 8 * i);
  return p;
}

}  // namespace

RunMerger::RunMerger(std::vector<std::string_view> runs, std::vector<uint32_t> expected_crcs)
    : expected_(std::move(expected_crcs)) {
  if (checked() && expected_.size() != runs.size()) {
    status_ = Status::InvalidArgument(std::to_string(expected_.size()) + " checksums for " +
                                      std::to_string(runs.size()) + " runs");
    return;
  }
  cursors_.resize(runs.size());
  for (uint32_t i = 0; i < runs.size(); ++i) {
    cursors_[i].run = runs[i];
    if (Advance(i)) heap_.push_back(i);
  }
  for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
}

void RunMerger::HashTo(uint32_t c, size_t end) {
  Cursor& cur = cursors_[c];
  if (end <= cur.hashed) return;
  cur.crc = crc32c::Extend(cur.crc, cur.run.data() + cur.hashed, end - cur.hashed);
  cur.hashed = end;
}

bool RunMerger::RunIntact(uint32_t c) {
  HashTo(c, cursors_[c].run.size());
  if (cursors_[c].crc == expected_[c]) return true;
  char detail[64];
  std::snprintf(detail, sizeof detail, "expected crc32c 0x%08x, got 0x%08x", expected_[c], cursors_[c].crc);
  status_ = Status::DataLoss("run " + std::to_string(c) + " failed its checksum: " + detail);
  corrupt_.push_back(c);
  return false;
}

void RunMerger::FailRun(uint32_t c, Status error) {
  if (checked() && !RunIntact(c)) return;
  status_ = std::move(error);
}

bool RunMerger::Advance(uint32_t c) {
  Cursor& cur = cursors_[c];
  if (cur.pos >= cur.run.size()) {
    if (checked()) RunIntact(c);
    return false;
  }
  std::string_view prev = cur.key;
  const uint64_t prev_prefix = cur.prefix;
  const bool had_prev = cur.pos > 0;
  const size_t at = cur.pos;
  if (!ParseRecord(cur.run, &cur.pos, &cur.key, &cur.value)) {
    FailRun(c, Status::InvalidArgument("run " + std::to_string(c) + ": malformed record at byte " + std::to_string(at)));
    return false;
  }
  cur.prefix = KeyPrefix(cur.key);
  if (had_prev && (cur.prefix < prev_prefix || (cur.prefix == prev_prefix && cur.key < prev))) {
    FailRun(c, Status::InvalidArgument("run " + std::to_string(c) + ": keys out of order at byte " + std::to_string(at)));
    return false;
  }
  if (checked() && cur.pos - cur.hashed >= kCrcStep) HashTo(c, cur.pos);
  return true;
}

bool RunMerger::Less(uint32_t a, uint32_t b) const {
  const Cursor& x = cursors_[a];
  const Cursor& y = cursors_[b];
  if (x.prefix != y.prefix) return x.prefix < y.prefix;
  int c = x.key.compare(y.key);
  return c < 0 || (c == 0 && a < b);
}

void RunMerger::SiftDown(size_t i) {
  const size_t n = heap_.size();
  for (;;) {
    size_t best = i, l = 2 * i + 1, r = l + 1;
    if (l < n && Less(heap_[l], heap_[best])) best = l;
    if (r < n && Less(heap_[r], heap_[best])) best = r;
    if (best == i) return;
    std::swap(heap_[i], heap_[best]);
    i = best;
  }
}

void RunMerger::PopTop() {
  heap_[0] = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftDown(0);
}

bool RunMerger::NextKey() {
  std::string_view ignored;
  while (in_group_ && NextValue(&ignored)) {
  }
  if (!status_.ok() || heap_.empty()) return false;
  key_ = cursors_[heap_[0]].key;
  in_group_ = true;
  return true;
}

bool RunMerger::NextValue(std::string_view* value) {
  if (!in_group_ || !status_.ok() || heap_.empty() || cursors_[heap_[0]].key != key_) {
    in_group_ = false;
    return false;
  }
  const uint32_t top = heap_[0];
  *value = cursors_[top].value;
  ++records_read_;
  if (Advance(top)) {
    SiftDown(0);
  } else {
    PopTop();
  }
  return true;
}

}  // namespace mr::shuffle
