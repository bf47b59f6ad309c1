// Unified slots on the live cluster (issue 14): a word count and a sort at once, byte for
// byte, on (a) two workers with only unified slots and (b) a mixed cluster of one
// unified-only worker and one with map and reduce slots, under fifo, fair, asrpt and lrpt.
// From the traces: tasks ran on unified slots (only on them in (a)), no reducer was placed
// before slow start, no reduce started before its job's last map ended, and no reduce
// attempt was preempted (each ran once, to its end). And asrpt on a cluster without
// unified slots fails its job with the reason instead of leaving it idle.
#include <algorithm>
#include <cmath>
#include <future>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

constexpr double kSlowStart = 0.5;

using Shape = std::vector<std::vector<std::string>>;  // each worker's slot flags

const Shape kUnifiedOnly = {{"--map-slots", "0", "--reduce-slots", "0", "--unified-slots", "2"},
                            {"--map-slots", "0", "--reduce-slots", "0", "--unified-slots", "2"}};
const Shape kMixed = {{"--map-slots", "0", "--reduce-slots", "0", "--unified-slots", "2"},
                      {"--map-slots", "1", "--reduce-slots", "1"}};

// Checks one job's trace; counts its attempts per slot kind into *unified / *other.
void CheckTrace(const std::string& path, const std::string& what, int* unified, int* other) {
  std::vector<nlohmann::json> trace = ReadTrace(path);
  ASSERT_FALSE(trace.empty()) << path;
  int maps = -1;
  std::vector<std::string> reduce_starts, reduce_ends, commits;
  for (const auto& e : trace) {
    const std::string ev = e.at("event");
    if (ev == "job_submit") maps = e.at("maps").get<int>();
    if (ev == "attempt_start") {
      (e.at("slot") == "unified" ? *unified : *other) += 1;
      // A reduce's speculative backup is a second attempt, not a preemption's restart.
      if (e.at("task").get<std::string>()[0] == 'r' && !e.value("backup", false)) reduce_starts.push_back(e.at("task"));
    }
    if (ev == "commit") commits.push_back(e.at("task"));
    // No reduce before its job's last map, in the order the master recorded the events (a
    // map's end is in its worker's clock, a reduce's start in the master's: comparing the
    // two would be off by the error of the worker's clock offset).
    if (ev == "attempt_end" && e.at("task").get<std::string>()[0] == 'm' && e.value("status", "") == "ok") {
      EXPECT_TRUE(reduce_starts.empty()) << what << ": a map ended ok after a reduce started: " << e.dump();
    }
    if (ev == "attempt_end" && e.at("task").get<std::string>()[0] == 'r') {
      // The loser of a backup race is killed; nothing else ends a reduce early here.
      const bool lost_race = e.value("status", "") == "killed" &&
                             e.value("error", "").find("succeeded first") != std::string::npos;
      if (!lost_race) {
        EXPECT_EQ(e.value("status", ""), "ok") << what << ": a reduce attempt did not run to its end: " << e.dump();
        reduce_ends.push_back(e.at("task"));
      }
    }
    if (ev == "reduce_place") {
      EXPECT_GE(e.at("maps_done").get<int>(), static_cast<int>(std::ceil(kSlowStart * maps)))
          << what << ": reducer placed before slow start: " << e.dump();
    }
  }
  ASSERT_GT(maps, 1) << what;
  // Each reducer ran exactly once (non-preemptive), and only once every map was done.
  std::sort(reduce_starts.begin(), reduce_starts.end());
  EXPECT_EQ(std::adjacent_find(reduce_starts.begin(), reduce_starts.end()), reduce_starts.end())
      << what << ": a reduce started twice";
  EXPECT_EQ(reduce_starts.size(), 3u) << what;
  EXPECT_EQ(reduce_ends.size(), 3u) << what;
  std::sort(commits.begin(), commits.end());
  EXPECT_EQ(commits, (std::vector<std::string>{"r-00000", "r-00001", "r-00002"})) << what << ": one commit each";
}

class UnifiedSlotsTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(UnifiedSlotsTest, WordCountAndSortCorrectOnUnifiedSlots) {
  const auto& [policy, mixed] = GetParam();
  const std::string what = policy + (mixed ? " on a mixed cluster" : " on unified slots only");
  TempDir tmp("mr-unified-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 2u << 20, 41);
  WriteRecords(d + "/r.txt", 20000, 42);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--policy", policy, "--heartbeat-ms", "50"})) << c.MasterLogs();
  for (const auto& flags : mixed ? kMixed : kUnifiedOnly) c.StartWorker(flags);
  ASSERT_TRUE(c.WaitForWorkers(2)) << "two workers did not register\n" << c.MasterLogs();

  const std::string common = " --reducers 3 --split-size 256KiB --slow-start " + std::to_string(kSlowStart) +
                             " --hint-reduce-seconds 0.5 --quiet";
  auto wc = std::async(std::launch::async, [&] {
    return c.Mr("run wordcount --input " + d + "/a.txt --output " + d + "/wc" + common);
  });
  auto st = std::async(std::launch::async, [&] {
    return c.Mr("run sort --input " + d + "/r.txt --output " + d + "/sorted" + common);
  });
  CommandResult wr = wc.get(), sr = st.get();
  ASSERT_EQ(wr.exit_code, 0) << what << "\n" << wr.err << c.MasterLogs();
  ASSERT_EQ(sr.exit_code, 0) << what << "\n" << sr.err << c.MasterLogs();
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/a.txt")) << "wordcount " << what;
  EXPECT_TRUE(Sh("cat " + d + "/sorted/part-r-*").out == Sh("LC_ALL=C sort " + d + "/r.txt").out) << "sort " << what;

  int unified = 0, other = 0;
  ASSERT_NO_FATAL_FAILURE(CheckTrace(d + "/wc/_trace.jsonl", "wordcount " + what, &unified, &other));
  ASSERT_NO_FATAL_FAILURE(CheckTrace(d + "/sorted/_trace.jsonl", "sort " + what, &unified, &other));
  EXPECT_GT(unified, 0) << what;
  if (!mixed) {
    EXPECT_EQ(other, 0) << what << ": only unified slots exist";
  }
  // The reduce hint reached the master; once reduces committed, the estimate is measured.
  auto status = c.Mr("status --json");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  for (const auto& job : nlohmann::json::parse(status.out).at("jobs")) {
    EXPECT_EQ(job.at("estimate").at("reduce_source"), "online") << what << ": " << job.dump();
    EXPECT_GT(job.at("estimate").at("reduce_seconds").get<double>(), 0) << what;
  }
}

// asrpt plans over unified slots only: on workers with map and reduce slots alone its job
// fails with the reason once the grace (--worker-timeout) has passed.
TEST(UnifiedSlotsPolicyTest, AsrptWithoutUnifiedSlotsFailsTheJobWithTheReason) {
  TempDir tmp("mr-unified-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 64u << 10, 43);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--policy", "asrpt", "--worker-timeout", "1", "--heartbeat-ms", "50"})) << c.MasterLogs();
  c.StartWorker({"--map-slots", "1", "--reduce-slots", "1"});
  c.StartWorker({"--map-slots", "1", "--reduce-slots", "1"});
  ASSERT_TRUE(c.WaitForWorkers(2)) << "two workers did not register\n" << c.MasterLogs();
  CommandResult r = c.Mr("run wordcount --quiet --input " + d + "/a.txt --output " + d + "/wc");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("policy asrpt needs workers with unified slots (mr worker --unified-slots N); none of "
                       "the 2 live workers has one"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(PathExists(d + "/wc")) << "a failed job leaves no output";
  EXPECT_NE(c.MasterLogs().find("has no unified slots: policy asrpt"), std::string::npos) << "logged once";
}

INSTANTIATE_TEST_SUITE_P(Policies, UnifiedSlotsTest,
                         ::testing::Combine(::testing::Values("fifo", "fair", "asrpt", "lrpt"), ::testing::Bool()),
                         [](const auto& info) {
                           return std::get<0>(info.param) + (std::get<1>(info.param) ? "_mixed" : "_unified");
                         });

}  // namespace
}  // namespace mr::testing
