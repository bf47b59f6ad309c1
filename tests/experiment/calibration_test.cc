#include "experiment/calibration.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "trace/reader.h"

namespace mr::experiment {
namespace {

using nlohmann::json;

// Hand-made events as the trace reader gives them.
std::vector<trace::Event> Events(const std::vector<json>& events) {
  auto read = trace::ParseTraceArray(json(events).dump());
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  return read.ok() ? *read : std::vector<trace::Event>{};
}

json Start(double t, int attempt, int worker) {
  return {{"event", "attempt_start"}, {"t", t}, {"task", "m-0000" + std::to_string(attempt)},
          {"attempt", attempt}, {"worker", worker}, {"slot", "map"}};
}
// The worker-measured start ("start") is when the map began to run; the master's
// attempt_start is written when it learns of the assignment, which may be later.
json End(double t, int attempt, int worker, double ran_from) {
  return {{"event", "attempt_end"}, {"t", t}, {"task", "m-0000" + std::to_string(attempt)},
          {"attempt", attempt}, {"worker", worker}, {"slot", "map"}, {"status", "ok"}, {"start", ran_from}};
}

ClusterShape TwoWorkers() {
  ClusterShape s;
  s.groups.push_back({2, 1, 1, 1.0, 10e6});
  return s;
}

TEST(CalibrationTest, DerivedFromHandMadeTraces) {
  // Zero-work maps take 0.1 s; on worker 1 the second starts 0.02 s after the first ends.
  std::vector<json> empty = {Start(0, 1, 1), End(0.1, 1, 1, 0), Start(0.12, 2, 1), End(0.22, 2, 1, 0.12),
                             Start(0, 3, 2), End(0.1, 3, 2, 0)};
  // 1-second maps run 1.35 s by the workers' clocks (the master logged their start 0.3 s
  // late): 1.25 s of work after the 0.1 s start -> factor 1 / 1.25 = 0.8.
  std::vector<json> rate = {Start(0.3, 1, 1), End(1.35, 1, 1, 0), Start(0.3, 2, 2), End(1.35, 2, 2, 0)};
  // 8 MB in 0.5 s and 4 MB in 0.5 s: 12 MB per second of busy link.
  std::vector<json> link = {{{"event", "served"}, {"t", 1.0}, {"start", 0.5}, {"bytes", 8e6}},
                            {{"event", "served"}, {"t", 2.0}, {"start", 1.5}, {"bytes", 4e6}}};
  auto c = DeriveCalibration(TwoWorkers(), {Events(empty), Events(rate), Events(link)});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NEAR(c->task_start_seconds, 0.1, 1e-12);
  EXPECT_NEAR(c->decision_latency, 0.02, 1e-12);
  EXPECT_NEAR(c->map_speed_factor, 0.8, 1e-12);
  EXPECT_NEAR(c->link_rate, 12e6, 1e-3);
  EXPECT_EQ(c->shape_hash, ShapeHash(TwoWorkers()));

  auto back = ParseCalibration(CalibrationJson(*c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_DOUBLE_EQ(back->link_rate, c->link_rate);

  // The simulator's view: speed 0.8, link min(cap 10 MB/s, 12 MB/s), task start as work.
  auto spec = CalibratedCluster(TwoWorkers(), *c);
  ASSERT_TRUE(spec.ok());
  EXPECT_NEAR(spec->worker_specs[0].speed, 0.8, 1e-12);
  EXPECT_EQ(spec->worker_specs[1].shuffle_bandwidth, 10e6);
  EXPECT_NEAR(spec->decision_latency, 0.02, 1e-12);
  JobList jobs(1);
  jobs[0].map_seconds = 1;
  EXPECT_NEAR(CalibratedJobs(jobs, TwoWorkers(), *c)[0].map_seconds, 1 + 0.1 * 0.8, 1e-12);
}

// Processor sharing: three workers with one map slot each on two cores. Maps 1 and 2 run
// [0, 2], map 3 runs [0, 1] (worker clocks), task start 0.1 s. Maps 1 and 2 share a core
// three ways for their first second (2/3) and have one each after (1): mean share 5/6 over
// 1.9 s busy; map 3 has 2/3 over 0.9 s. core_speed = 3 s of work / the core-seconds they got.
TEST(CalibrationTest, CoreSpeedWeighsEachMapByItsShareOfTheCores) {
  ClusterShape three;
  three.groups.push_back({3, 1, 1, 1.0, 10e6});
  std::vector<json> empty = {Start(0, 1, 1), End(0.1, 1, 1, 0)};
  std::vector<json> rate = {Start(0, 1, 1), End(2, 1, 1, 0), Start(0, 2, 2), End(2, 2, 2, 0),
                            Start(0, 3, 3), End(1, 3, 3, 0)};
  std::vector<json> link = {{{"event", "served"}, {"t", 1.0}, {"start", 0.5}, {"bytes", 8e6}}};
  auto c = DeriveCalibration(three, {Events(empty), Events(rate), Events(link)}, /*host_cores=*/2);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->host_cores, 2);
  EXPECT_NEAR(c->core_speed, 3.0 / (2 * 1.9 * 5.0 / 6.0 + 0.9 * 2.0 / 3.0), 1e-12);
  // The old factor averages the run times and ignores the sharing: 1 / (5/3 - 0.1).
  EXPECT_NEAR(c->map_speed_factor, 1.0 / (5.0 / 3.0 - 0.1), 1e-12);

  auto back = ParseCalibration(CalibrationJson(*c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->host_cores, 2);
  EXPECT_DOUBLE_EQ(back->core_speed, c->core_speed);
  auto spec = CalibratedCluster(three, *c);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->host_cores, 2);
  EXPECT_NEAR(spec->worker_specs[0].speed, c->core_speed, 1e-12);

  // With enough cores every map had one to itself: the two measures agree.
  auto own = DeriveCalibration(three, {Events(empty), Events(rate), Events(link)}, /*host_cores=*/3);
  ASSERT_TRUE(own.ok());
  EXPECT_NEAR(own->core_speed, 3.0 / (2 * 1.9 + 0.9), 1e-12);
}

// A calibration stored before processor sharing was measured has neither field: it reads
// as a core per slot, and the simulator applies map_speed_factor as before.
TEST(CalibrationTest, OldCalibrationsReadAsACorePerSlot) {
  auto c = ParseCalibration(R"({"task_start_seconds": 0.01, "map_speed_factor": 0.65,
                                "link_rate": 2e7, "decision_latency": 0.02})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->host_cores, 0);
  EXPECT_DOUBLE_EQ(c->core_speed, 0.65);
  auto spec = CalibratedCluster(TwoWorkers(), *c);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->host_cores, 0);
  EXPECT_NEAR(spec->worker_specs[0].speed, 0.65, 1e-12);
  EXPECT_FALSE(ParseCalibration(R"({"task_start_seconds": 0, "map_speed_factor": 1, "link_rate": 1,
                                    "decision_latency": 0, "host_cores": -1})").ok());
}

