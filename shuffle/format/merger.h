// RunMerger: k-way merge (binary heap) of sorted runs of records (shuffle/
// map_output.h encoding), grouped by key. Used by the map-side spill merge and by
// reduce tasks. Ties between runs go to the lower run index, so values of one key
// come out in run order (a spill merge keeps emission order).
// The runs' memory must outlive the merger; returned views point into it.
// With expected CRC32Cs (one per run), each run's bytes are checked as the merge reads
// them (in 64 KiB steps, while they are still in cache), and in full when the run ends: a
// mismatch, or a malformed or unsorted run whose bytes fail their CRC, stops the merge with
// DataLoss and the run in corrupt_runs(). Records handed out before the check are not
// trusted: the caller discards everything it made of them when the merge ends in DataLoss
// (as Hadoop's IFile reader checks a segment's checksum at its end).
// Thread-compatible (one merger per task thread).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::shuffle {

class RunMerger {
 public:
  explicit RunMerger(std::vector<std::string_view> runs, std::vector<uint32_t> expected_crcs = {});

  // Moves to the next distinct key, skipping unread values of the current one.
  // False at the end or on a malformed or unsorted run (then status() says why).
  bool NextKey();
  std::string_view key() const { return key_; }
  // Next value of the current key; false when the key has no more values.
  bool NextValue(std::string_view* value);

  const Status& status() const { return status_; }
  uint64_t records_read() const { return records_read_; }
  // The first bytes of run i the merger is done with: before its current record and, with
  // checksums on, already hashed. Reading them again is allowed (the views stay valid) but
  // not needed, so a caller may drop their pages (MADV_DONTNEED on a file mapping).
  size_t done_bytes(uint32_t i) const {
    const Cursor& c = cursors_[i];
    size_t done = 0;
    if (c.pos >= c.run.size()) {
      done = c.run.size();  // exhausted
    } else if (c.pos > 0) {
      done = static_cast<size_t>(c.key.data() - c.run.data());  // the current record's start
    }
    return checked() && c.hashed < done ? c.hashed : done;
  }
  size_t num_runs() const { return cursors_.size(); }
  // Bytes of the runs consumed so far, over all runs (for progress). O(runs).
  uint64_t bytes_consumed() const {
    uint64_t n = 0;
    for (const auto& c : cursors_) n += c.pos;
    return n;
  }
  // Runs found corrupt (DataLoss); empty otherwise.
  const std::vector<uint32_t>& corrupt_runs() const { return corrupt_; }

 private:
  struct Cursor {
    std::string_view run;
    size_t pos = 0;
    std::string_view key, value;
    uint64_t prefix = 0;  // key's first 8 bytes, big-endian, zero padded: most compares end here
    size_t hashed = 0;  // bytes [0, hashed) are folded into crc
    uint32_t crc = 0;
  };
  static constexpr size_t kCrcStep = 64 << 10;
  bool checked() const { return !expected_.empty(); }
  // Folds the run's bytes up to `end` into its CRC.
  void HashTo(uint32_t c, size_t end);
  // The whole run hashed: false (status DataLoss, run recorded) if it differs.
  bool RunIntact(uint32_t c);
  // A parse or order error in run c: DataLoss if its bytes fail their CRC, else `error`.
  void FailRun(uint32_t c, Status error);
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
  std::vector<uint32_t> expected_;
  std::vector<uint32_t> corrupt_;
};

}  // namespace mr::shuffle
