// SlotRunner: the worker's task threads. Start() runs an assigned attempt in a thread of
// its own (at a lower CPU priority than the shuffle threads); when it ends, its final
// report waits in the runner's outbox, its slot is free again and `on_finished` asks for
// an immediate heartbeat. Running attempts are told apart by (job, kind, index, attempt),
// so a task's original and its backup may run here at once. Kill() ends one attempt at
// the master's request (reported KILLED); DropJob() cancels and joins every attempt of a
// job; Reset() those of a registration the master no longer knows (their reports are
// dropped); CheckHung() applies the task timeout.
//
// Threads: Start, Kill, DropJob, Reset, Reap, CheckHung and Shutdown are called by the
// heartbeat thread; TakeReports by the heartbeat thread; attempt threads only finish
// through the runner's lock. One mutex guards the attempt list, the slot counts and the
// outbox; threads are joined outside it.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mr.pb.h"
#include "worker/attempt_runner.h"
#include "worker/attempt_watch.h"

namespace mr::worker {

class SlotRunner {
 public:
  struct Options {
    uint32_t map_slots = 0;
    uint32_t reduce_slots = 0;
    uint32_t unified_slots = 0;
    AttemptContext context;                // task_timeout is set by set_task_timeout()
    std::function<void()> on_finished;     // any thread; never called with the lock held
    std::function<bool()> stopping;        // an attempt started while stopping is cancelled
    // RUNNING reports go out at most this often per attempt (seconds of `context.clock`).
    double progress_interval = 0.25;
  };

  explicit SlotRunner(Options options);
  ~SlotRunner();  // Shutdown()
  SlotRunner(const SlotRunner&) = delete;
  SlotRunner& operator=(const SlotRunner&) = delete;

  void Start(const proto::Assignment& a);
  // Cancels the named attempt, if it runs here; it ends KILLED and its partial output is
  // removed. False if no such attempt runs here (it ended, or never started).
  bool Kill(const proto::KillTask& k);
  void DropJob(uint64_t job);  // returns once the job's attempts have ended
  // Cancels and joins every attempt; their reports are dropped and every slot is free.
  void Reset();
  void Shutdown();              // cancels and joins every attempt
  void Reap();                  // joins attempt threads that have ended
  void CheckHung(double now_monotonic);
  void set_task_timeout(double seconds) { task_timeout_.store(seconds); }

  // Free slots of each kind, the final reports of ended attempts, and a RUNNING report
  // (with `progress`) for each running attempt whose last one is progress_interval old.
  void TakeReports(proto::Heartbeat* hb);

 private:
  struct Attempt {
    proto::Assignment assignment;
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
    std::shared_ptr<AttemptWatch> watch;
    std::string what;               // "map JOB/INDEX attempt N", for the log
    double start_time = 0;          // context.clock
    double last_progress_report = -1;
  };
  uint32_t& CounterLocked(const proto::Assignment& a);
  void Finish(const proto::Assignment& a, proto::TaskReport report, uint64_t generation, std::atomic<bool>* done);
  void JoinAll(std::list<Attempt>* attempts);

  const Options options_;
  std::atomic<double> task_timeout_{0};

  // State below is protected by mu_.
  std::mutex mu_;
  uint64_t generation_ = 0;  // Reset() count: a report of an earlier generation is dropped
  uint32_t running_map_ = 0, running_reduce_ = 0, running_unified_ = 0;
  std::list<Attempt> attempts_;
  std::vector<proto::TaskReport> outbox_;
};

}  // namespace mr::worker
