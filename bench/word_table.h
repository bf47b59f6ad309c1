// Word counting core shared by the reference programs (mr_ref_wordcount, mr_mrmpi_wordcount):
// the [A-Za-z]+ tokeniser, a word hash and an open-addressing count table whose keys are
// views into caller-owned memory (the table never copies key bytes; keep them alive).
// Not thread-safe: one table per thread.
#ifndef MR_BENCH_WORD_TABLE_H_
#define MR_BENCH_WORD_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mr::bench {

struct LetterTable {
  bool is[256] = {};
  constexpr LetterTable() {
    for (int c = 'a'; c <= 'z'; ++c) is[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) is[c] = true;
  }
};
inline constexpr LetterTable kLetters;
inline bool IsLetter(char c) { return kLetters.is[static_cast<unsigned char>(c)]; }

// A word's identity for the table: its first 16 bytes zero-padded (enough for nearly every
// word, so lookups compare two integers instead of touching the input) plus its length;
// longer words are compared with memcmp.
struct WordKey {
  uint64_t w0 = 0, w1 = 0;
  uint64_t hash = 0;
};

// Loads n (<= 8) bytes at p into the low bytes of a zero-padded word; reads 8 bytes when
// that stays below safe_end.
inline uint64_t LoadPartial(const char* p, size_t n, const char* safe_end) {
  uint64_t w = 0;
  if (n == 0) return 0;
  if (p + 8 <= safe_end) {
    std::memcpy(&w, p, 8);
    if (n < 8) w &= ~0ULL >> (64 - 8 * n);
  } else {
    std::memcpy(&w, p, n);
  }
  return w;
}

inline WordKey MakeKey(const char* p, size_t n, const char* safe_end) {
  WordKey k;
  k.w0 = LoadPartial(p, n < 8 ? n : 8, safe_end);
  k.w1 = n > 8 ? LoadPartial(p + 8, n < 16 ? n - 8 : 8, safe_end) : 0;
  uint64_t h = (k.w0 ^ (n * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 32) ^ k.w1) * 0xc4ceb9fe1a85ec53ULL;
  for (size_t i = 16; i < n; i += 8) {
    h = (h ^ LoadPartial(p + i, n - i < 8 ? n - i : 8, safe_end)) * 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
  }
  k.hash = h ^ (h >> 32);
  return k;
}

// Open addressing with linear probing; keys are views into caller-owned memory.
class CountTable {
 public:
  struct Slot {
    uint64_t w0, w1;  // first 16 key bytes, zero-padded
    const char* key;  // nullptr: empty
    uint32_t len;
    uint32_t hash;    // low 32 bits of WordKey::hash
    uint64_t count;
  };

  explicit CountTable(size_t capacity_pow2 = 1 << 16) : slots_(capacity_pow2), mask_(capacity_pow2 - 1) {}

  void Add(const char* key, uint32_t len, const WordKey& k, uint64_t n) {
    size_t i = static_cast<uint32_t>(k.hash) & mask_;  // as Grow() re-slots from Slot::hash
    for (;;) {
      Slot& s = slots_[i];
      if (s.key == nullptr) {
        s = Slot{k.w0, k.w1, key, len, static_cast<uint32_t>(k.hash), n};
        if (++size_ * 2 > slots_.size()) Grow();
        return;
      }
      if (s.w0 == k.w0 && s.w1 == k.w1 && s.len == len &&
          (len <= 16 || std::memcmp(s.key + 16, key + 16, len - 16) == 0)) {
        s.count += n;
        return;
      }
      i = (i + 1) & mask_;
    }
  }
  // Adds an entry of another table.
  void Add(const Slot& o) {
    WordKey k;
    k.w0 = o.w0;
    k.w1 = o.w1;
    k.hash = o.hash;
    Add(o.key, o.len, k, o.count);
  }
  const std::vector<Slot>& slots() const { return slots_; }
  size_t size() const { return size_; }

  // Bytewise order of two occupied slots (what `LC_ALL=C sort` does), for keys without NUL
  // bytes (the zero padding would tie "a" and "a\0").
  static bool Less(const Slot& a, const Slot& b) {
    if (a.w0 != b.w0) return __builtin_bswap64(a.w0) < __builtin_bswap64(b.w0);
    if (a.w1 != b.w1) return __builtin_bswap64(a.w1) < __builtin_bswap64(b.w1);
    if (a.len <= 16 || b.len <= 16) return a.len < b.len;
    size_t n = (a.len < b.len ? a.len : b.len) - 16;
    int c = std::memcmp(a.key + 16, b.key + 16, n);
    return c != 0 ? c < 0 : a.len < b.len;
  }

 private:
  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.key == nullptr) continue;
      size_t i = s.hash & mask_;
      while (slots_[i].key != nullptr) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_;
  size_t size_ = 0;
};

// Counts the words of [p, end) into `table`; bytes up to `safe_end` (>= end) may be read.
inline void CountWords(const char* p, const char* end, const char* safe_end, CountTable& table) {
  while (p < end) {
    while (p < end && !IsLetter(*p)) ++p;
    const char* start = p;
    while (p < end && IsLetter(*p)) ++p;
    if (p > start) {
      auto len = static_cast<uint32_t>(p - start);
      table.Add(start, len, MakeKey(start, len, safe_end), 1);
    }
  }
}

}  // namespace mr::bench

#endif  // MR_BENCH_WORD_TABLE_H_
