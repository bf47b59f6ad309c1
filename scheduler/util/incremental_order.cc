#include "scheduler/util/incremental_order.h"

#include <algorithm>

namespace mr::sched {

void IncrementalOrder::Clear() {
  entries_.clear();
  jobs_.clear();
  added_in_order_ = true;
}

std::span<const int> IncrementalOrder::Prefix(size_t n) {
  n = std::min(n, entries_.size());
  const size_t sorted = jobs_.size();
  if (n > sorted && added_in_order_) {
    for (size_t i = sorted; i < n; ++i) jobs_.push_back(entries_[i].job);
  } else if (n > sorted) {
    // Grow the sorted prefix fourfold so a consumer that goes deep pays few
    // nth_element passes; once more than half would be sorted, sorting the
    // rest is cheaper than selecting first.
    size_t target = std::max({n, 4 * sorted, kFirstBlock});
    if (2 * target >= entries_.size()) target = entries_.size();
    auto first = entries_.begin() + static_cast<std::ptrdiff_t>(sorted);
    auto mid = entries_.begin() + static_cast<std::ptrdiff_t>(target);
    if (mid != entries_.end()) std::nth_element(first, mid, entries_.end());
    std::sort(first, mid);
    for (auto it = first; it != mid; ++it) jobs_.push_back(it->job);
  }
  return std::span<const int>(jobs_.data(), n);
}

}  // namespace mr::sched