// The link job's CPU over the bytes it served: 0.06 core-seconds for 12 MB = 5e-9 per byte;
// applied by the simulator only where tasks share the host's cores. Calibrations stored
// before it was measured read as 0.
TEST(CalibrationTest, TheShufflesCpuIsPerByteServed) {
  std::vector<json> empty = {Start(0, 1, 1), End(0.1, 1, 1, 0)};
  std::vector<json> rate = {Start(0, 1, 1), End(1.1, 1, 1, 0)};
  std::vector<json> link = {{{"event", "served"}, {"t", 1.0}, {"start", 0.5}, {"bytes", 8e6}},
                            {{"event", "served"}, {"t", 2.0}, {"start", 1.5}, {"bytes", 4e6}}};
  auto c = DeriveCalibration(TwoWorkers(), {Events(empty), Events(rate), Events(link)}, /*host_cores=*/2, /*link_cpu_seconds=*/0.06);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NEAR(c->shuffle_cpu_per_byte, 5e-9, 1e-18);
  auto back = ParseCalibration(CalibrationJson(*c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_DOUBLE_EQ(back->shuffle_cpu_per_byte, c->shuffle_cpu_per_byte);
  auto spec = CalibratedCluster(TwoWorkers(), *c);
  ASSERT_TRUE(spec.ok());
  EXPECT_DOUBLE_EQ(spec->shuffle_cpu_per_byte, 5e-9);
  c->host_cores = 0;  // a core per slot: the shuffle takes none from the tasks
  EXPECT_EQ(CalibratedCluster(TwoWorkers(), *c)->shuffle_cpu_per_byte, 0);

  auto old = ParseCalibration(R"({"task_start_seconds": 0.01, "map_speed_factor": 0.65,
                                  "link_rate": 2e7, "decision_latency": 0.02, "host_cores": 2})");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->shuffle_cpu_per_byte, 0);
  EXPECT_FALSE(ParseCalibration(R"({"task_start_seconds": 0, "map_speed_factor": 1, "link_rate": 1,
                                    "decision_latency": 0, "shuffle_cpu_per_byte": -1e-9})").ok());
}

// The link rate is the fetches' (bytes over the union of their intervals per source worker),
// not the served reports': a report covers its 250-ms window whole. Worker 1 sent two 10 MB
// fetches over [0.5, 1.0] and [1.0, 1.5] (20 MB/s); its served report spans [0.25, 1.5]
// (16 MB/s).
TEST(CalibrationTest, TheLinkRateIsTheFetchesNotTheServedWindows) {
  std::vector<json> empty = {Start(0, 1, 1), End(0.1, 1, 1, 0)};
  std::vector<json> rate = {Start(0, 1, 1), End(1.1, 1, 1, 0)};
  std::vector<json> link = {
      {{"event", "job_submit"}, {"t", 0.0}, {"job", "job-000003"}, {"name", "link"}, {"maps", 2}, {"reduces", 1},
       {"policy", "fifo"}},
      {{"event", "fetch_end"}, {"t", 1.0}, {"job", "job-000003"}, {"task", "r-00000"}, {"map", "m-00000"},
       {"src_worker", 1}, {"worker", 2}, {"start", 0.5}, {"bytes", 10e6}, {"status", "ok"}},
      {{"event", "fetch_end"}, {"t", 1.5}, {"job", "job-000003"}, {"task", "r-00000"}, {"map", "m-00001"},
       {"src_worker", 1}, {"worker", 2}, {"start", 1.0}, {"bytes", 10e6}, {"status", "ok"}},
      {{"event", "served"}, {"t", 1.5}, {"job", "job-000003"}, {"worker", 1}, {"start", 0.25}, {"bytes", 20e6}}};
  auto c = DeriveCalibration(TwoWorkers(), {Events(empty), Events(rate), Events(link)});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NEAR(c->link_rate, 20e6, 1);
}

// Each number of a calibration is the median of its rounds, field by field (one round's
// outlier in one field does not pull the others).
TEST(CalibrationTest, TheStoredCalibrationIsTheMedianOfItsRounds) {
  Calibration a, b, c;
  a.core_speed = 0.95; b.core_speed = 0.99; c.core_speed = 0.93;
  a.link_rate = 17e6; b.link_rate = 19e6; c.link_rate = 18e6;
  a.shuffle_cpu_per_byte = 6e-9; b.shuffle_cpu_per_byte = 9e-9; c.shuffle_cpu_per_byte = 6.3e-9;
  a.host_cores = b.host_cores = c.host_cores = 2;
  Calibration m = MedianCalibration({a, b, c});
  EXPECT_DOUBLE_EQ(m.core_speed, 0.95);
  EXPECT_DOUBLE_EQ(m.link_rate, 18e6);
  EXPECT_DOUBLE_EQ(m.shuffle_cpu_per_byte, 6.3e-9);
  EXPECT_EQ(m.host_cores, 2);
  EXPECT_DOUBLE_EQ(MedianCalibration({a, b}).core_speed, 0.97);  // even count: the mean of the middle two
}

// As live: every task's first attempt is number 1, and the master writes a map's
// attempt_end after it has already assigned the worker's next map. Worker 1 runs m0, m1, m2
// back to back, each 0.1 s, each assigned 0.02 s after the previous one ended.
TEST(CalibrationTest, AttemptsArePairedByTaskNotByAttemptNumber) {
  auto start = [](double t, int task) {
    return json{{"event", "attempt_start"}, {"t", t}, {"task", "m-0000" + std::to_string(task)},
                {"attempt", 1}, {"worker", 1}, {"slot", "map"}};
  };
  auto end = [](double t, int task, double ran_from) {
    return json{{"event", "attempt_end"}, {"t", t}, {"task", "m-0000" + std::to_string(task)}, {"attempt", 1},
                {"worker", 1}, {"slot", "map"}, {"status", "ok"}, {"start", ran_from}};
  };
  std::vector<json> empty = {start(0, 0), start(0.12, 1), start(0.24, 2),
                             end(0.1, 0, 0), end(0.22, 1, 0.12), end(0.34, 2, 0.24)};
  std::vector<json> rate = {start(0, 0), end(1.35, 0, 0)};
  std::vector<json> link = {{{"event", "served"}, {"t", 1.0}, {"start", 0.5}, {"bytes", 8e6}}};
  auto c = DeriveCalibration(TwoWorkers(), {Events(empty), Events(rate), Events(link)});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NEAR(c->task_start_seconds, 0.1, 1e-12);
  EXPECT_NEAR(c->decision_latency, 0.02, 1e-12);
}

TEST(CalibrationTest, ATraceWithoutWhatItMustShowIsAnError) {
  std::vector<json> none;
  auto c = DeriveCalibration(TwoWorkers(), {Events(none), Events(none), Events(none)});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("zero-work"), std::string::npos);
  EXPECT_FALSE(ParseCalibration("{\"link_rate\": 1}").ok());
}

