// Slow and straggling workers on a live cluster (issue 15, item 1): real processes on
// loopback. A worker at --speed 0.5 runs a word count's maps about twice as long as one at
// speed 1 (measured in the same test, a loose band, never an absolute time), and a worker
// with --straggler-* holds each map attempt for exactly the delay drawn for it, which the
// test recomputes from the seed and the attempt's identity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/file_util.h"
#include "common/job_id.h"
#include "common/straggler.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

struct MapAttempt {
  uint64_t job = 0;
  uint32_t index = 0;
  uint32_t attempt = 0;
  int worker = 0;
  double seconds = 0;  // end − start, as the worker reported them
  std::map<std::string, int64_t> counters;
};

// Every map attempt that ended ok in the trace at `path`.
std::vector<MapAttempt> MapAttempts(const std::string& path) {
  std::vector<MapAttempt> out;
  for (const auto& e : ReadTrace(path)) {
    if (e.at("event") != "attempt_end" || e.value("status", "") != "ok") continue;
    const std::string task = e.at("task");
    if (task[0] != 'm') continue;
    MapAttempt a;
    a.job = ParseJobId(e.at("job").get<std::string>()).value_or(0);
    a.index = static_cast<uint32_t>(std::stoul(task.substr(2)));
    a.attempt = e.at("attempt").get<uint32_t>();
    a.worker = e.at("worker").get<int>();
    a.seconds = e.at("t").get<double>() - e.at("start").get<double>();
    if (e.contains("counters")) {
      for (const auto& [k, v] : e.at("counters").items()) a.counters[k] = v.get<int64_t>();
    }
    out.push_back(a);
  }
  return out;
}

// Two workers with one map slot each, one at speed 1 and one at speed 0.5, share a word
// count of 8 equal splits. The slow worker's attempts say they held their slot as long
// again as their work (map.speed_hold_ms = map.work_ms), the fast one's hold nothing, and
// the median attempt on the slow worker takes at least 1.4 times the fast one's.
TEST(StragglerWorkersTest, HalfSpeedWorkerTakesAboutTwiceAsLongOnRealInput) {
  TempDir tmp("mr-speed-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 8u << 20, 17);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "50"})) << c.MasterLogs();
  c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--speed", "1"});
  c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--speed", "0.5"});
  ASSERT_TRUE(c.WaitForWorkers(2)) << c.MasterLogs();
  CommandResult r = c.Mr("run wordcount --quiet --input " + d + "/in.txt --output " + d +
                         "/wc --split-size 1MiB --reducers 1 --speculative on");
  ASSERT_EQ(r.exit_code, 0) << r.err;  // (the output's correctness: the straggler test below)

  std::vector<double> slow_times, fast_times;
  for (const MapAttempt& a : MapAttempts(d + "/wc/_trace.jsonl")) {
    if (a.counters.count("map.speed_hold_ms")) {
      slow_times.push_back(a.seconds);
      // (1/0.5 − 1) × work, both rounded to ms.
      EXPECT_NEAR(a.counters.at("map.speed_hold_ms"), a.counters.at("map.work_ms"), 1);
      EXPECT_EQ(a.counters.at("map.straggler_delay_ms"), 0);
      EXPECT_GE(a.seconds * 1000 + 2, 2.0 * a.counters.at("map.work_ms")) << "m-" << a.index;
    } else {
      fast_times.push_back(a.seconds);
    }
  }
  ASSERT_GE(slow_times.size(), 1u) << "the slow worker ran no map";
  ASSERT_GE(fast_times.size(), 1u) << "the fast worker ran no map";
  EXPECT_EQ(slow_times.size() + fast_times.size(), 8u);
  // Medians: on 2 shared cores one map's work can take several times another's. Only a
  // lower bound: the exact relation (hold = work on the slow worker, none on the fast) is
  // checked per attempt above, while the ratio's top depends on how the host's CPU scheduler
  // serves the two workers (the fast worker's maps get more CPU while the slow one holds
  // without any): 3.5 to 9.6 was measured beside parallel builds.
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  const double ratio = median(slow_times) / median(fast_times);
  EXPECT_GE(ratio, 1.4) << slow_times.size() << " slow maps, " << fast_times.size() << " fast";
}

// One worker with exp straggler injection (T = 0.2 s, Δ = 5/s: mean delay 0.4 s): every
// map attempt's reported delay is the draw for its (job, map, attempt) under seed 9, and
// its duration includes it.
TEST(StragglerWorkersTest, InjectedDelayIsTheSeededDrawAndInTheDuration) {
  TempDir tmp("mr-straggler-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 256u << 10, 23);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "50"})) << c.MasterLogs();
  c.StartWorker({"--map-slots", "2", "--reduce-slots", "1", "--straggler-offset", "200ms", "--straggler-rate", "5",
                 "--straggler-tail", "exp", "--straggler-seed", "9"});
  ASSERT_TRUE(c.WaitForWorkers(1)) << c.MasterLogs();
  // The master sees the injection: it logs it at registration.
  EXPECT_NE(c.MasterLogs().find("straggler=exp T=0.2 rate=5 seed=9"), std::string::npos) << c.MasterLogs();
  CommandResult r = c.Mr("run wordcount --quiet --input " + d + "/in.txt --output " + d +
                         "/wc --split-size 64KiB --reducers 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SortedOutput(d + "/wc"), WordCountReference(d + "/in.txt"));

  StragglerSpec spec;
  spec.enabled = true;
  spec.offset = 0.2;
  spec.rate = 5;
  spec.seed = 9;
  const std::vector<MapAttempt> attempts = MapAttempts(d + "/wc/_trace.jsonl");
  ASSERT_EQ(attempts.size(), 4u);
  for (const MapAttempt& a : attempts) {
    const double delay = StragglerDelay(spec, a.job, a.index, a.attempt);
    ASSERT_TRUE(a.counters.count("map.straggler_delay_ms")) << "m-" << a.index;
    EXPECT_EQ(a.counters.at("map.straggler_delay_ms"), std::llround(delay * 1000)) << "m-" << a.index;
    EXPECT_EQ(a.counters.at("map.speed_hold_ms"), 0);
    EXPECT_GE(a.seconds + 0.002, delay + a.counters.at("map.work_ms") / 1000.0) << "m-" << a.index;
  }
}

}  // namespace
}  // namespace mr::testing
