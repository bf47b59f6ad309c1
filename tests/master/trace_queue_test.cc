// The trace's writer thread (master/trace_queue.h): lines written in the order traced, a full
// queue holding the state thread back (counted) rather than dropping, a removal after the
// lines queued before it, everything queued written at Close, and a job's seal reading its
// trace only once the writer has written job_end. The writer is held on a latch where the
// test needs it behind: nothing here is timed.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "master/trace_queue.h"
#include "scheduler/scheduler.h"
#include "tests/master/thread_offload.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

using testing::ThreadOffload;
using testing::TrackerHarness;

// Holds the writer thread before each item until Release().
class Latch {
 public:
  std::function<void()> Hook() {
    return [this] {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return released_; });
    };
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool released_ = false;
};

std::vector<trace::Event> Shares(double first, int n) {
  std::vector<trace::Event> out;
  for (int i = 0; i < n; ++i) out.push_back(trace::Share{.t = first + i, .job = "job-000001", .share = 0.5});
  return out;
}

// Each line's `t`, in file order.
std::vector<double> Times(const std::string& path) {
  std::vector<double> out;
  auto text = ReadFileToString(path);
  EXPECT_TRUE(text.ok()) << path;
  if (!text.ok()) return out;
  size_t pos = 0;
  for (size_t nl; (nl = text->find('\n', pos)) != std::string::npos; pos = nl + 1) {
    out.push_back(nlohmann::json::parse(text->substr(pos, nl - pos)).at("t").get<double>());
  }
  EXPECT_EQ(pos, text->size()) << "a partial last line in " << path;
  return out;
}

std::vector<double> Range(double first, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(first + i);
  return out;
}

TEST(TraceQueueTest, EachFileGetsItsLinesInOrder) {
  TempDir dir("trace-queue");
  const std::string a = JoinPath(dir.path(), "a.jsonl"), b = JoinPath(dir.path(), "b.jsonl");
  TraceQueue q(TraceQueue::Options{.max_events = 16, .before_write = nullptr});
  for (int i = 0; i < 200; ++i) {
    q.Append(a, Shares(i * 3, 3));
    q.Append(b, Shares(i, 1));
  }
  q.WaitWritten(q.LastTicket());
  EXPECT_EQ(Times(a), Range(0, 600));
  EXPECT_EQ(Times(b), Range(0, 200));
  EXPECT_EQ(q.stats().events_written, 800u);
  EXPECT_EQ(q.stats().write_errors, 0u);
}

TEST(TraceQueueTest, AFullQueueHoldsTheCallerBackAndCountsIt) {
  TempDir dir("trace-queue");
  const std::string a = JoinPath(dir.path(), "a.jsonl");
  Latch latch;
  TraceQueue q(TraceQueue::Options{.max_events = 4, .before_write = latch.Hook()});
  EXPECT_EQ(q.Append(a, Shares(0, 4)), 1u);
  std::atomic<uint64_t> second{0};
  std::thread caller([&] { second = q.Append(a, Shares(4, 2)); });
  while (q.stats().waiting == 0) std::this_thread::yield();  // the second Append is held
  EXPECT_EQ(q.LastTicket(), 1u) << "a batch past the bound is not queued";
  EXPECT_EQ(second.load(), 0u);
  latch.Release();
  caller.join();
  EXPECT_EQ(second.load(), 2u);
  q.WaitWritten(2);
  EXPECT_EQ(Times(a), Range(0, 6)) << "nothing dropped";
  EXPECT_EQ(q.stats().full_waits, 1u);
  EXPECT_EQ(q.stats().waiting, 0u);
}

TEST(TraceQueueTest, ARemovalComesAfterTheLinesQueuedBeforeIt) {
  TempDir dir("trace-queue");
  const std::string a = JoinPath(dir.path(), "a.jsonl");
  Latch latch;
  TraceQueue q(TraceQueue::Options{.max_events = 100, .before_write = latch.Hook()});
  q.Append(a, Shares(0, 3));
  q.Remove(a);
  const uint64_t last = q.Append(a, Shares(10, 2));
  latch.Release();
  q.WaitWritten(last);
  EXPECT_EQ(Times(a), Range(10, 2));
  q.Remove(a);
  q.WaitWritten(q.LastTicket());
  EXPECT_FALSE(PathExists(a)) << "nothing queued after the removal recreates the file";
}

TEST(TraceQueueTest, CloseWritesEverythingQueued) {
  TempDir dir("trace-queue");
  const std::string a = JoinPath(dir.path(), "a.jsonl");
  Latch latch;
  {
    TraceQueue q(TraceQueue::Options{.max_events = 1000, .before_write = latch.Hook()});
    for (int i = 0; i < 50; ++i) q.Append(a, Shares(i * 2, 2));
    EXPECT_FALSE(PathExists(a)) << "the writer is held: nothing written yet";
    std::thread release([&] { latch.Release(); });
    q.Close();
    release.join();
    EXPECT_EQ(Times(a), Range(0, 100)) << "Close returned with every queued line written";
    // After Close an Append is written at once, in order.
    EXPECT_EQ(q.Append(a, Shares(100, 1)), 51u);
    EXPECT_EQ(Times(a), Range(0, 101));
  }
}

// The state thread runs a whole job while the writer is held: it never waits for the trace
// (nothing is written meanwhile), and the seal, on its own thread, copies the trace only once
// the writer has written it to job_end.
TEST(TraceQueueTest, AJobRunsWhileTheWriterIsHeldAndItsSealWaitsForJobEnd) {
  TempDir dir("trace-queue-job");
  Latch latch;
  ThreadOffload offload;
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = offload.AsOffload();
  o.trace_queue = std::make_shared<TraceQueue>(TraceQueue::Options{.max_events = 1 << 16, .before_write = latch.Hook()});
  TrackerHarness h(dir.path(), testing::Fifo(), nullptr, o);
  const uint32_t w = h.AddWorker(2, 1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/3, /*reduces=*/2);
  const uint64_t job = h.Submit(spec);
  h.Beat(w);
  h.FinishMaps(w);
  h.Beat(w);
  h.FinishMaps(w);
  h.RunReduces(w);
  const std::string trace_path = h.Status(job).trace_path();
  EXPECT_EQ(h.Status(job).phase(), "sealing");
  EXPECT_FALSE(PathExists(trace_path)) << "the state thread wrote no trace line itself";
  EXPECT_GT(o.trace_queue->LastTicket(), 0u);

  latch.Release();
  offload.RunDone(1);
  EXPECT_EQ(h.Status(job).state(), "SUCCEEDED");
  auto text = ReadFileToString(trace_path);
  auto copy = ReadFileToString(JoinPath(spec.output(), "_trace.jsonl"));
  ASSERT_TRUE(text.ok() && copy.ok());
  EXPECT_EQ(*copy, *text) << "the seal copied the whole trace";
  const size_t last = text->rfind('\n', text->size() - 2);
  EXPECT_NE(text->find("\"event\":\"job_end\"", last == std::string::npos ? 0 : last), std::string::npos)
      << "job_end is the last line";
  EXPECT_NE(text->find("\"event\":\"attempt_end\""), std::string::npos);
  o.trace_queue->Close();
}

}  // namespace
}  // namespace mr::master
