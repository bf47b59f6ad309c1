#include "scheduler/util/name_index.h"

#include <cstring>

namespace mr::sched {
namespace {

constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;  // 2^64 / golden ratio, odd

// Bytes [p, p + n), 1 <= n <= 8, packed little-endian into one word, with two
// loads rather than a loop over the bytes (the loads overlap when n < 8).
uint64_t PackWord(const char* p, size_t n) {
  auto byte = [p](size_t i) { return uint64_t{static_cast<unsigned char>(p[i])}; };
  if (n < 4) return byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1));
  uint32_t lo, hi;
  std::memcpy(&lo, p, sizeof lo);
  std::memcpy(&hi, p + n - 4, sizeof hi);
  return uint64_t{lo} | uint64_t{hi} << (8 * (n - 4));
}

}  // namespace

// Whole 8-byte words, then the last 1-8 bytes packed into `tail`; each word is
// folded in with a multiply, and the high bits mixed down for the mask.
inline NameIndex::Hashed NameIndex::Hash(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = n * kMul;
  while (n > 8) {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    h = (h ^ w) * kMul;
    p += 8;
    n -= 8;
  }
  const uint64_t tail = n == 0 ? 0 : PackWord(p, n);
  h = (h ^ tail) * kMul;
  return {h ^ (h >> 29), tail};
}

int NameIndex::Intern(std::string_view name, bool* added) {
  *added = false;
  const auto [h, tail] = Hash(name);
  const size_t mask = cells_.size() - 1;  // cells_ empty: wraps, and Add grows
  for (size_t i = h & mask; !cells_.empty(); i = (i + 1) & mask) {
    const Cell& c = cells_[i];
    if (c.id < 0) break;
    // Up to 8 bytes, the tail word is the whole name.
    if (c.hash == h && c.size == name.size() && c.tail == tail &&
        (name.size() <= 8 || names_[c.id] == name)) {
      return c.id;
    }
  }
  *added = true;
  return Add(name, {h, tail});
}

// Out of line, so the lookup above stays small.
int NameIndex::Add(std::string_view name, Hashed key) {
  if (2 * (names_.size() + 1) > cells_.size()) Grow();
  const size_t mask = cells_.size() - 1;
  size_t i = key.hash & mask;
  while (cells_[i].id >= 0) i = (i + 1) & mask;
  cells_[i] = {key.hash, key.tail, name.size(), static_cast<int>(names_.size())};
  names_.emplace_back(name);
  return cells_[i].id;
}

void NameIndex::Grow() {
  std::vector<Cell> old;
  old.swap(cells_);
  cells_.assign(old.empty() ? 16 : 2 * old.size(), Cell{});
  const size_t mask = cells_.size() - 1;
  for (const Cell& c : old) {
    if (c.id < 0) continue;
    size_t i = c.hash & mask;
    while (cells_[i].id >= 0) i = (i + 1) & mask;
    cells_[i] = c;
  }
}

void NameIndex::Clear() {
  cells_.clear();
  names_.clear();
}

}  // namespace mr::sched
