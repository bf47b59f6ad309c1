// Issue 11, blame and bounds: a failed fetch is charged to whoever it proves at fault.
// The JobTracker runs on a manual clock with no store; the test plays the workers,
// sending the heartbeats, task reports and fetch events real workers would send.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/file_util.h"
#include "master/job_tracker.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {
namespace {

constexpr uint32_t kMaxAttempts = 3;

class BlameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(MakeDirs(JoinPath(state(), "traces")).ok());
    auto scheduler = sched::CreateScheduler("fifo");
    ASSERT_TRUE(scheduler.ok());
    TrackerOptions options;
    options.max_attempts = kMaxAttempts;
    options.blacklist_after = 100;  // blacklisting is not what these tests are about
    tracker_ = std::make_unique<JobTracker>(&clock_, std::move(scheduler).value(), "fifo", state(), nullptr,
                                            options);
  }

  std::string state() const { return JoinPath(tmp_.path(), "state"); }

  WorkerId AddWorker(uint32_t port) {
    proto::RegisterWorker r;
    r.set_host("127.0.0.1");
    r.set_shuffle_port(port);
    r.set_map_slots(4);
    r.set_reduce_slots(2);
    r.set_speed(1);
    auto reply = tracker_->Register(r);
    EXPECT_TRUE(reply.ok()) << reply.status().ToString();
    return reply.ok() ? reply->worker_id() : 0;
  }

  // A synthetic job of `maps` maps and `reduces` reducers, placed at once (slow start 0).
  uint64_t Submit(uint32_t maps, uint32_t reduces) {
    proto::JobSpec spec;
    spec.set_job("synthetic");
    spec.set_num_maps(maps);
    spec.set_reducers(reduces);
    spec.set_split_bytes(1 << 20);
    spec.set_output(JoinPath(tmp_.path(), "out" + std::to_string(++jobs_)));
    auto id = tracker_->Submit(spec);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : 0;
  }

  // One heartbeat of worker w carrying `reports` and `fetches`; remembers what it was told.
  proto::HeartbeatReply Beat(WorkerId w, std::vector<proto::TaskReport> reports = {},
                             std::vector<proto::FetchEvent> fetches = {}) {
    proto::Heartbeat hb;
    hb.set_worker_id(w);
    for (auto& r : reports) *hb.add_reports() = std::move(r);
    for (auto& f : fetches) *hb.add_fetches() = std::move(f);
    auto reply = tracker_->Heartbeat(hb);
    EXPECT_TRUE(reply.ok());
    for (const auto& a : reply->assignments()) {
      if (a.kind() == proto::MAP) running_maps_[a.index()] = {w, a.attempt()};
      if (a.kind() == proto::REDUCE && a.place_only()) reducer_host_[a.index()] = w;
    }
    for (const auto& d : reply->delete_outputs()) deleted_[w].push_back(d);
    return *reply;
  }

  static proto::TaskReport MapSucceeded(uint64_t job, uint32_t index, uint32_t attempt, uint32_t reduces) {
    proto::TaskReport r;
    r.set_job_id(job);
    r.set_kind(proto::MAP);
    r.set_index(index);
    r.set_attempt(attempt);
    r.set_state(proto::SUCCEEDED);
    r.set_bytes_out(100 * reduces);
    for (uint32_t i = 0; i < reduces; ++i) r.add_partition_bytes(100);
    return r;
  }

  // Heartbeats every worker until every map of the job is done; where[m] = (worker, attempt).
  void RunMaps(uint64_t job, const std::vector<WorkerId>& workers, uint32_t reduces) {
    for (int round = 0; round < 20 && Job(job).maps_done() < Job(job).maps_total(); ++round) {
      for (WorkerId w : workers) {
        std::vector<proto::TaskReport> done;
        for (auto it = running_maps_.begin(); it != running_maps_.end();) {
          if (it->second.first != w) {
            ++it;
            continue;
          }
          done.push_back(MapSucceeded(job, it->first, it->second.second, reduces));
          where_[it->first] = it->second;
          it = running_maps_.erase(it);
        }
        Beat(w, std::move(done));
      }
    }
    ASSERT_EQ(Job(job).maps_done(), Job(job).maps_total());
  }

  proto::FetchEvent FailedFetch(uint64_t job, uint32_t reduce, uint32_t map, proto::FetchCause cause) {
    proto::FetchEvent f;
    f.set_job_id(job);
    f.set_reduce_index(reduce);
    f.set_map_index(map);
    f.set_src_worker(where_.at(map).first);
    f.set_map_attempt(where_.at(map).second);
    f.set_start_time(clock_.Now());
    f.set_end_time(clock_.Now());
    f.set_ok(false);
    f.set_error("NetworkError: connection refused");
    f.set_cause(cause);
    return f;
  }

  proto::JobStatus Job(uint64_t job) {
    proto::JobStatus out;
    auto s = tracker_->GetStatus(job);
    if (s.ok() && s->jobs_size() == 1) {
      out = s->jobs(0);
    } else {
      ADD_FAILURE() << "no status of job " << job;
    }
    return out;
  }

  int64_t Counter(uint64_t job, const std::string& name) {
    const proto::JobStatus st = Job(job);
    for (const auto& c : st.counters()) {
      if (c.name() == name) return c.value();
    }
    return 0;
  }

  TempDir tmp_{"mr-blame-test"};
  ManualClock clock_{1000};
  std::unique_ptr<JobTracker> tracker_;
  int jobs_ = 0;
  std::map<uint32_t, std::pair<WorkerId, uint32_t>> running_maps_;  // map -> (worker, attempt)
  std::map<uint32_t, std::pair<WorkerId, uint32_t>> where_;         // done map -> (worker, attempt)
  std::map<uint32_t, WorkerId> reducer_host_;                        // latest placement
  std::map<WorkerId, std::vector<proto::HeldMapOutput>> deleted_;    // delete orders received
};

