// A job whose inputs sit behind a data server is planned off the state thread (issue 29:
// "the master lists and samples remote inputs on its state thread"): JobTracker::SubmitAsync
// hands the listing, splitting and the output check to TrackerOptions::offload and admits the
// job back on the state thread. Here the data server is a source whose List is held on a latch
// (as a slow data server holds a listing); meanwhile heartbeats are answered and another job
// is scheduled. Nothing is timed: the latch is released by the test. Before the change the
// submit listed on the state thread: Handle blocked in List (until the latch's safety timeout)
// and answered at once, and the held listing ran on the test's own thread.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "common/file_util.h"
#include "jobs/fake_input_source.h"
#include "scheduler/scheduler.h"
#include "tests/master/thread_offload.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::ThreadOffload;
using testing::TrackerHarness;

// A data server's source whose List waits until Release() (at most 10 s, so that the code
// before the change fails this test rather than hangs it).
class HeldSource final : public jobs::InputSource {
 public:
  explicit HeldSource(const jobs::InputSource& inner) : inner_(inner) {}
  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) const override {
    return inner_.Resolve(args, recursive);
  }
  Result<std::vector<jobs::InputFile>> List(const std::vector<std::string>& inputs) const override {
    std::unique_lock lock(mu_);
    listing_thread_ = std::this_thread::get_id();
    entered_ = true;
    cv_.notify_all();
    cv_.wait_for(lock, std::chrono::seconds(10), [this] { return released_; });
    lock.unlock();
    return inner_.List(inputs);
  }
  Result<std::unique_ptr<jobs::InputBytes>> Read(const std::string& path, uint64_t offset,
                                                 uint64_t length) const override {
    return inner_.Read(path, offset, length);
  }
  bool WaitEntered() const {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [this] { return entered_; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  std::thread::id listing_thread() const {
    std::lock_guard lock(mu_);
    return listing_thread_;
  }

 private:
  const jobs::InputSource& inner_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  mutable bool entered_ = false;
  bool released_ = false;
  mutable std::thread::id listing_thread_;
};

TEST(RemotePlanTest, HeartbeatsAreAnsweredWhileADataServerHoldsTheListing) {
  TempDir dir("mr-remote-plan");
  jobs::FakeInputSource fake;
  fake.AddFile("/data/in.txt", "alpha beta\ngamma\n", "10.0.0.9:7072");
  HeldSource held(fake);
  ThreadOffload offload;
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = offload.AsOffload();
  o.remote_inputs = [&held](const std::string&) -> Result<const jobs::InputSource*> { return &held; };
  TrackerHarness h(dir.path(), Fifo(), nullptr, o);
  const uint32_t w = h.AddWorker(2, 1);

  proto::Envelope submit;
  proto::JobSpec* spec = submit.mutable_submit()->mutable_spec();
  spec->set_job("wordcount");
  spec->add_inputs("/data/in.txt");
  spec->set_input_server("10.0.0.9:7072");
  spec->set_reducers(1);
  spec->set_split_bytes(1 << 20);
  spec->set_slow_start(1);
  spec->set_output(JoinPath(dir.path(), "out"));
  auto client = h.Connect("client");
  HandlerOutcome out = h.handler().Handle(*client, submit);
  ASSERT_TRUE(out.deferred) << "the submit of a job with remote inputs is answered later";
  std::optional<proto::Envelope> reply;
  out.deferred([&reply](proto::Envelope r) { reply = std::move(r); });
  ASSERT_TRUE(held.WaitEntered());
  EXPECT_NE(held.listing_thread(), std::this_thread::get_id()) << "listed on the state thread";
  EXPECT_FALSE(reply.has_value()) << "answered before the listing";

  // The listing is held: the state thread answers heartbeats and schedules another job.
  for (int i = 0; i < 3; ++i) {
    h.clock().Advance(1);
    EXPECT_GT(h.Beat(w).heartbeat_ms(), 0u) << "heartbeat " << i << " answered";
  }
  h.worker(w).maps.clear();
  h.Submit(h.SyntheticSpec(2, 1));
  h.Beat(w);
  EXPECT_EQ(h.worker(w).maps.size(), 2u) << "another job's maps assigned while the listing is held";

  held.Release();
  offload.RunDone(1);
  ASSERT_TRUE(reply.has_value());
  ASSERT_TRUE(reply->has_submit_reply()) << reply->error().message();
  const uint64_t job = reply->submit_reply().job_id();
  EXPECT_EQ(h.Status(job).state(), "RUNNING");
  EXPECT_TRUE(IsDirectory(JoinPath(dir.path(), "out/_temporary"))) << "claimed by the plan";
}

// Planned off the state thread, admitted on it: a second job naming the same output
// directory while the first is planned is refused when admitted, and nothing of the first is
// lost.
TEST(RemotePlanTest, TwoPlannedJobsWithOneOutputAdmitOne) {
  TempDir dir("mr-remote-plan2");
  jobs::FakeInputSource fake;
  fake.AddFile("/data/in.txt", "alpha beta\ngamma\n", "10.0.0.9:7072");
  ThreadOffload offload;
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.offload = offload.AsOffload();
  o.remote_inputs = [&fake](const std::string&) -> Result<const jobs::InputSource*> { return &fake; };
  TrackerHarness h(dir.path(), Fifo(), nullptr, o);
  proto::JobSpec spec;
  spec.set_job("wordcount");
  spec.add_inputs("/data/in.txt");
  spec.set_input_server("10.0.0.9:7072");
  spec.set_reducers(1);
  spec.set_split_bytes(1 << 20);
  spec.set_output(JoinPath(dir.path(), "out"));
  std::vector<Result<uint64_t>> answers;
  for (int i = 0; i < 2; ++i) {
    h.tracker().SubmitAsync(spec, [&answers](Result<uint64_t> r) { answers.push_back(std::move(r)); });
  }
  offload.RunDone(2);
  ASSERT_EQ(answers.size(), 2u);
  // Whichever plan came back first is admitted.
  const int first = answers[0].ok() ? 0 : 1;
  EXPECT_TRUE(answers[first].ok()) << answers[first].status().ToString();
  EXPECT_EQ(answers[1 - first].status().code(), StatusCode::kAlreadyExists) << answers[1 - first].status().ToString();
  EXPECT_TRUE(IsDirectory(JoinPath(dir.path(), "out/_temporary")));
}

}  // namespace
}  // namespace mr::master
