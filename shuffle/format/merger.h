// RunMerger: k-way merge (binary heap) of sorted runs of records (shuffle/
// map_output.h encoding), grouped by key. Used by the map-side spill merge and by
// reduce tasks. Ties between runs go to the lower run index, so values of one key
// come out in run order (a spill merge keeps emission order).
// The runs' memory must outlive the merger; returned views point into it.
// Thread-compatible (one merger per task thread).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::shuffle {

class RunMerger {
 public:
  explicit RunMerger(std::vector<std::string_view> runs);

  // Moves to the next distinct key, skipping unread values of the current one.
  // False at the end or on a malformed or unsorted run (then status() says why).
  bool NextKey();
  std::string_view key() const { return key_; }
  // Next value of the current key; false when the key has no more values.
  bool NextValue(std::string_view* value);

  const Status& status() const { return status_; }
  uint64_t records_read() const { return records_read_; }

 private:
  struct Cursor {
    std::string_view run;
    size_t pos = 0;
    std::string_view key, value;
  };
  // Loads the cursor's next record; false when exhausted or malformed.
  bool Advance(uint32_t c);
  bool Less(uint32_t a, uint32_t b) const;
  void SiftDown(size_t i);
  void PopTop();

  std::vector<Cursor> cursors_;
  std::vector<uint32_t> heap_;  // cursor indices, min-heap by (key, index)
  std::string_view key_;
  bool in_group_ = false;
  uint64_t records_read_ = 0;
  Status status_;
};

}  // namespace mr::shuffle