// A reducer whose own disk failed blames nobody else: its attempt fails and moves.
TEST_F(BlameTest, LocalFetchFailureFailsTheReduceNotTheMap) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 2);
  RunMaps(job, {a, b}, 2);
  ASSERT_EQ(reducer_host_.count(0), 1u);
  WorkerId host = reducer_host_[0], other = host == a ? b : a;
  proto::TaskReport failed;
  failed.set_job_id(job);
  failed.set_kind(proto::REDUCE);
  failed.set_index(0);
  failed.set_state(proto::FAILED);
  failed.set_error("reduce r-00000 fetching into /w/job-000001/r0: IoError: No space left on device");
  Beat(host, {failed}, {FailedFetch(job, 0, 1, proto::FETCH_LOCAL)});
  EXPECT_EQ(Job(job).maps_done(), 2u) << "a LOCAL fetch failure re-executed the map";
  EXPECT_EQ(Counter(job, kKilledMapsCounter), 0);
  EXPECT_EQ(Counter(job, kFailedReducesCounter), 1);
  Beat(other);
  EXPECT_EQ(reducer_host_[0], other) << "the failed reducer was not re-placed on the other worker";
  EXPECT_EQ(Job(job).state(), "RUNNING");
}

// One unproven report is not enough; a second reducer corroborating it is.
TEST_F(BlameTest, UnreachableNeedsASecondReducer) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 2);
  RunMaps(job, {a, b}, 2);
  Beat(reducer_host_[0], {}, {FailedFetch(job, 0, 1, proto::FETCH_UNREACHABLE)});
  EXPECT_EQ(Job(job).maps_done(), 2u) << "one UNREACHABLE report re-executed the map";
  Beat(reducer_host_[1], {}, {FailedFetch(job, 1, 1, proto::FETCH_UNREACHABLE)});
  EXPECT_EQ(Job(job).maps_done(), 1u) << "two reducers' reports did not re-execute the map";
  EXPECT_EQ(Counter(job, kKilledMapsCounter), 1);
}