TEST(CalibrationTest, TheShapeHashSeesSlotsAndCapsNotSlowStart) {
  ClusterShape a = TwoWorkers(), b = TwoWorkers(), c = TwoWorkers();
  b.slow_start = 0.9;
  c.groups[0].shuffle_bandwidth = 20e6;
  EXPECT_EQ(ShapeHash(a), ShapeHash(b));
  EXPECT_NE(ShapeHash(a), ShapeHash(c));
}

TEST(CalibrationTest, ShapesWithoutUnifiedSlotsKeepTheirHash) {
  // FNV-1a of "hb=20;2,1,1,1,10000000", as before unified slots and work modes existed,
  // so calibrations stored for such shapes stay valid.
  EXPECT_EQ(ShapeHash(TwoWorkers()), "ec5637581c84277d");
  ClusterShape unified = TwoWorkers(), sleeping = TwoWorkers();
  unified.groups[0].unified_slots = 1;
  sleeping.work = WorkMode::kSleep;
  EXPECT_NE(ShapeHash(unified), ShapeHash(TwoWorkers()));
  EXPECT_NE(ShapeHash(sleeping), ShapeHash(TwoWorkers()));
  EXPECT_NE(ShapeHash(sleeping), ShapeHash(unified));
}

// Two workers with one unified slot each and nothing else, at speed 2.
ClusterShape UnifiedOnly() {
  ClusterShape s;
  s.groups.push_back({2, 0, 0, 2.0, 10e6, /*unified_slots=*/1});
  return s;
}

