// A job's seal (master/job_seal.h) runs off the state thread: while the trace is being read
// and parsed on another thread, the tracker keeps answering heartbeats and status, the job
// shows RUNNING in phase "sealing" and a client's wait stays parked; once the seal's result
// is handed back, the output has _SUCCESS and _trace.jsonl and the ARIA profile is stored.
// The seal thread is held on a latch until the test releases it: nothing here is timed.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/file_util.h"
#include "master/state_store.h"
#include "scheduler/scheduler.h"
#include "tests/master/thread_offload.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::ThreadOffload;
using testing::TrackerHarness;

TEST(JobSealTest, HeartbeatsAreAnsweredWhileTheTraceIsParsedElsewhere) {
  TempDir dir("job-seal");
  const std::string db = JoinPath(dir.path(), "db");
  ThreadOffload held(ThreadOffload::Start::kHeld);
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = held.AsOffload();
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok());
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value(), o);
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
  ThreadOffload held(ThreadOffload::Start::kHeld);
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = held.AsOffload();
  TrackerHarness h(dir.path(), Fifo(), nullptr, o);
  proto::JobSpec spec = h.SyntheticSpec(2, 1);
  const uint64_t job = h.Submit(spec);
  ASSERT_TRUE(h.tracker().Kill(job).ok());
  EXPECT_TRUE(PathExists(spec.output())) << "a killed job's output goes with the seal, off the state thread";
  EXPECT_EQ(h.Status(job).phase(), "sealing");
  EXPECT_EQ(h.tracker().Kill(job).status().code(), StatusCode::kFailedPrecondition) << "killed once";
  held.Release();
  held.RunDone(1);
  EXPECT_EQ(h.Status(job).state(), "KILLED");
  EXPECT_FALSE(PathExists(spec.output()));
}

// The output store of a data server that hangs: RemoveAll waits until the test opens it (at
// most 30 s, so a build that calls it on the state thread fails rather than hangs) and
// records whether it was called on the thread that drives the tracker.
class StallingOutputs : public jobs::OutputStore {
 public:
  explicit StallingOutputs(std::thread::id state_thread) : state_thread_(state_thread) {}
  Result<jobs::OutputState> State(const std::string& dir) const override { return local().State(dir); }
  Status MakeDirs(const std::string& dir) const override { return local().MakeDirs(dir); }
  Status Claim(const std::string& dir) const override { return local().Claim(dir); }
  Status Rename(const std::string& from, const std::string& to) const override { return local().Rename(from, to); }
  Status Put(const std::string& path, std::string_view contents) const override { return local().Put(path, contents); }
  Status PutFile(const std::string& from, const std::string& path) const override { return local().PutFile(from, path); }
  Status RemoveAll(const std::string& path) const override {
    if (std::this_thread::get_id() == state_thread_) removals_on_state_thread_++;
    std::unique_lock lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::seconds(30), [this] { return open_; })) {
      return Status::NetworkError("data server 127.0.0.1:1 timed out");
    }
    return local().RemoveAll(path);
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int removals_on_state_thread() const { return removals_on_state_thread_.load(); }

 private:
  static const jobs::OutputStore& local() { return jobs::LocalOutputs(); }
  const std::thread::id state_thread_;
  mutable std::atomic<int> removals_on_state_thread_{0};
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool open_ = false;
};

// Issue 29: a failed or killed job's output is removed through its store off the state
// thread, so a data server that hangs does not stop heartbeat replies; the job is KILLED
// once the removal is back. Before, FinishJob called RemoveAll on the state thread (here it
// would have held Kill for the store's 30 s and been counted on the state thread).
TEST(JobSealTest, AHangingDataServerDoesNotStopHeartbeatsWhileAKilledJobsOutputGoes) {
  TempDir dir("job-seal");
  ThreadOffload offload;  // work runs at once, on a thread of its own
  StallingOutputs stalling(std::this_thread::get_id());
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = offload.AsOffload();
  o.output_store = &stalling;
  TrackerHarness h(dir.path(), Fifo(), nullptr, o);
  const uint32_t w = h.AddWorker(2, 1);
  proto::JobSpec spec = h.SyntheticSpec(2, 1);
  const uint64_t job = h.Submit(spec);
  h.Beat(w);
  ASSERT_TRUE(h.tracker().Kill(job).ok());
  EXPECT_EQ(stalling.removals_on_state_thread(), 0) << "the output was removed on the state thread";
  for (int i = 0; i < 3; ++i) {
    h.clock().Advance(1);
    proto::HeartbeatReply r = h.Beat(w);
    EXPECT_GT(r.heartbeat_ms(), 0u) << "heartbeat " << i << " answered while the store hangs";
  }
  EXPECT_EQ(h.Status(job).phase(), "sealing");
  EXPECT_TRUE(PathExists(spec.output()));
  stalling.Open();
  offload.RunDone(1);
  EXPECT_EQ(h.Status(job).state(), "KILLED");
  EXPECT_FALSE(PathExists(spec.output()));
}

}  // namespace
}  // namespace mr::master
