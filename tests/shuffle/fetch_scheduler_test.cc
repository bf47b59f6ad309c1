// The worker's fetch scheduler (shuffle/net/fetch_scheduler.h) against a fake fetch
// function: no network. Time is a ManualClock; waits are polls with a real-time deadline.
#include "shuffle/net/fetch_scheduler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "common/file_util.h"
#include "shuffle/net/fetch_blame.h"

namespace mr::shuffle {
namespace {

// Polls `done` until it holds or 10 s of real time pass.
template <typename F>
bool PollUntil(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

proto::MapOutputLocation Location(uint64_t job, uint32_t map, uint32_t attempt, uint32_t source_worker) {
  proto::MapOutputLocation loc;
  loc.set_job_id(job);
  loc.set_map_index(map);
  loc.set_attempt(attempt);
  loc.set_worker_id(source_worker);
  loc.set_host("127.0.0.1");
  loc.set_shuffle_port(1);
  return loc;
}

// A fake fetch: records each call (target and clock time), optionally holds calls at a
// gate, and answers from `answer` (default: success, 100 bytes, CRC = map index).
class FakeFetch {
 public:
  explicit FakeFetch(const Clock* clock) : clock_(clock) {}

  Result<FetchResult> operator()(const FetchTarget& t, const std::string& /*dest*/) {
    std::unique_lock lock(mu_);
    calls_.push_back({t, clock_->Now()});
    in_flight_++;
    max_in_flight_ = std::max(max_in_flight_, in_flight_);
    if (t.received != nullptr) t.received->store(received_at_gate_);  // bytes arrived so far
    cv_.wait(lock, [this] { return open_; });
    in_flight_--;
    if (answer_) return answer_(t, calls_.size());
    FetchResult r;
    r.bytes = 100;
    r.crc32c = t.map_index;
    return r;
  }

  void Close() {
    std::lock_guard lock(mu_);
    open_ = false;
  }
  void Open() {
    {
      std::lock_guard lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  // Each fetch says it has received n bytes before it waits at the gate.
  void ReceiveAtGate(uint64_t n) {
    std::lock_guard lock(mu_);
    received_at_gate_ = n;
  }
  void Answer(std::function<Result<FetchResult>(const FetchTarget&, size_t call)> f) {
    std::lock_guard lock(mu_);
    answer_ = std::move(f);
  }
  size_t calls() {
    std::lock_guard lock(mu_);
    return calls_.size();
  }
  std::pair<FetchTarget, double> call(size_t i) {
    std::lock_guard lock(mu_);
    return calls_.at(i);
  }
  int in_flight() {
    std::lock_guard lock(mu_);
    return in_flight_;
  }
  int max_in_flight() {
    std::lock_guard lock(mu_);
    return max_in_flight_;
  }

 private:
  const Clock* clock_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = true;
  uint64_t received_at_gate_ = 0;
  int in_flight_ = 0;
  int max_in_flight_ = 0;
  std::vector<std::pair<FetchTarget, double>> calls_;
  std::function<Result<FetchResult>(const FetchTarget&, size_t)> answer_;
};

class FetchSchedulerTest : public ::testing::Test {
 protected:
  void TearDown() override {
    fake_.Open();  // a failed test must not leave fetch threads at the gate
    s_.reset();
  }

  FetchScheduler* Make(uint32_t max_threads, uint32_t per_source = FetchScheduler::Options{}.per_source,
                       const std::function<void(FetchScheduler::Options&)>& tweak = nullptr) {
    FetchScheduler::Options o;
    o.work_dir = tmp_.path();
    o.max_threads = max_threads;
    o.per_source = per_source;
    if (tweak) tweak(o);
    o.clock = &clock_;
    o.fetch = [this](const FetchTarget& t, const std::string& dest) { return fake_(t, dest); };
    s_ = std::make_unique<FetchScheduler>(std::move(o));
    return s_.get();
  }

  // Takes the outbox until `pred` holds for what was taken so far (or the deadline passes).
  bool TakeUntil(FetchScheduler& s, const std::function<bool()>& pred) {
    return PollUntil([&] {
      s.TakeOutbox(&events_, &progress_);
      return pred();
    });
  }
  bool Ready(uint64_t job, uint32_t reduce) const {
    for (const auto& p : progress_) {
      if (p.job == job && p.reduce == reduce && p.state == ReducerProgress::State::kReady) return true;
    }
    return false;
  }

  TempDir tmp_{"fetchsched"};
  ManualClock clock_{100};
  FakeFetch fake_{&clock_};
  std::vector<proto::FetchEvent> events_;
  std::vector<ReducerProgress> progress_;
  std::unique_ptr<FetchScheduler> s_;  // after fake_: destroyed first
};

TEST_F(FetchSchedulerTest, AtMostMaxThreadsFetchAtOnce) {
  auto s = Make(2);
  s->SetShares({{1, 1.0}});  // share-0 fetches would hold at most half of the threads
  fake_.Close();
  for (uint32_t r = 0; r < 5; ++r) s->Place(1, r, 1);  // five reducers: five distinct turns
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 2; }));
  EXPECT_EQ(s->threads_started(), 2u);
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return events_.size() == 5; }));
  EXPECT_EQ(fake_.max_in_flight(), 2);
  for (uint32_t r = 0; r < 5; ++r) EXPECT_TRUE(Ready(1, r)) << r;
  EXPECT_EQ(s->RunCrcs(1, 3, 1).value(), std::vector<uint32_t>{0});
}