// One reducer reporting the same attempt repeatedly is believed at the third report.
TEST_F(BlameTest, UnreachableRepeatedByOneReducer) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 2);
  RunMaps(job, {a, b}, 2);
  for (int i = 0; i < 2; ++i) Beat(reducer_host_[0], {}, {FailedFetch(job, 0, 1, proto::FETCH_UNREACHABLE)});
  EXPECT_EQ(Job(job).maps_done(), 2u) << "two reports by one reducer re-executed the map";
  Beat(reducer_host_[0], {}, {FailedFetch(job, 0, 1, proto::FETCH_UNREACHABLE)});
  EXPECT_EQ(Job(job).maps_done(), 1u);
}

// A proven-bad source copy is re-executed at once, and its holder told to delete it.
TEST_F(BlameTest, SourceCorruptReexecutesAtOnceAndDeletesTheOldOutput) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 2);
  RunMaps(job, {a, b}, 2);
  const auto [src, attempt] = where_.at(1);
  Beat(reducer_host_[0], {}, {FailedFetch(job, 0, 1, proto::FETCH_SOURCE_CORRUPT)});
  EXPECT_EQ(Job(job).maps_done(), 1u);
  Beat(src);
  ASSERT_EQ(deleted_[src].size(), 1u) << "the superseded output's holder was not told to delete it";
  EXPECT_EQ(deleted_[src][0].job_id(), job);
  EXPECT_EQ(deleted_[src][0].map(), 1u);
  EXPECT_EQ(deleted_[src][0].attempt(), attempt);
  EXPECT_TRUE(deleted_[src == a ? b : a].empty());
}

// Re-executions caused by fetch failures are bounded: the job fails with a reason.
TEST_F(BlameTest, OutputThatCannotBeServedFailsTheJob) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 2);
  RunMaps(job, {a, b}, 2);
  for (uint32_t i = 0; i < 2 * kMaxAttempts && Job(job).state() == "RUNNING"; ++i) {
    Beat(reducer_host_[0], {}, {FailedFetch(job, 0, 1, proto::FETCH_SOURCE_CORRUPT)});
    if (Job(job).state() == "RUNNING") RunMaps(job, {a, b}, 2);
  }
  proto::JobStatus st = Job(job);
  EXPECT_EQ(st.state(), "FAILED");
  EXPECT_NE(st.error().find("map m-00001's output could not be served 3 times"), std::string::npos) << st.error();
  EXPECT_NE(st.error().find("connection refused"), std::string::npos) << st.error();
  EXPECT_EQ(Counter(job, kKilledMapsCounter), kMaxAttempts - 1);
}

// A reducer that keeps failing on its own disk ends the job, naming the disk.
TEST_F(BlameTest, LocalFailuresAreBoundedByMaxAttempts) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 1);
  RunMaps(job, {a, b}, 1);
  for (uint32_t i = 0; i < 2 * kMaxAttempts && Job(job).state() == "RUNNING"; ++i) {
    proto::TaskReport failed;
    failed.set_job_id(job);
    failed.set_kind(proto::REDUCE);
    failed.set_index(0);
    failed.set_state(proto::FAILED);
    failed.set_error("reduce r-00000 fetching into /disk" + std::to_string(i) + ": No space left on device");
    Beat(reducer_host_[0], {failed}, {FailedFetch(job, 0, 0, proto::FETCH_LOCAL)});
    Beat(a);
    Beat(b);
  }
  proto::JobStatus st = Job(job);
  EXPECT_EQ(st.state(), "FAILED");
  EXPECT_NE(st.error().find("No space left on device"), std::string::npos) << st.error();
  EXPECT_EQ(Counter(job, kFailedReducesCounter), kMaxAttempts);
  EXPECT_EQ(Counter(job, kKilledMapsCounter), 0);
}

