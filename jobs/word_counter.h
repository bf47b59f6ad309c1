// WordCounter: wordcount's in-mapper combiner. Counts words (maximal runs of
// ASCII letters) in an open-addressing table whose 32-byte slots hold the first 16
// key bytes inline, so nearly every lookup compares two integers and touches one
// cache line; only words longer than 16 bytes keep their tail in an arena. Nothing
// is allocated per word. Single-threaded (one per map task).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mr::jobs {

class WordCounter {
 public:
  // Distinct words held before Full() says to flush; bounds the table to
  // 2 * max_distinct slots (32 bytes each) plus the long words' tails.
  explicit WordCounter(size_t max_distinct = size_t{1} << 19);

  // Counts every word of text[0, size). Reads may look up to 16 bytes past a word
  // but never at or past safe_end. REQUIRES: text + size <= safe_end.
  void CountText(const char* text, size_t size, const char* safe_end);
  // Counts one word (any bytes).
  void Add(std::string_view word, uint64_t n = 1);

  bool Full() const { return size_ >= max_distinct_ || tails_.size() >= kMaxTailBytes; }
  size_t size() const { return size_; }
  // Calls fn(word, count) for every word, in table order, then empties the table.
  void Drain(const std::function<void(std::string_view, uint64_t)>& fn);

 private:
  struct Slot {
    uint64_t w0, w1;   // key bytes 0-7 and 8-15, little-endian, zero padded
    uint32_t len;      // 0: empty slot
    uint32_t tail;     // key bytes 16.. at tails_[tail] when len > 16
    uint64_t count;
  };
  static constexpr size_t kMaxTailBytes = size_t{256} << 20;
  // Words whose tail would not fit a 32-bit arena offset go to huge_ (never in practice).
  bool TooLong(size_t len) const { return len > UINT32_MAX || tails_.size() + len > UINT32_MAX; }
  void CountWord(const char* start, size_t len, const char* safe_end);
  void AddLoaded(const char* word, uint32_t len, uint64_t w0, uint64_t w1, uint64_t n);
  bool TailEquals(const Slot& s, const char* word) const;
  void Grow();

  size_t max_distinct_;
  size_t size_ = 0;
  std::vector<Slot> slots_;  // power-of-two size, at most half full
  std::string tails_;
  std::vector<std::pair<std::string, uint64_t>> huge_;
};

// The tokeniser's letter test: [A-Za-z].
bool IsWordLetter(char c);

}  // namespace mr::jobs