// A reducer's progress counts the bytes its fetches in flight have received, apart from its
// finished fetches' bytes; when a fetch ends its bytes move from one to the other in one
// report, never counted twice. Failed before the reports carried bytes in flight (the
// reducer said 0 bytes while 80 had arrived, which the status views showed as "0 B fetched"
// beside a nonzero rate).
TEST_F(FetchSchedulerTest, ProgressCountsTheBytesOfFetchesInFlight) {
  auto s = Make(4);
  s->SetShares({{1, 1.0}});
  fake_.ReceiveAtGate(40);
  fake_.Close();
  s->Place(1, 0, 2);
  s->AddLocation(Location(1, 0, 0, 7));
  s->AddLocation(Location(1, 1, 0, 8));  // another source: both fetch at once
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 2; }));
  ASSERT_TRUE(TakeUntil(*s, [&] { return !progress_.empty() && progress_.back().bytes_in_flight == 80; }));
  EXPECT_EQ(progress_.back().bytes, 0u);
  EXPECT_EQ(progress_.back().maps_fetched, 0u);
  EXPECT_EQ(progress_.back().state, ReducerProgress::State::kFetching);
  const size_t taken = progress_.size();
  s->TakeOutbox(&events_, &progress_);
  EXPECT_EQ(progress_.size(), taken) << "nothing moved: no new report";
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  EXPECT_EQ(progress_.back().bytes, 200u);
  EXPECT_EQ(progress_.back().bytes_in_flight, 0u);
  for (const auto& p : progress_) {
    EXPECT_LE(p.bytes + p.bytes_in_flight, 200u) << "a fetch's bytes counted twice";
  }
}

// The next map output of a (reducer, source) pair is requested while the current one
// arrives: two in flight per pair by default, so the link does not idle between them (issue
// 29: 0.05-0.36 s gaps between a reducer's sequential fetches from one source). Failed on
// the old rule (one fetch per reducer and source at a time: the second never started).
TEST_F(FetchSchedulerTest, TwoFetchesPerReducerAndSourceInFlight) {
  auto s = Make(8);
  s->SetShares({{1, 1.0}});
  fake_.Close();
  s->Place(1, 0, 4);
  for (uint32_t m = 0; m < 3; ++m) s->AddLocation(Location(1, m, 0, 7));  // one source
  s->AddLocation(Location(1, 3, 0, 8));                                     // another
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 3; }));
  // The third map of source 7 waits for one of the two in flight to end.
  EXPECT_EQ(s->queued(), 1u);
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  EXPECT_EQ(fake_.calls(), 4u);
  EXPECT_EQ(fake_.max_in_flight(), 3);
  EXPECT_EQ(s->RunCrcs(1, 0, 4).value(), (std::vector<uint32_t>{0, 1, 2, 3}));
}

// per_source = 1 is the old rule (Hadoop's: a host is busy for a reducer while one fetch
// copies from it): one fetch per pair, the other source's still at once.
TEST_F(FetchSchedulerTest, OnePerSourceKeepsTheOldRule) {
  auto s = Make(8, 1);
  s->SetShares({{1, 1.0}});
  fake_.Close();
  s->Place(1, 0, 3);
  s->AddLocation(Location(1, 0, 0, 7));
  s->AddLocation(Location(1, 1, 0, 7));
  s->AddLocation(Location(1, 2, 0, 8));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 2; }));
  EXPECT_EQ(s->queued(), 1u);
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  EXPECT_EQ(fake_.max_in_flight(), 2);
  EXPECT_EQ(fake_.calls(), 3u);
}

