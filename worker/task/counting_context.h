// The TaskContext given to a task's mapper, combiner and reducer: user counters
// land in the task's TaskCounters. Used by one task thread only.
#pragma once

#include <string>
#include <string_view>

#include "jobs/job.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class CountingContext final : public jobs::TaskContext {
 public:
  // cancel may be null (the task cannot be cancelled).
  CountingContext(TaskCounters* counters, double speed, const std::atomic<bool>* cancel)
      : counters_(counters), speed_(speed), cancel_(cancel) {}
  void IncrementCounter(std::string_view name, int64_t delta) override {
    counters_->user[std::string(name)] += delta;
  }
  double speed() const override { return speed_; }
  const std::atomic<bool>* cancel_flag() const override { return cancel_; }

 private:
  TaskCounters* counters_;
  double speed_;
  const std::atomic<bool>* cancel_;
};

}  // namespace mr::worker
