// MapRateMeter: a worker's measured map task rate (sched::WorkerView::map_task_rate), one
// definition for the master and the task-level simulator: map tasks finished per second of
// map-slot time, i.e. 1 / the mean duration of the worker's last kWindow accepted map
// attempts; 0 while none has finished. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>

namespace mr::sched {

class MapRateMeter {
 public:
  static constexpr size_t kWindow = 16;

  void Record(double seconds) {
    durations_.push_back(std::max(0.0, seconds));
    if (durations_.size() > kWindow) durations_.pop_front();
  }
  double Rate() const {
    double sum = 0;
    for (double d : durations_) sum += d;
    return sum > 0 ? static_cast<double>(durations_.size()) / sum : 0.0;
  }

 private:
  std::deque<double> durations_;  // newest last, at most kWindow
};

}  // namespace mr::sched
