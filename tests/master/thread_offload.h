// An Offload (master/job_tracker.h's TrackerOptions::offload) for tests: each piece of work
// runs on a thread of its own and its `done` is queued for the test's thread (the state
// thread in these tests) to run with RunDone. A held one runs no work until Release(), the
// latch a test opens once it has seen what happens meanwhile: nothing is timed.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "master/job_seal.h"

namespace mr::master::testing {

class ThreadOffload {
 public:
  enum class Start { kAtOnce, kHeld };
  explicit ThreadOffload(Start start = Start::kAtOnce) : released_(start == Start::kAtOnce) {}
  ~ThreadOffload() {
    Release();
    for (auto& t : threads_) t.join();
  }
  ThreadOffload(const ThreadOffload&) = delete;
  ThreadOffload& operator=(const ThreadOffload&) = delete;

  Offload AsOffload() {
    return [this](std::function<void()> work, std::function<void()> done) {
      ++handed_;
      threads_.emplace_back([this, work = std::move(work), done = std::move(done)]() mutable {
        {
          std::unique_lock lock(mu_);
          cv_.wait(lock, [this] { return released_; });
        }
        work();
        std::lock_guard lock(mu_);
        done_.push_back(std::move(done));
        cv_.notify_all();
      });
    };
  }
  // How many pieces of work were handed over (on the test's thread).
  int handed() const { return handed_; }
  // Lets held work run (and any handed later).
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  // Waits until n pieces of work have finished, then runs their `done` here.
  void RunDone(size_t n) {
    std::vector<std::function<void()>> done;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return done_.size() >= n; });
      done.swap(done_);
    }
    for (auto& d : done) d();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool released_;
  std::vector<std::function<void()>> done_;
  std::vector<std::thread> threads_;
  int handed_ = 0;
};

}  // namespace mr::master::testing