TEST(CalibrationTest, UnifiedSlotsRunTheStandardMaps) {
  std::vector<model::TaskJob> jobs = CalibrationJobs(UnifiedOnly());
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].maps, 4);  // two waves over the 2 unified slots
  EXPECT_EQ(jobs[1].maps, 4);
  EXPECT_EQ(jobs[2].maps, 2);  // one per slot
  EXPECT_EQ(jobs[2].reducers, 2);
  EXPECT_NEAR(jobs[2].map_bytes, 2 * 10e6, 1);  // two seconds at the cap, one map per worker
}

TEST(CalibrationTest, TheSlotRateOfUnifiedSlotsUsesTheirSpeed) {
  auto unified = [](json e) {
    e["slot"] = "unified";
    return e;
  };
  std::vector<json> empty = {unified(Start(0, 1, 1)), unified(End(0.1, 1, 1, 0)), unified(Start(0, 2, 2)),
                             unified(End(0.1, 2, 2, 0))};
  // 1 s of work at speed 2 should take 0.5 s; it took 0.625 s after the 0.1 s start: 0.8.
  std::vector<json> rate = {unified(Start(0, 1, 1)), unified(End(0.725, 1, 1, 0)), unified(Start(0, 2, 2)),
                            unified(End(0.725, 2, 2, 0))};
  std::vector<json> link = {{{"event", "served"}, {"t", 1.0}, {"start", 0.5}, {"bytes", 8e6}}};
  auto c = DeriveCalibration(UnifiedOnly(), {Events(empty), Events(rate), Events(link)});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NEAR(c->map_speed_factor, 0.8, 1e-12);
  auto spec = CalibratedCluster(UnifiedOnly(), *c);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->worker_specs[0].unified_slots, 1);
  EXPECT_NEAR(spec->worker_specs[0].speed, 1.6, 1e-12);
  // Task start as work at the calibrated slot speed (2 x 0.8), on maps and reduces alike.
  JobList jobs(1);
  jobs[0].map_seconds = 1;
  jobs[0].reduce_seconds = 3;
  JobList calibrated = CalibratedJobs(jobs, UnifiedOnly(), *c);
  EXPECT_NEAR(calibrated[0].map_seconds, 1 + 0.1 * 1.6, 1e-12);
  EXPECT_NEAR(calibrated[0].reduce_seconds, 3 + 0.1 * 1.6, 1e-12);
}

}  // namespace
}  // namespace mr::experiment