// Two in flight per pair do not let a repeated location be fetched twice at once into the
// same run file: the copy waits for the first fetch and is dropped once that one is in.
TEST_F(FetchSchedulerTest, RepeatedLocationWaitsForItsFetchInFlight) {
  auto s = Make(8);
  s->SetShares({{1, 1.0}});
  fake_.Close();
  s->Place(1, 0, 2);
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 1; }));
  s->AddLocation(Location(1, 0, 0, 7));  // the same attempt again: not startable
  s->AddLocation(Location(1, 1, 0, 7));  // the pair's second slot goes to the next map
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 2; }));
  EXPECT_EQ(fake_.call(1).first.map_index, 1u);
  EXPECT_EQ(s->queued(), 1u);
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  ASSERT_TRUE(PollUntil([&] { return s->queued() == 0 && fake_.in_flight() == 0; }));
  EXPECT_EQ(fake_.calls(), 2u);
}

TEST_F(FetchSchedulerTest, UnreachableSourceRetriedAfterBackoffOnTheClock) {
  auto s = Make(4);
  fake_.Answer([](const FetchTarget& t, size_t call) -> Result<FetchResult> {
    if (call <= 2) return Status::NetworkError("refused");
    FetchResult r;
    r.bytes = 10;
    r.crc32c = 42;
    return r;
  });
  s->Place(1, 0, 1);
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(TakeUntil(*s, [&] { return events_.size() == 1; }));
  EXPECT_FALSE(events_[0].ok());
  EXPECT_EQ(events_[0].cause(), proto::FETCH_UNREACHABLE);
  // Short of the first delay (kFirstFetchRetryDelay = 0.5 s) nothing may start.
  clock_.Advance(kFirstFetchRetryDelay / 2);
  s->Wake();
  clock_.Advance(kFirstFetchRetryDelay);
  s->Wake();
  ASSERT_TRUE(TakeUntil(*s, [&] { return events_.size() == 2; }));
  EXPECT_GE(fake_.call(1).second, fake_.call(0).second + kFirstFetchRetryDelay);
  // The second failure waits twice as long.
  const double second = fake_.call(1).second;
  clock_.Advance(2 * kFirstFetchRetryDelay - 0.1);
  s->Wake();
  clock_.Advance(0.2);
  s->Wake();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  ASSERT_EQ(fake_.calls(), 3u);
  EXPECT_GE(fake_.call(2).second, second + 2 * kFirstFetchRetryDelay);
  EXPECT_EQ(s->RunCrcs(1, 0, 1).value(), std::vector<uint32_t>{42});
}

TEST_F(FetchSchedulerTest, LocationOfAJobWithoutAReducerHereIsKeptNotFetched) {
  auto s = Make(4);
  s->AddLocation(Location(2, 0, 0, 7));
  EXPECT_EQ(s->threads_started(), 0u);
  EXPECT_EQ(s->queued(), 0u);
  EXPECT_EQ(fake_.calls(), 0u);
  // A reducer placed later learns the location kept for its job.
  s->Place(2, 0, 1);
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(2, 0); }));
  EXPECT_EQ(fake_.calls(), 1u);
}

TEST_F(FetchSchedulerTest, DuplicateLocationFetchedOnce) {
  auto s = Make(4);
  fake_.Close();
  s->Place(1, 0, 1);
  s->AddLocation(Location(1, 0, 0, 7));
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 1; }));
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  ASSERT_TRUE(PollUntil([&] { return s->queued() == 0 && fake_.in_flight() == 0; }));
  EXPECT_EQ(fake_.calls(), 1u);
  EXPECT_EQ(events_.size(), 1u);
}

TEST_F(FetchSchedulerTest, HighestShareJobFetchesFirst) {
  auto s = Make(1);
  s->SetShares({{1, 0.2}, {2, 0.8}});
  fake_.Close();
  s->Place(3, 0, 1);  // job 3 (no share) holds the only thread at first
  s->Place(1, 0, 1);
  s->Place(2, 0, 1);
  s->AddLocation(Location(3, 0, 0, 7));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 1; }));
  s->AddLocation(Location(1, 0, 0, 7));
  s->AddLocation(Location(2, 0, 0, 7));
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  ASSERT_EQ(fake_.calls(), 3u);
  EXPECT_EQ(fake_.call(1).first.job_id, 2u);
  EXPECT_EQ(fake_.call(2).first.job_id, 1u);
}

