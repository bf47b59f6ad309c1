// Blacklisting must never leave a job's task with no worker it may run on (issue 11): a
// worker that keeps failing a job stops getting its tasks only while enough other workers
// remain (Hadoop's ignore-threshold), and the "retry elsewhere" rule for one map yields
// when there is nowhere else. A JobTracker with a manual clock and no store; workers are
// simulated by heartbeats that fail every map they are given.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/clock.h"
#include "common/file_util.h"
#include "master/job_tracker.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {
namespace {

class BlacklistTest : public ::testing::Test {
 protected:
  void MakeTracker(uint32_t max_attempts) {
    ASSERT_TRUE(MakeDirs(JoinPath(dir_.path(), "state/traces")).ok());
    auto scheduler = sched::CreateScheduler("fifo");
    ASSERT_TRUE(scheduler.ok());
    TrackerOptions o;
    o.max_attempts = max_attempts;
    o.blacklist_after = 3;
    o.worker_timeout = 1e9;  // the manual clock never loses a worker
    tracker_ = std::make_unique<JobTracker>(&clock_, std::move(scheduler).value(), "fifo",
                                            JoinPath(dir_.path(), "state"), nullptr, o);
  }

  uint32_t AddWorker(uint32_t map_slots = 1, uint32_t reduce_slots = 1) {
    proto::RegisterWorker r;
    r.set_host("127.0.0.1");
    r.set_shuffle_port(1000 + static_cast<uint32_t>(workers_.size()));
    r.set_map_slots(map_slots);
    r.set_reduce_slots(reduce_slots);
    r.set_speed(1);
    auto reply = tracker_->Register(r);
    EXPECT_TRUE(reply.ok()) << reply.status().ToString();
    workers_.push_back(reply.ok() ? reply->worker_id() : 0);
    return workers_.back();
  }

  uint64_t SubmitSynthetic(uint32_t maps) {
    proto::JobSpec spec;
    spec.set_job("synthetic");
    spec.set_num_maps(maps);
    spec.set_reducers(1);
    spec.set_split_bytes(1 << 20);
    spec.set_slow_start(1.0);
    spec.set_output(JoinPath(dir_.path(), "out" + std::to_string(++jobs_)));
    auto id = tracker_->Submit(spec);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : 0;
  }

  // One heartbeat from `worker` that reports every map it holds as failed and takes
  // whatever it is given. Returns the number of map assignments received.
  int FailingHeartbeat(uint32_t worker) {
    proto::Heartbeat hb;
    hb.set_worker_id(worker);
    for (const auto& a : held_[worker]) {
      auto* r = hb.add_reports();
      r->set_job_id(a.job_id());
      r->set_kind(proto::MAP);
      r->set_index(a.index());
      r->set_attempt(a.attempt());
      r->set_state(proto::FAILED);
      r->set_error("exit 1");
      failures_[worker]++;
    }
    held_[worker].clear();
    clock_.Advance(1);
    auto reply = tracker_->Heartbeat(hb);
    EXPECT_TRUE(reply.ok());
    int maps = 0;
    for (const auto& a : reply->assignments()) {
      if (a.kind() != proto::MAP) continue;
      held_[worker].push_back(a);
      maps++;
    }
    return maps;
  }

  std::string JobState(uint64_t id) {
    auto st = tracker_->GetStatus(id);
    return st.ok() ? st->jobs(0).state() : "?";
  }
  std::string JobError(uint64_t id) {
    auto st = tracker_->GetStatus(id);
    return st.ok() ? st->jobs(0).error() : "?";
  }