// A map attempt that finishes after another attempt was accepted is deleted at once.
TEST_F(BlameTest, LateDuplicateAttemptIsDeleted) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 1);
  RunMaps(job, {a, b}, 1);
  const auto [src, attempt] = where_.at(0);
  Beat(src, {MapSucceeded(job, 0, attempt + 7, 1)});
  ASSERT_EQ(deleted_[src].size(), 1u);
  EXPECT_EQ(deleted_[src][0].attempt(), attempt + 7);
  // The accepted attempt reported twice is not a duplicate: nothing is deleted.
  Beat(src, {MapSucceeded(job, 0, attempt, 1)});
  EXPECT_EQ(deleted_[src].size(), 1u);
  EXPECT_EQ(Job(job).maps_done(), 2u);
}

// A worker registering again offers outputs a running job no longer counts: delete them.
TEST_F(BlameTest, UnadoptedHeldOutputsOfRunningJobsAreDeleted) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 1);
  RunMaps(job, {a, b}, 1);
  proto::RegisterWorker r;
  r.set_host("127.0.0.1");
  r.set_shuffle_port(7003);
  r.set_map_slots(1);
  r.set_speed(1);
  auto* h = r.add_held_outputs();
  h->set_job_id(job);
  h->set_map(0);
  h->set_attempt(99);
  auto reply = tracker_->Register(r);
  ASSERT_TRUE(reply.ok());
  ASSERT_EQ(reply->delete_outputs_size(), 1);
  EXPECT_EQ(reply->delete_outputs(0).attempt(), 99u);
}

// A running reducer that refetched a run whose local copy failed its checksum, and found the
// source gone, is not at fault: its KILLED report gives the slot back without counting a
// failure, and the reducer runs again once it has fetched the run anew (READY).
TEST_F(BlameTest, ReduceWhoseRunIsGoneReturnsToFetching) {
  WorkerId a = AddWorker(7001), b = AddWorker(7002);
  uint64_t job = Submit(2, 1);
  RunMaps(job, {a, b}, 1);
  ASSERT_EQ(reducer_host_.count(0), 1u);
  const WorkerId host = reducer_host_[0];
  auto reduce_report = [job](proto::TaskState state, uint32_t attempt, uint32_t fetched) {
    proto::TaskReport r;
    r.set_job_id(job);
    r.set_kind(proto::REDUCE);
    r.set_index(0);
    r.set_attempt(attempt);
    r.set_state(state);
    r.set_maps_fetched(fetched);
    return r;
  };
  auto run_assignment = [](const proto::HeartbeatReply& reply) -> uint32_t {
    for (const auto& x : reply.assignments()) {
      if (x.kind() == proto::REDUCE && !x.place_only()) return x.attempt();
    }
    return 0;
  };
  const uint32_t first = run_assignment(Beat(host, {reduce_report(proto::READY, 0, 2)}));
  ASSERT_GT(first, 0u) << "the ready reducer was not given a slot";
  ASSERT_EQ(Job(job).reduces_running(), 1u);
  proto::TaskReport gone = reduce_report(proto::KILLED, first, 1);
  gone.set_error("Unavailable: the run of map 1 must be fetched again: NotFound: no such map output");
  EXPECT_EQ(run_assignment(Beat(host, {gone})), 0u) << "a reducer missing a run was run again at once";
  EXPECT_EQ(Job(job).reduces_running(), 0u);
  EXPECT_EQ(Counter(job, kFailedReducesCounter), 0) << "a gone source was counted as the reducer's failure";
  EXPECT_EQ(Counter(job, kKilledReducesCounter), 1);
  const uint32_t second = run_assignment(Beat(host, {reduce_report(proto::READY, 0, 2)}));
  EXPECT_GT(second, first) << "the reducer did not run again once it had its runs";
  EXPECT_EQ(reducer_host_[0], host) << "the reducer moved although its other runs are on its worker";
  EXPECT_EQ(Job(job).state(), "RUNNING");
}

}  // namespace
}  // namespace mr::master
