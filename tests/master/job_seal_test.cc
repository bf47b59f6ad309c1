// A job's seal (master/job_seal.h) runs off the state thread: while the trace is being read
// and parsed on another thread, the tracker keeps answering heartbeats and status, the job
// shows RUNNING in phase "sealing" and a client's wait stays parked; once the seal's result
// is handed back, the output has _SUCCESS and _trace.jsonl and the ARIA profile is stored.
// The seal thread is held on a latch until the test releases it: nothing here is timed.
#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "common/file_util.h"
#include "master/state_store.h"
#include "scheduler/scheduler.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

// An Offload whose work runs on its own thread once Release() is called; its `done` is
// queued for the test's thread (the state thread here) to run with RunDone().
class HeldOffload {
 public:
  ~HeldOffload() {
    Release();
    for (auto& t : threads_) t.join();
  }
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
  int handed() const { return handed_; }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  // Waits for n seals' results, then runs them here.
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
  bool released_ = false;
  std::vector<std::function<void()>> done_;
  std::vector<std::thread> threads_;
  int handed_ = 0;
};

TEST(JobSealTest, HeartbeatsAreAnsweredWhileTheTraceIsParsedElsewhere) {
  TempDir dir("job-seal");
  const std::string db = JoinPath(dir.path(), "db");
  HeldOffload held;
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = held.AsOffload();
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto fifo = sched::CreateScheduler("fifo");
  ASSERT_TRUE(fifo.ok());
  TrackerHarness h(dir.path(), std::move(fifo).value(), std::move(store).value(), o);
  const uint32_t w = h.AddWorker(2, 1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/3, /*reduces=*/2);
  spec.set_name("sealed");
  const uint64_t job = h.Submit(spec);
  h.Beat(w);
  h.FinishMaps(w);
  h.Beat(w);
  h.FinishMaps(w);
  h.RunReduces(w);
  ASSERT_EQ(held.handed(), 1) << "every reduce committed: the seal was handed off";

  // The seal is held: the state thread answers a status, a wait and a heartbeat meanwhile.
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "RUNNING");
  EXPECT_EQ(st.phase(), "sealing");
  EXPECT_FALSE(PathExists(JoinPath(spec.output(), "_trace.jsonl")));
  EXPECT_FALSE(PathExists(JoinPath(spec.output(), "_SUCCESS")));
  auto client = h.Connect("client");
  proto::Envelope wait;
  wait.mutable_wait_job()->set_job_id(job);
  wait.mutable_wait_job()->set_timeout_ms(1000);
  EXPECT_EQ(h.handler().Handle(*client, wait).park_job, job) << "a client's wait stays parked";
  for (int i = 0; i < 3; ++i) {
    h.clock().Advance(1);
    proto::HeartbeatReply r = h.Beat(w);
    EXPECT_GT(r.heartbeat_ms(), 0u) << "heartbeat " << i << " answered";
  }
  // And schedules: a job submitted now gets its maps on the next heartbeat.
  h.worker(w).maps.clear();
  const uint64_t next = h.Submit(h.SyntheticSpec(2, 1));
  h.Beat(w);
  EXPECT_EQ(h.worker(w).maps.size(), 2u) << "job " << next << "'s maps assigned while the seal is held";
  auto stored = StateStore::OpenReadOnly(db);
  ASSERT_TRUE(stored.ok());
  EXPECT_TRUE((*stored)->AriaProfiles("sealed")->empty()) << "no profile before the parse";

  held.Release();
  held.RunDone(1);
  st = h.Status(job);
  EXPECT_EQ(st.state(), "SUCCEEDED") << st.error();
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), "_SUCCESS")));
  auto copy = ReadFileToString(JoinPath(spec.output(), "_trace.jsonl"));
  ASSERT_TRUE(copy.ok());
  EXPECT_NE(copy->find("\"event\":\"job_end\""), std::string::npos) << "the copy ends with job_end";
  EXPECT_FALSE(PathExists(JoinPath(spec.output(), "_temporary")));
  stored = StateStore::OpenReadOnly(db);
  ASSERT_TRUE(stored.ok());
  auto runs = (*stored)->AriaProfiles("sealed");
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 1u) << "the seal's profile was stored on the state thread";
}

TEST(JobSealTest, AKilledJobIsSealedWithoutOutput) {
  TempDir dir("job-seal");
  HeldOffload held;
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = held.AsOffload();
  auto fifo = sched::CreateScheduler("fifo");
  ASSERT_TRUE(fifo.ok());
  TrackerHarness h(dir.path(), std::move(fifo).value(), nullptr, o);
  proto::JobSpec spec = h.SyntheticSpec(2, 1);
  const uint64_t job = h.Submit(spec);
  ASSERT_TRUE(h.tracker().Kill(job).ok());
  EXPECT_FALSE(PathExists(spec.output())) << "a killed job's output goes at once";
  EXPECT_EQ(h.Status(job).phase(), "sealing");
  EXPECT_EQ(h.tracker().Kill(job).status().code(), StatusCode::kFailedPrecondition) << "killed once";
  held.Release();
  held.RunDone(1);
  EXPECT_EQ(h.Status(job).state(), "KILLED");
  EXPECT_FALSE(PathExists(spec.output()));
}

}  // namespace
}  // namespace mr::master
