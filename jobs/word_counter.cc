#include "jobs/word_counter.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Bit i set iff p[i] is in [A-Za-z], for the 16 bytes at p: (c | 0x20) - 'a' <= 25
// unsigned (SSE2, the x86-64 baseline; the OR maps only A-Z onto a-z's range).
inline uint32_t LetterMask16(const char* p) {
#if !defined(__SSE2__)
  uint32_t m = 0;
  for (int i = 0; i < 16; ++i) m |= uint32_t{Letter(p[i])} << i;
  return m;
#else
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i t = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
  const __m128i letter = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(25)), t);
  return static_cast<uint32_t>(_mm_movemask_epi8(letter));
#endif
}

// Bit i set iff p[i] is a letter, for the n (<= 64) bytes at p; bits from n on are clear.
// Reads 64 bytes when n is 64, else copies the n bytes aside first (reads stay inside).
inline uint64_t LetterMask64(const char* p, size_t n) {
  alignas(16) char tail[64];
  if (n < 64) {
    std::memset(tail, 0, sizeof tail);
    std::memcpy(tail, p, n);
    p = tail;
  }
  return uint64_t{LetterMask16(p)} | uint64_t{LetterMask16(p + 16)} << 16 |
         uint64_t{LetterMask16(p + 32)} << 32 | uint64_t{LetterMask16(p + 48)} << 48;
}

}  // namespace

bool IsWordLetter(char c) { return Letter(c); }

WordCounter::WordCounter(size_t max_distinct)
    : max_distinct_(max_distinct == 0 ? 1 : max_distinct), slots_(kInitialSlots) {}

[[gnu::always_inline]] inline bool WordCounter::TailEquals(const Slot& s, const char* word) const {
  return std::memcmp(tails_.data() + s.tail, word + 16, s.len - 16) == 0;
}

[[gnu::always_inline]] inline void WordCounter::AddLoaded(const char* word, uint32_t len, uint64_t w0, uint64_t w1, uint64_t n) {
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

// Inlined into CountText's loop: a call per word cost ~10 instructions of prologue.
[[gnu::always_inline]] inline void WordCounter::CountWord(const char* start, size_t len, const char* safe_end) {
  if (TooLong(len)) {
    huge_.emplace_back(std::string(start, len), 1);
    return;
  }
  if (safe_end - start >= 16) {
    // The common case without branches: two 8-byte loads, each masked to the word's bytes.
    static constexpr uint64_t kMask[9] = {0,          0xff,           0xffff,           0xffffff,
                                          0xffffffff, 0xffffffffff,   0xffffffffffff,   0xffffffffffffff,
                                          ~0ULL};
    uint64_t w0, w1;
    std::memcpy(&w0, start, 8);
    std::memcpy(&w1, start + 8, 8);
    const size_t l0 = len < 8 ? len : 8;
    const size_t l1 = len < 8 ? 0 : len < 16 ? len - 8 : 8;
    AddLoaded(start, static_cast<uint32_t>(len), w0 & kMask[l0], w1 & kMask[l1], 1);
    return;
  }
  const uint64_t w0 = Load(start, len < 8 ? len : 8, safe_end);
  const uint64_t w1 = len > 8 ? Load(start + 8, len < 16 ? len - 8 : 8, safe_end) : 0;
  AddLoaded(start, static_cast<uint32_t>(len), w0, w1, 1);
}

void WordCounter::CountText(const char* text, size_t size, const char* safe_end) {
  // Words are found 64 bytes at a time from a letter bitmask: a word starts at a letter
  // whose predecessor is not one and ends at the first non-letter after it, so each word
  // costs two bit scans and no byte is tested by a branch of its own.
  bool in_word = false;
  size_t word_start = 0;
  for (size_t base = 0; base < size; base += 64) {
    const size_t n = size - base < 64 ? size - base : 64;
    const uint64_t m = LetterMask64(text + base, n);
    const uint64_t before = (m << 1) | (in_word ? 1 : 0);
    uint64_t starts = m & ~before;
    uint64_t ends = ~m & before;  // bit i: the word ended just before byte i
    for (;;) {
      if (in_word) {
        if (ends == 0) break;
        const size_t end = base + static_cast<size_t>(std::countr_zero(ends));
        ends &= ends - 1;
        in_word = false;
        CountWord(text + word_start, end - word_start, safe_end);
      } else {
        if (starts == 0) break;
        word_start = base + static_cast<size_t>(std::countr_zero(starts));
        starts &= starts - 1;
        in_word = true;
      }
    }
  }
  if (in_word) CountWord(text + word_start, size - word_start, safe_end);
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
