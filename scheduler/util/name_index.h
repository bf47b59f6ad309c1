// NameIndex: short strings (pool names) -> dense ids 0, 1, 2, ... in order of
// first sight. The fair scheduler looks up one name per job per decision, so
// this is an open-addressing table that hashes a word at a time and compares a
// name of up to 8 bytes as one word, rather than a std::unordered_map (byte-wise
// hash, modulo, node chase, memcmp). Insert-only until Clear(). Not
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mr::sched {

class NameIndex {
 public:
  // The id of `name`, giving it the next id if it is new (then *added = true).
  int Intern(std::string_view name, bool* added);
  size_t size() const { return names_.size(); }
  // Forgets every name; ids start again from 0.
  void Clear();

 private:
  struct Cell {
    uint64_t hash = 0;
    uint64_t tail = 0;  // the name's last (or only) up-to-8-byte word
    size_t size = 0;
    int id = -1;        // -1 = empty
  };
  struct Hashed {
    uint64_t hash;
    uint64_t tail;
  };
  static Hashed Hash(std::string_view s);
  [[gnu::noinline]] int Add(std::string_view name, Hashed key);
  void Grow();

  std::vector<Cell> cells_;         // size a power of two, at most half full
  std::vector<std::string> names_;  // by id
};

}  // namespace mr::sched
