// PlayJobs (experiment/live_run.h) against a fake cluster: jobs submitted at their arrivals,
// or one at a time (the batch order `alone`), each once the one before has ended.
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "experiment/live_run.h"

namespace mr::experiment {
namespace {

// A cluster whose jobs end after a number of polls each; it records, at every submit, how
// many of the jobs submitted before it were still running.
class FakeCluster : public LiveCluster {
 public:
  explicit FakeCluster(int polls_to_end) : polls_to_end_(polls_to_end) {}

  Result<uint64_t> Submit(const model::TaskJob&, const std::string&) override {
    std::lock_guard<std::mutex> lock(mu_);
    int running = 0;
    for (const Job& j : jobs_) running += !j.state.ended;
    running_at_submit_.push_back(running);
    Job j;
    j.state.id = jobs_.size() + 1;
    j.state.submit_time = 1000;
    jobs_.push_back(j);
    return j.state.id;
  }

  Result<std::vector<LiveJobState>> Poll() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<LiveJobState> out;
    for (Job& j : jobs_) {
      if (!j.state.ended && ++j.polls >= polls_to_end_) {
        j.state.ended = j.state.succeeded = true;
        j.state.end_time = 1000 + j.polls;
      }
      out.push_back(j.state);
    }
    return out;
  }

  std::string TraceDir() const override { return ""; }
  std::string LogDir() const override { return ""; }

  std::vector<int> running_at_submit() {
    std::lock_guard<std::mutex> lock(mu_);
    return running_at_submit_;
  }

 private:
  struct Job {
    LiveJobState state;
    int polls = 0;
  };
  const int polls_to_end_;
  std::mutex mu_;
  std::vector<Job> jobs_;
  std::vector<int> running_at_submit_;
};

JobList ThreeJobsAtZero() { return JobList(3); }

TEST(PlayJobsTest, OneAtATimeSubmitsEachJobOnceTheOneBeforeHasEnded) {
  FakeCluster cluster(/*polls_to_end=*/2);
  auto measured = PlayJobs(cluster, ThreeJobsAtZero(), "alone", 60, nullptr, PlayMode::kOneAtATime);
  ASSERT_TRUE(measured.ok()) << measured.status().ToString();
  ASSERT_EQ(measured->size(), 3u);
  EXPECT_EQ(cluster.running_at_submit(), (std::vector<int>{0, 0, 0}));
  for (const MeasuredJob& m : *measured) EXPECT_TRUE(m.succeeded);
  // Each later submit comes at least one poll after the one before.
  EXPECT_LT((*measured)[0].submitted, (*measured)[1].submitted);
  EXPECT_LT((*measured)[1].submitted, (*measured)[2].submitted);
}

TEST(PlayJobsTest, ArrivalsSubmitTheBatchTogether) {
  FakeCluster cluster(/*polls_to_end=*/2);
  auto measured = PlayJobs(cluster, ThreeJobsAtZero(), "batch", 60, nullptr);
  ASSERT_TRUE(measured.ok()) << measured.status().ToString();
  EXPECT_EQ(cluster.running_at_submit(), (std::vector<int>{0, 1, 2}));
}

TEST(PlayJobsTest, OneAtATimeEndsWhenAJobNeverEnds) {
  FakeCluster cluster(/*polls_to_end=*/1000000);
  auto measured = PlayJobs(cluster, ThreeJobsAtZero(), "alone", 0.5, nullptr, PlayMode::kOneAtATime);
  ASSERT_FALSE(measured.ok());
  EXPECT_EQ(measured.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(measured.status().message().find("after the last submit"), std::string::npos) << measured.status().message();
  EXPECT_EQ(cluster.running_at_submit().size(), 1u);  // the second job was never submitted
}

}  // namespace
}  // namespace mr::experiment
