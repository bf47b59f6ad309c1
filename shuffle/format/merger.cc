#include "shuffle/format/merger.h"

#include "shuffle/map_output.h"

namespace mr::shuffle {

RunMerger::RunMerger(std::vector<std::string_view> runs) {
  cursors_.resize(runs.size());
  for (uint32_t i = 0; i < runs.size(); ++i) {
    cursors_[i].run = runs[i];
    if (Advance(i)) heap_.push_back(i);
  }
  for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
}

bool RunMerger::Advance(uint32_t c) {
  Cursor& cur = cursors_[c];
  if (cur.pos >= cur.run.size()) return false;
  std::string_view prev = cur.key;
  const bool had_prev = cur.pos > 0;
  const size_t at = cur.pos;
  if (!ParseRecord(cur.run, &cur.pos, &cur.key, &cur.value)) {
    status_ = Status::InvalidArgument("run " + std::to_string(c) + ": malformed record at byte " +
                                      std::to_string(at));
    return false;
  }
  if (had_prev && cur.key < prev) {
    status_ = Status::InvalidArgument("run " + std::to_string(c) + ": keys out of order at byte " +
                                      std::to_string(at));
    return false;
  }
  return true;
}

bool RunMerger::Less(uint32_t a, uint32_t b) const {
  int c = cursors_[a].key.compare(cursors_[b].key);
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
