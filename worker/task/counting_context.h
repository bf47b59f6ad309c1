// The TaskContext given to a task's mapper, combiner and reducer: user counters
// land in the task's TaskCounters (task thread only); Progress() ticks the attempt's
// progress counter, SetFraction() sets its share of work done, and Cancelled() reads its
// cancel flag (any thread; each may be null); SetStderrTail() keeps a child's stderr tail
// and SetStatus() the task's status line for the attempt's report (task thread; may be
// null); task() is the identity set_task() was given (an empty one by default).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "jobs/job.h"
#include "worker/task/attempt_log.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class CountingContext final : public jobs::TaskContext {
 public:
  // fraction_scale: what SetFraction(1) stores (a slow worker's work is only that share of
  // its run: worker/task/slot_hold.h).
  CountingContext(TaskCounters* counters, double speed, std::atomic<uint64_t>* progress = nullptr,
                  const std::atomic<bool>* cancel = nullptr, std::atomic<double>* fraction = nullptr,
                  double fraction_scale = 1.0, std::string* stderr_tail = nullptr)
      : counters_(counters),
        speed_(speed),
        progress_(progress),
        cancel_(cancel),
        fraction_(fraction),
        fraction_scale_(fraction_scale),
        stderr_tail_(stderr_tail) {}
  void IncrementCounter(std::string_view name, int64_t delta) override {
    counters_->user[std::string(name)] += delta;
  }
  double speed() const override { return speed_; }
  void Progress() override {
    if (progress_ != nullptr) progress_->fetch_add(1, std::memory_order_relaxed);
  }
  const std::atomic<bool>* cancel_flag() const override { return cancel_; }
  void SetFraction(double done) override {
    if (fraction_ != nullptr) fraction_->store(done * fraction_scale_, std::memory_order_relaxed);
  }
  void SetStderrTail(std::string tail) override {
    if (stderr_tail_ != nullptr) *stderr_tail_ = std::move(tail);
  }
  void AppendLog(std::string_view bytes) override {
    if (log_ != nullptr) log_->Append(bytes);
  }
  void SetStatus(std::string status) override {
    if (status_) status_(std::move(status));
  }
  const jobs::TaskIdentity& task() const override { return task_ != nullptr ? *task_ : TaskContext::task(); }

  // Not owned; must outlive the context. May be null.
  void set_task(const jobs::TaskIdentity* task) { task_ = task; }
  void set_status_sink(std::function<void(std::string)> sink) { status_ = std::move(sink); }
  // The attempt's log (not owned; outlives the context); may be null.
  void set_log(AttemptLog* log) { log_ = log; }

 private:
  TaskCounters* counters_;
  double speed_;
  std::atomic<uint64_t>* progress_;
  const std::atomic<bool>* cancel_;
  std::atomic<double>* fraction_;
  double fraction_scale_;
  std::string* stderr_tail_;
  std::function<void(std::string)> status_;
  const jobs::TaskIdentity* task_ = nullptr;
  AttemptLog* log_ = nullptr;
};

}  // namespace mr::worker
