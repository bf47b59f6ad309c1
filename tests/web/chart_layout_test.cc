#include "web/chart_layout.h"

#include <numeric>

#include <gtest/gtest.h>

#include "tests/web/fake_provider.h"

namespace mr::web {
namespace {

std::vector<std::string> LaneLabels(const ChartLayout& l) {
  std::vector<std::string> out;
  for (const auto& lane : l.lanes) out.push_back(lane.label);
  return out;
}

const Bar& FindBar(const ChartLayout& l, const std::string& label, BarKind kind) {
  for (const auto& b : l.bars) {
    if (b.label == label && b.kind == kind) return b;
  }
  ADD_FAILURE() << "no bar " << label;
  static Bar none;
  return none;
}

TEST(PackIntervalsTest, UsesMaxOverlapLanesAndReusesLowestFreeLane) {
  // Overlap of 3 at t=2.5; [3,4) touches [1,3) and reuses its lane.
  std::vector<std::pair<double, double>> iv = {{0, 2}, {1, 3}, {2, 5}, {3, 4}, {2.5, 2.6}, {6, 7}};
  std::vector<int> lanes = PackIntervals(iv);
  ASSERT_EQ(lanes.size(), iv.size());
  EXPECT_EQ(*std::max_element(lanes.begin(), lanes.end()), 2);
  EXPECT_EQ(lanes[0], 0);
  EXPECT_EQ(lanes[1], 1);
  EXPECT_EQ(lanes[2], 0);  // [0,2) ended at 2
  EXPECT_EQ(lanes[4], 2);  // [0,2)→lane0 busy with [2,5), lane1 busy with [1,3)
  EXPECT_EQ(lanes[3], 1);
  EXPECT_EQ(lanes[5], 0);
  for (size_t i = 0; i < iv.size(); ++i) {
    for (size_t j = i + 1; j < iv.size(); ++j) {
      bool overlap = iv[i].first < iv[j].second && iv[j].first < iv[i].second;
      if (overlap) {
        EXPECT_NE(lanes[i], lanes[j]) << i << " and " << j;
      }
    }
  }
}

TEST(PackIntervalsTest, EmptyInput) { EXPECT_TRUE(PackIntervals({}).empty()); }

TEST(ChartLayoutTest, PacksAttemptLanesPerWorkerAndSlotKind) {
  ChartLayout l = BuildChartLayout(webtest::HandBuiltTrace());
  EXPECT_EQ(LaneLabels(l), (std::vector<std::string>{"w1 map 0", "w1 map 1", "w1 reduce 0", "w2 map 0",
                                                     "w2 reduce 0", "w1→w1 shuffle", "w1→w1 shuffle (2)",
                                                     "w1→w2 shuffle", "w2→w1 shuffle"}));
  EXPECT_EQ(l.lanes[0].id, "w1-map-0");
  EXPECT_EQ(l.lanes[6].id, "w1-w1-shuffle-1");
  EXPECT_EQ(FindBar(l, "m-00000", BarKind::kMap).lane, 0);
  EXPECT_EQ(FindBar(l, "m-00001", BarKind::kMap).lane, 1);
  EXPECT_EQ(FindBar(l, "m-00003", BarKind::kMap).lane, 0);  // m-00000 ended when it started
  EXPECT_EQ(FindBar(l, "m-00002", BarKind::kMap).lane, 3);
  EXPECT_EQ(FindBar(l, "r-00000", BarKind::kReduce).lane, 2);
  // The failed first attempt and the retry share w2's reduce lane.
  EXPECT_EQ(FindBar(l, "r-00001", BarKind::kFailed).lane, 4);
  EXPECT_EQ(FindBar(l, "r-00001", BarKind::kReduce).lane, 4);
  EXPECT_NE(FindBar(l, "r-00001", BarKind::kFailed).tooltip.find("disk full"), std::string::npos);
}

TEST(ChartLayoutTest, FetchLanesPerLinkWithSubLanes) {
  ChartLayout l = BuildChartLayout(webtest::HandBuiltTrace());
  EXPECT_EQ(FindBar(l, "r-00000 ← m-00001", BarKind::kFetch).lane, 5);
  EXPECT_EQ(FindBar(l, "r-00000 ← m-00000", BarKind::kFetch).lane, 6);  // overlaps the one above
  EXPECT_EQ(FindBar(l, "r-00000 ← m-00003", BarKind::kFetch).lane, 5);
  EXPECT_EQ(FindBar(l, "r-00001 ← m-00001", BarKind::kFetch).lane, 7);
  EXPECT_EQ(FindBar(l, "r-00001 ← m-00003", BarKind::kFetch).lane, 7);
  const Bar& zero = FindBar(l, "r-00000 ← m-00002", BarKind::kFetch);
  EXPECT_EQ(zero.lane, 8);
  EXPECT_EQ(l.lanes[8].src_worker, 2);
  EXPECT_EQ(l.lanes[8].worker, 1);
  EXPECT_EQ(zero.bytes, 1000u);
}

TEST(ChartLayoutTest, TimesAreRelativeToSubmit) {
  ChartLayout l = BuildChartLayout(webtest::HandBuiltTrace());
  EXPECT_DOUBLE_EQ(l.origin, 1000.0);
  EXPECT_NEAR(l.duration, 3.6, 1e-9);
  EXPECT_NEAR(l.response_time, 3.6, 1e-9);
  const Bar& m0 = FindBar(l, "m-00000", BarKind::kMap);
  EXPECT_NEAR(m0.start, 0.1, 1e-9);
  EXPECT_NEAR(m0.end, 1.1, 1e-9);
  EXPECT_EQ(l.job, "job-000001");
  EXPECT_EQ(l.name, "wc");
  EXPECT_EQ(l.policy, "fifo");
  EXPECT_EQ(l.status, "ok");
  ASSERT_EQ(l.shares.size(), 2u);
  EXPECT_NEAR(l.shares[1].first, 2.0, 1e-9);
  EXPECT_DOUBLE_EQ(l.shares[1].second, 0.5);
  ASSERT_EQ(l.decisions.size(), 1u);
  EXPECT_EQ(l.decisions[0].tasks, std::vector<std::string>{"m-00000"});
  EXPECT_EQ(l.counters["map_output_records"], 80);
}

TEST(ChartLayoutTest, RateBucketsSumToFetchedBytes) {
  ChartLayout l = BuildChartLayout(webtest::HandBuiltTrace(), 100);
  ASSERT_EQ(l.rate_bytes.size(), 100u);
  EXPECT_NEAR(l.bucket_seconds, 0.036, 1e-12);
  double sum = std::accumulate(l.rate_bytes.begin(), l.rate_bytes.end(), 0.0);
  EXPECT_NEAR(sum, 11000.0, 1e-6);
  // Nothing moved before the first fetch at 1.0 s; 2 fetches (4000 B over 0.4/0.5 s) at 1.05 s.
  EXPECT_DOUBLE_EQ(l.rate_bytes[10], 0.0);
  double rate = l.rate_bytes[29] / l.bucket_seconds;  // bucket [1.044, 1.08)
  EXPECT_NEAR(rate, 2000 / 0.4 + 2000 / 0.5, 1e-6);
}

// While a fetch is in flight the trace holds its start and the sources' `served` reports but
// no end: the rate plot shows the served bytes over their intervals (the measured rate the
// status cards read), not nothing until the fetch ends. Failed before the plot read `served`.
TEST(ChartLayoutTest, RatePlotShowsServedBytesWhileTheFetchIsInFlight) {
  std::vector<trace::Event> t;
  t.push_back(trace::JobSubmit{.t = 1000, .job = "job-000001", .name = "wc", .kind = "wordcount", .maps = 1,
                               .reduces = 1, .policy = "maxsrpt", .output = "/tmp/out"});
  t.push_back(trace::FetchStart{.t = 1001, .job = "job-000001", .task = "r-00000", .map = "m-00000",
                                .src_worker = 1});
  // 1 MB served over [1001, 1002], 3 MB over [1002, 1003]; the fetch has not ended.
  t.push_back(trace::Served{.t = 1002, .job = "job-000001", .worker = 1, .start = 1001.0, .bytes = 1000000});
  t.push_back(trace::Served{.t = 1003, .job = "job-000001", .worker = 1, .start = 1002.0, .bytes = 3000000});
  ChartLayout l = BuildChartLayout(t, 4, 1004);  // 1 s buckets over [0, 4]
  ASSERT_EQ(l.rate_bytes.size(), 4u);
  EXPECT_DOUBLE_EQ(l.bucket_seconds, 1.0);
  EXPECT_DOUBLE_EQ(l.rate_bytes[0], 0.0);
  EXPECT_NEAR(l.rate_bytes[1], 1e6, 1e-6);
  EXPECT_NEAR(l.rate_bytes[2], 3e6, 1e-6);
  EXPECT_DOUBLE_EQ(l.rate_bytes[3], 0.0);
}

TEST(ChartLayoutTest, RealTraceBucketsSumAndNoOverlapInALane) {
  auto events = webtest::RealTrace();
  ASSERT_FALSE(events.empty());
  ChartLayout l = BuildChartLayout(events);
  double fetched = 0;
  for (const auto& ev : events) {
    if (const auto* f = std::get_if<trace::FetchEnd>(&ev)) fetched += static_cast<double>(f->bytes.value_or(0));
  }
  EXPECT_NEAR(std::accumulate(l.rate_bytes.begin(), l.rate_bytes.end(), 0.0), fetched, 1e-3);
  for (size_t i = 0; i < l.bars.size(); ++i) {
    for (size_t j = i + 1; j < l.bars.size(); ++j) {
      const Bar &a = l.bars[i], &b = l.bars[j];
      if (a.lane == b.lane) {
        EXPECT_FALSE(a.start < b.end && b.start < a.end) << a.label << " / " << b.label;
      }
    }
  }
  int maps = 0, reduces = 0, fetches = 0;
  for (const auto& b : l.bars) {
    maps += b.kind == BarKind::kMap;
    reduces += b.kind == BarKind::kReduce;
    fetches += b.kind == BarKind::kFetch;
  }
  EXPECT_EQ(maps, 16);
  EXPECT_EQ(reduces, 3);
  EXPECT_EQ(fetches, 48);
}

// The hand-built trace's first events (job_submit, job_start, share), then attempt 1 of
// m-00000 starting on worker 3 in a `slot` slot at 0.5 s and r-00000 (on worker 2) starting
// to fetch from worker 3 at 0.7 s; neither ends.
std::vector<trace::Event> TraceWithOpenAttemptAndFetch(const std::string& slot) {
  auto events = webtest::HandBuiltTrace();
  events.resize(3);
  events.push_back(trace::AttemptStart{.t = 1000.5, .task = "m-00000", .attempt = 1, .worker = 3, .slot = slot});
  events.push_back(trace::ReducePlace{.t = 1000.6, .task = "r-00000", .worker = 2});
  events.push_back(trace::FetchStart{.t = 1000.7, .task = "r-00000", .map = "m-00009", .src_worker = 3});
  return events;
}

TEST(ChartLayoutTest, RunningAttemptsAndFetchesEndAtTheLastEvent) {
  auto events = TraceWithOpenAttemptAndFetch("unified");
  events.push_back(trace::Share{.t = 1001.0, .share = 0.25});
  ChartLayout l = BuildChartLayout(events);
  EXPECT_EQ(l.status, "running");
  EXPECT_LT(l.response_time, 0);
  ASSERT_EQ(l.bars.size(), 2u);
  EXPECT_TRUE(l.bars[0].running);
  EXPECT_EQ(l.lanes[l.bars[0].lane].label, "w3 unified 0");
  EXPECT_NEAR(l.bars[0].end, 1.0, 1e-9);
  EXPECT_EQ(l.lanes[l.bars[1].lane].label, "w3→w2 shuffle");
  EXPECT_NEAR(l.bars[1].start, 0.7, 1e-9);
}

// What was running when the master died ends at the restart, lost; what starts after it
// is drawn from its own events.
TEST(ChartLayoutTest, AttemptsAndFetchesOpenAtAMasterRestartEndThere) {
  auto events = TraceWithOpenAttemptAndFetch("map");
  events.push_back(trace::MasterRestart{.t = 1001.0, .reduces_committed = 0, .maps_awaiting = 0});
  events.push_back(trace::AttemptStart{.t = 1001.5, .task = "m-00000", .attempt = 2, .worker = 4, .slot = "map"});
  events.push_back(trace::Share{.t = 1002.0, .share = 0.25});
  ChartLayout l = BuildChartLayout(events);
  ASSERT_EQ(l.bars.size(), 3u);
  const Bar& lost = l.bars[0];
  EXPECT_EQ(lost.kind, BarKind::kFailed);
  EXPECT_FALSE(lost.running);
  EXPECT_NEAR(lost.end, 1.0, 1e-9);
  EXPECT_NE(lost.tooltip.find("master restarted"), std::string::npos) << lost.tooltip;
  const Bar& again = l.bars[1];
  EXPECT_EQ(again.kind, BarKind::kMap);
  EXPECT_TRUE(again.running);
  EXPECT_NEAR(again.start, 1.5, 1e-9);
  const Bar& fetch = l.bars[2];
  EXPECT_EQ(fetch.kind, BarKind::kFailed);
  EXPECT_NEAR(fetch.end, 1.0, 1e-9);
}

// A speculative backup race: the winner is work done, the loser the master killed is drawn
// as killed (its own kind, its tooltip saying so), not as failed; a failed attempt stays
// failed.
TEST(ChartLayoutTest, ABackupsKilledLoserIsKilledNotFailed) {
  std::vector<trace::Event> events;
  events.push_back(trace::JobSubmit{.t = 1000, .job = "job-000001", .maps = 2, .reduces = 1, .policy = "fifo"});
  auto start = [&](const char* task, int attempt, int worker, double t, bool backup) {
    events.push_back(trace::AttemptStart{.t = 1000 + t, .job = "job-000001", .task = task, .attempt = attempt,
                                         .worker = worker, .slot = "map", .backup = backup});
  };
  auto end = [&](const char* task, int attempt, int worker, double t, const char* status, const char* error) {
    events.push_back(trace::AttemptEnd{.t = 1000 + t, .job = "job-000001", .task = task, .attempt = attempt,
                                       .worker = worker, .slot = "map", .status = status, .error = error});
  };
  start("m-00000", 1, 1, 0.0, false);
  start("m-00000", 2, 2, 1.0, true);  // the backup
  end("m-00000", 2, 2, 2.0, "ok", "");
  end("m-00000", 1, 1, 2.1, "killed", "killed by the master: another attempt finished");
  start("m-00001", 1, 2, 2.0, false);
  end("m-00001", 1, 2, 2.5, "failed", "exit status 1");
  ChartLayout l = BuildChartLayout(events);
  ASSERT_EQ(l.bars.size(), 3u);
  const Bar& loser = FindBar(l, "m-00000", BarKind::kKilled);
  EXPECT_EQ(l.lanes[loser.lane].worker, 1);
  EXPECT_NE(loser.tooltip.find("status killed"), std::string::npos) << loser.tooltip;
  EXPECT_EQ(l.lanes[FindBar(l, "m-00000", BarKind::kMap).lane].worker, 2);
  EXPECT_EQ(FindBar(l, "m-00001", BarKind::kFailed).label, "m-00001");
  EXPECT_EQ(BarKindName(BarKind::kKilled), "killed");
}

TEST(ChartLayoutTest, EmptyTrace) {
  ChartLayout l = BuildChartLayout({});
  EXPECT_TRUE(l.lanes.empty());
  EXPECT_EQ(l.rate_bytes.size(), 100u);
}

}  // namespace
}  // namespace mr::web
