#include "jobs/word_counter.h"

#include <bit>
#include <cstring>

namespace mr::jobs {

static_assert(std::endian::native == std::endian::little, "slot keys are little-endian loads");

namespace {

struct LetterTable {
  bool is[256] = {};
  constexpr LetterTable() {
    for (int c = 'a'; c <= 'z'; ++c) is[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) is[c] = true;
  }
};
constexpr LetterTable kLetters;

inline bool Letter(char c) { return kLetters.is[static_cast<unsigned char>(c)]; }

constexpr size_t kInitialSlots = size_t{1} << 14;

inline uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

// tail: the key's bytes from 16 on (len - 16 of them); unused when len <= 16.
inline uint64_t Hash(uint64_t w0, uint64_t w1, uint32_t len, const char* tail) {
  uint64_t h = w0 * 0x9E3779B97F4A7C15ULL ^ (w1 + len) * 0xC2B2AE3D27D4EB4FULL;
  for (uint32_t i = 16; i < len; ++i) h = (h ^ static_cast<unsigned char>(tail[i - 16])) * 0x100000001b3ULL;
  return Mix(h);
}

// n (<= 8) bytes at p as the low bytes of a zero-padded word. One 8-byte load
// when that stays below safe_end: words are short and this is the hot path.
inline uint64_t Load(const char* p, size_t n, const char* safe_end) {
  uint64_t w = 0;
  if (n == 0) return 0;
  if (safe_end - p >= 8) {
    std::memcpy(&w, p, 8);
    return n < 8 ? w & (~0ULL >> (64 - 8 * n)) : w;
  }
  std::memcpy(&w, p, n);
  return w;
}

}  // namespace

bool IsWordLetter(char c) { return Letter(c); }

WordCounter::WordCounter(size_t max_distinct)
    : max_distinct_(max_distinct == 0 ? 1 : max_distinct), slots_(kInitialSlots) {}

void WordCounter::CountText(const char* text, size_t size, const char* safe_end) {
  const char* p = text;
  const char* end = text + size;
  while (p < end) {
    while (p < end && !Letter(*p)) ++p;
    const char* start = p;
    while (p < end && Letter(*p)) ++p;
    const size_t len = static_cast<size_t>(p - start);
    if (len == 0) continue;
    if (TooLong(len)) {
      huge_.emplace_back(std::string(start, len), 1);
      continue;
    }
    const uint64_t w0 = Load(start, len < 8 ? len : 8, safe_end);
    const uint64_t w1 = len > 8 ? Load(start + 8, len < 16 ? len - 8 : 8, safe_end) : 0;
    AddLoaded(start, static_cast<uint32_t>(len), w0, w1, 1);
  }
}

void WordCounter::Add(std::string_view word, uint64_t n) {
  if (word.empty()) return;
  if (TooLong(word.size())) {
    huge_.emplace_back(std::string(word), n);
    return;
  }
  const char* safe_end = word.data() + word.size();
  const size_t len = word.size();
  const uint64_t w0 = Load(word.data(), len < 8 ? len : 8, safe_end);
  const uint64_t w1 = len > 8 ? Load(word.data() + 8, len < 16 ? len - 8 : 8, safe_end) : 0;
  AddLoaded(word.data(), static_cast<uint32_t>(len), w0, w1, n);
}

bool WordCounter::TailEquals(const Slot& s, const char* word) const {
  return std::memcmp(tails_.data() + s.tail, word + 16, s.len - 16) == 0;
}

void WordCounter::AddLoaded(const char* word, uint32_t len, uint64_t w0, uint64_t w1, uint64_t n) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Hash(w0, w1, len, word + 16) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.len == 0) {
      s = Slot{w0, w1, len, 0, n};
      if (len > 16) {
        s.tail = static_cast<uint32_t>(tails_.size());
        tails_.append(word + 16, len - 16);
      }
      if (++size_ * 2 > slots_.size()) Grow();
      return;
    }
    if (s.w0 == w0 && s.w1 == w1 && s.len == len && (len <= 16 || TailEquals(s, word))) {
      s.count += n;
      return;
    }
  }
}

void WordCounter::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.len == 0) continue;
    size_t i = Hash(s.w0, s.w1, s.len, tails_.data() + s.tail) & mask;
    while (slots_[i].len != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void WordCounter::Drain(const std::function<void(std::string_view, uint64_t)>& fn) {
  std::string key;
  for (Slot& s : slots_) {
    if (s.len == 0) continue;
    key.resize(s.len > 16 ? s.len : 16);
    std::memcpy(key.data(), &s.w0, 8);
    std::memcpy(key.data() + 8, &s.w1, 8);
    if (s.len > 16) std::memcpy(key.data() + 16, tails_.data() + s.tail, s.len - 16);
    fn(std::string_view(key.data(), s.len), s.count);
    s = Slot{};
  }
  for (const auto& [word, n] : huge_) fn(word, n);
  huge_.clear();
  tails_.clear();
  size_ = 0;
}

}  // namespace mr::jobs