proto::MapOutputLocation OnHost(proto::MapOutputLocation loc, const std::string& host) {
  loc.set_host(host);
  return loc;
}

// The receiver's link keeps the shares (issue 29): while a positive-share job's fetch crosses
// this host's link, a share-0 job's fetch from another host waits, instead of taking what TCP
// would give it of the link. Failed before the rule (job 2's fetch started at once beside job
// 1's: two calls, two threads).
TEST_F(FetchSchedulerTest, ShareZeroFetchWaitsWhileAPositiveShareFetchCrossesTheLink) {
  auto s = Make(8, 2, [](FetchScheduler::Options& o) { o.own_host = "10.0.0.1"; });
  s->SetShares({{1, 1.0}});  // job 2: share 0
  fake_.Close();
  s->Place(1, 0, 1);
  s->Place(2, 0, 1);
  s->AddLocation(OnHost(Location(1, 0, 0, 7), "10.0.0.2"));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 1; }));
  // Decided under the scheduler's lock when the location arrives: no thread may take it.
  s->AddLocation(OnHost(Location(2, 0, 0, 8), "10.0.0.3"));
  EXPECT_EQ(s->queued(), 1u);
  EXPECT_EQ(s->threads_started(), 1u);
  EXPECT_EQ(fake_.calls(), 1u);
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0) && Ready(2, 0); }));
  ASSERT_EQ(fake_.calls(), 2u);
  EXPECT_EQ(fake_.call(1).first.job_id, 2u);
  EXPECT_EQ(fake_.max_in_flight(), 1) << "job 2's fetch crossed the link beside job 1's";
}

// What crosses no link is not held: a share-0 fetch from this host itself; and with
// receiver_shares off, none is (TCP divides the link, the old rule).
TEST_F(FetchSchedulerTest, ShareZeroFetchGoesAtOnceFromItsOwnHostOrWithTheRuleOff) {
  for (const bool rule : {true, false}) {
    auto s = Make(8, 2, [rule](FetchScheduler::Options& o) {
      o.own_host = "10.0.0.1";
      o.receiver_shares = rule;
    });
    s->SetShares({{1, 1.0}});
    fake_.Close();
    s->Place(1, 0, 1);
    s->Place(2, 0, 1);
    s->AddLocation(OnHost(Location(1, 0, 0, 7), "10.0.0.2"));
    s->AddLocation(OnHost(Location(2, 0, 0, 8), rule ? "10.0.0.1" : "10.0.0.3"));
    EXPECT_TRUE(PollUntil([&] { return fake_.in_flight() == 2; })) << "rule " << rule;
    fake_.Open();
    ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0) && Ready(2, 0); }));
    s_.reset();
    events_.clear();
    progress_.clear();
  }
}

TEST_F(FetchSchedulerTest, LocalFailureFailsTheReducerAndRemovesItsRuns) {
  auto s = Make(2);
  fake_.Answer([](const FetchTarget&, size_t) -> Result<FetchResult> { return Status::IoError("disk full"); });
  s->Place(1, 4, 2);
  ASSERT_TRUE(PathExists(ReducerRunDir(tmp_.path(), 1, 4)));
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(TakeUntil(*s, [&] {
    return !progress_.empty() && progress_.back().state == ReducerProgress::State::kFailed;
  }));
  EXPECT_NE(progress_.back().error.find("disk full"), std::string::npos);
  EXPECT_FALSE(PathExists(ReducerRunDir(tmp_.path(), 1, 4)));
  // No retry for a failed reducer: a new location is not fetched.
  s->AddLocation(Location(1, 1, 0, 8));
  EXPECT_EQ(s->queued(), 0u);
}

TEST_F(FetchSchedulerTest, ResultOfAnEarlierPlacementDoesNotCount) {
  auto s = Make(2);
  fake_.Close();
  s->Place(1, 0, 1);
  s->AddLocation(Location(1, 0, 0, 7));
  ASSERT_TRUE(PollUntil([&] { return fake_.in_flight() == 1; }));
  s->Place(1, 0, 1);  // re-placed while the first placement's fetch is in flight
  fake_.Open();
  ASSERT_TRUE(TakeUntil(*s, [&] { return Ready(1, 0); }));
  EXPECT_EQ(fake_.calls(), 2u);  // the re-placement fetched the run itself
}

}  // namespace
}  // namespace mr::shuffle
