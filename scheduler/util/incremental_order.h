// IncrementalOrder: jobs sorted by (major, minor, position of Add), produced a
// prefix at a time. A policy ranks every job but usually consumes only the head
// of its order (the free slots run out after a few jobs), so sorting all of
// them each decision is wasted work: Prefix(n) sorts only about as far as asked
// (nth_element, then a sort of the new block; blocks grow fourfold). The
// result is exactly that of a stable sort on (major, minor): positions break
// ties, so the order is total; jobs added already in order (equal keys, say)
// are not sorted at all. Keys must not be NaN. Buffers are kept across
// Clear() so a policy can own one and allocate nothing per decision. Not
// thread-safe.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <vector>

namespace mr::sched {

class IncrementalOrder {
 public:
  // Forgets the jobs, keeps the memory.
  void Clear();
  // Adds job `job` (an index into snap.jobs); call in tie order (arrival).
  // REQUIRES: no Prefix() call since the last Clear(). Inline: policies add
  // every job of every decision.
  void Add(int job, double major, double minor = 0) {
    assert(jobs_.empty() && "Add after Prefix");
    Entry e{major, minor, static_cast<int>(entries_.size()), job};
    if (!entries_.empty() && e < entries_.back()) added_in_order_ = false;
    entries_.push_back(e);
  }
  size_t size() const { return entries_.size(); }

  // The first min(n, size()) jobs of the order.
  std::span<const int> Prefix(size_t n);
  std::span<const int> All() { return Prefix(size()); }

  // Calls fn(block) on consecutive blocks of the order, as long as more() is
  // true before each block; for consumers that stop when slots run out.
  template <typename More, typename Fn>
  void ForEachBlock(More more, Fn fn) {
    size_t done = 0;
    while (done < size() && more()) {
      std::span<const int> head = Prefix(done == 0 ? kFirstBlock : 2 * done);
      fn(head.subspan(done));
      done = head.size();
    }
  }

 private:
  static constexpr size_t kFirstBlock = 16;
  struct Entry {
    double major;
    double minor;
    int pos;
    int job;
    bool operator<(const Entry& o) const {
      if (major != o.major) return major < o.major;
      if (minor != o.minor) return minor < o.minor;
      return pos < o.pos;
    }
  };
  std::vector<Entry> entries_;  // [0, jobs_.size()) in final order, the rest unordered
  bool added_in_order_ = true;  // every Add() so far came in sorted order
  std::vector<int> jobs_;       // job indices of the sorted prefix
};

}  // namespace mr::sched