  TempDir dir_{"mr-blacklist-test"};
  ManualClock clock_{1000};
  std::unique_ptr<JobTracker> tracker_;
  std::vector<uint32_t> workers_;
  std::map<uint32_t, std::vector<proto::Assignment>> held_;
  std::map<uint32_t, int> failures_;
  int jobs_ = 0;
};

// The course lab's crash test: on two workers a map fails three times on each. Before the
// fix both workers were blacklisted and the job stayed RUNNING with its map unplaced.
TEST_F(BlacklistTest, TwoWorkersBothFailingKeepGettingTheMap) {
  MakeTracker(/*max_attempts=*/10);
  uint32_t a = AddWorker(), b = AddWorker();
  uint64_t job = SubmitSynthetic(1);
  int assigned = 0;
  for (int round = 0; round < 40 && JobState(job) == "RUNNING"; ++round) {
    assigned += FailingHeartbeat(round % 2 == 0 ? a : b);
  }
  // Every attempt up to max_attempts was placed: the job failed for its map, not stuck.
  EXPECT_EQ(assigned, 10);
  EXPECT_GE(failures_[a], 3);
  EXPECT_GE(failures_[b], 3);
  EXPECT_EQ(JobState(job), "FAILED");
  EXPECT_NE(JobError(job).find("failed 10 times"), std::string::npos) << JobError(job);
}

// A single worker: the map that failed on it has nowhere else to go, so it retries there.
TEST_F(BlacklistTest, OneWorkerRetriesUntilMaxAttempts) {
  MakeTracker(/*max_attempts=*/5);
  uint32_t a = AddWorker();
  uint64_t job = SubmitSynthetic(2);
  for (int round = 0; round < 40 && JobState(job) == "RUNNING"; ++round) FailingHeartbeat(a);
  EXPECT_EQ(JobState(job), "FAILED");
}

// The "retry elsewhere" rule yields when there is nowhere else: B is the only worker with
// map slots (C and D run reduces only), so B retries its own failed map; before the fix
// it skipped it forever. Then A joins; B, blacklisted (1 of 4 workers), gets nothing, and A
// retries the map that last failed on A itself until A too has failed three times: with
// half the cluster blacklisted, blacklisting is off and A leaves the map to B.
TEST_F(BlacklistTest, RetryElsewhereYieldsWhenNoOtherWorkerMayRunTheMap) {
  MakeTracker(/*max_attempts=*/50);
  uint32_t b = AddWorker(1, 1);
  AddWorker(0, 1);
  AddWorker(0, 1);
  uint64_t job = SubmitSynthetic(1);
  for (int round = 0; round < 3; ++round) FailingHeartbeat(b);
  ASSERT_EQ(failures_[b], 2);
  ASSERT_EQ(held_[b].size(), 1u) << "the only map worker was not given its failed map again";
  uint32_t a = AddWorker(1, 1);
  EXPECT_EQ(FailingHeartbeat(b), 0) << "B failed three times with A there: blacklisted";
  int assigned = 0;
  for (int round = 0; round < 8; ++round) assigned += FailingHeartbeat(a);
  EXPECT_EQ(failures_[a], 3);
  EXPECT_EQ(assigned, 3);
  EXPECT_GE(FailingHeartbeat(b), 1) << "with blacklisting off, B may run the map again";
  EXPECT_EQ(JobState(job), "RUNNING");
}

// On a larger cluster blacklisting still works: with four workers one bad worker (25% <
// 33%) gets no more of the job's maps while the others take them.
TEST_F(BlacklistTest, OneBadWorkerOfFourIsBlacklisted) {
  MakeTracker(/*max_attempts=*/100);
  uint32_t bad = AddWorker();
  for (int i = 0; i < 3; ++i) AddWorker();
  SubmitSynthetic(50);
  for (int round = 0; round < 5; ++round) FailingHeartbeat(bad);
  ASSERT_GE(failures_[bad], 3);
  EXPECT_EQ(FailingHeartbeat(bad), 0);
  EXPECT_EQ(FailingHeartbeat(workers_[1]), 1);
  EXPECT_EQ(FailingHeartbeat(bad), 0);
}

}  // namespace
}  // namespace mr::master
