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

// The cells of `mr status` whose meaning issue 32 defined under every policy, for a job under
// fifo (reads no estimate) and one under maxsrpt (reads it).
namespace mr::cli {
namespace {

proto::JobStatus Job(const char* policy, const char* state) {
  proto::JobStatus st;
  st.set_policy(policy);
  st.set_state(state);
  st.set_estimate_ignored(std::string(policy) == "fifo");
  st.set_estimate_source("online");
  st.set_est_map_seconds(12);
  st.set_est_shuffle_bytes(3 << 20);
  st.set_maps_total(4);
  return st;
}

TEST(StatusCellsTest, ShareIsShownOnlyWhileOutputWaits) {
  for (const char* policy : {"fifo", "maxsrpt"}) {
    SCOPED_TRACE(policy);
    proto::JobStatus st = Job(policy, "RUNNING");
    st.set_share(0);
    EXPECT_EQ(ShareCell(st), "-") << "nothing waiting: the share applies to nothing";
    st.set_shuffle_bytes_waiting(100);
    EXPECT_EQ(ShareCell(st), "0.00") << "output waiting, the policy gives it none: it waits its turn";
    st.set_share(1);
    EXPECT_EQ(ShareCell(st), "1.00");
    st.set_state("SUCCEEDED");
    EXPECT_EQ(ShareCell(st), "-");
  }
}

TEST(StatusCellsTest, EstimateIsNotApplicableUnderAPolicyThatIgnoresIt) {
  EXPECT_EQ(EstimateCell(Job("fifo", "RUNNING")), "n/a under fifo");
  EXPECT_EQ(EstimateCell(Job("maxsrpt", "RUNNING")), "online 12.0s 3.0 MiB");
  proto::JobStatus none = Job("maxsrpt", "RUNNING");
  none.set_estimate_source("none");
  EXPECT_EQ(EstimateCell(none), "-");
}

TEST(StatusCellsTest, RatesHaveUnitsAndWorkersTheirIdForm) {
  EXPECT_EQ(MapRateCell(0), "-");
  EXPECT_EQ(MapRateCell(266.4), "266 maps/s/slot");
  EXPECT_EQ(MapRateCell(0.348), "0.348 maps/s/slot");
  EXPECT_EQ(WorkerIdCell(3), "w3");
}

TEST(StatusCellsTest, SojournSaysWhyItIsMissing) {
  for (const char* policy : {"fifo", "maxsrpt"}) {
    SCOPED_TRACE(policy);
    proto::JobStatus st = Job(policy, "RUNNING");
    EXPECT_EQ(SojournText(st), "- (some map has not finished)");
    st.set_state("FAILED");
    EXPECT_EQ(SojournText(st), "- (the job ended before all its maps finished)");
    st.set_maps_total(0);
    st.set_state("SUCCEEDED");
    EXPECT_EQ(SojournText(st), "- (the job has no maps)");
    st.set_sojourn_time(1.5);
    EXPECT_EQ(SojournText(st), "1.500s (submit to the last map output available to the reducers)");
  }
}

}  // namespace
}  // namespace mr::cli
