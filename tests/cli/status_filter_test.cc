// `mr status --state S --limit N` (cli/status_table.h): which jobs the table keeps, on
// hand-built replies.
#include <gtest/gtest.h>

#include <vector>

#include "cli/status_table.h"

namespace mr::cli {
namespace {

proto::StatusReply Reply(const std::vector<std::pair<uint64_t, const char*>>& jobs) {
  proto::StatusReply r;
  for (const auto& [id, state] : jobs) {
    proto::JobStatus* st = r.add_jobs();
    st->set_job_id(id);
    st->set_state(state);
  }
  return r;
}

std::vector<uint64_t> Ids(const proto::StatusReply& r) {
  std::vector<uint64_t> out;
  for (const auto& st : r.jobs()) out.push_back(st.job_id());
  return out;
}

const std::vector<std::pair<uint64_t, const char*>> kJobs = {
    {1, "SUCCEEDED"}, {2, "FAILED"}, {3, "RUNNING"}, {4, "KILLED"}, {5, "PENDING"}, {6, "RUNNING"}};

TEST(StatusFilterTest, StateKeepsRunningOrEndedJobs) {
  proto::StatusReply r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kRunning, 0}, &r), 3);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{3, 5, 6}));
  r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kEnded, 0}, &r), 3);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{1, 2, 4}));
  r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kAll, 0}, &r), 0);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(StatusFilterTest, LimitKeepsTheNewestOfTheState) {
  proto::StatusReply r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kAll, 2}, &r), 4);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{5, 6}));
  r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kEnded, 2}, &r), 4);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{2, 4}));
  r = Reply(kJobs);
  EXPECT_EQ(FilterJobs({JobFilter::State::kRunning, 10}, &r), 3);
  EXPECT_EQ(Ids(r), (std::vector<uint64_t>{3, 5, 6}));
}

TEST(StatusFilterTest, StateWordsAreTheThree) {
  EXPECT_EQ(*ParseJobState("running"), JobFilter::State::kRunning);
  EXPECT_EQ(*ParseJobState("ended"), JobFilter::State::kEnded);
  EXPECT_EQ(*ParseJobState("all"), JobFilter::State::kAll);
  EXPECT_EQ(ParseJobState("done").status().message(), "--state must be running, ended or all, not 'done'");
}

}  // namespace
}  // namespace mr::cli
