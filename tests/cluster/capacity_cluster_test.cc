// --policy capacity on a live cluster (docs/policies.md, "capacity"): two queues of 50% of
// 4 map slots. A long job in "large" borrows the idle half of "small"; a word count then
// submitted to "small" waits for no preemption and gets its 2 slots back as the borrowed
// maps end — both read from the jobs' traces — and its output is byte-exact. Also the
// refusals: a job naming an unknown queue, and a queues file whose capacities exceed 100%.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// The decision notes of a job's trace ("capacity: 2 jobs; map slots in use/guaranteed: ...").
std::vector<std::string> DecisionNotes(const std::string& trace) {
  std::vector<std::string> notes;
  for (const auto& e : ReadTrace(trace)) {
    if (e.at("event") == "decision") notes.push_back(e.at("note").get<std::string>());
  }
  return notes;
}

bool AnyContains(const std::vector<std::string>& notes, const std::string& text) {
  for (const std::string& n : notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string Lines(const std::vector<std::string>& notes) {
  std::string s;
  for (const std::string& n : notes) s += n + "\n";
  return s;
}

TEST(CapacityClusterTest, AQueueLendsItsIdleSlotsAndGetsThemBackAsTheBorrowedMapsEnd) {
  TempDir tmp("mr-capacity-cluster-test");
  const std::string d = tmp.path();
  ASSERT_TRUE(WriteStringToFile(d + "/queues.txt", "queue small capacity=50\nqueue large capacity=50\n").ok());
  WriteCorpus(d + "/a.txt", 2u << 20, 31);
  ClusterProcess cluster(d + "/cluster", 2,
                         "--policy capacity --queues " + d + "/queues.txt --map-slots 2 --reduce-slots 1");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();

  // An unknown queue: refused at submit with the known names, nothing created.
  auto refused = Sh(MrBin() + " submit synthetic --maps 1 --map-seconds 0.1 --queue huge --output " + d +
                    "/never" + master);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("unknown queue 'huge' (known: small, large)"), std::string::npos) << refused.err;
  EXPECT_FALSE(PathExists(d + "/never"));

  // "large" alone: it takes all 4 map slots, borrowing small's 2.
  auto big = Sh(MrBin() + " submit synthetic --maps 10 --map-seconds 2 --work sleep --reducers 1 --queue large "
                "--output " + d + "/big" + master);
  ASSERT_EQ(big.exit_code, 0) << big.err;
  std::string big_id = big.out;
  while (!big_id.empty() && big_id.back() == '\n') big_id.pop_back();
  ASSERT_TRUE(WaitForStatus(cluster.address(), big_id,
                            [](const nlohmann::json& j) { return j.at("maps_running").get<int>() == 4; }, 30))
      << "the large job never held all 4 map slots";

  // "small" arrives: nothing is preempted; it gets its 2 slots as large's maps end.
  auto wc = Sh(MrBin() + " run wordcount --input " + d + "/a.txt --output " + d +
               "/wc --split-size 256KiB --reducers 1 --queue small --quiet" + master);
  ASSERT_EQ(wc.exit_code, 0) << wc.err;
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/a.txt")) << "word count in queue small";
  ASSERT_TRUE(WaitForStatus(cluster.address(), big_id,
                            [](const nlohmann::json& j) { return j.at("state") == "SUCCEEDED"; }, 120));

  const std::vector<std::string> big_notes = DecisionNotes(d + "/big/_trace.jsonl");
  EXPECT_TRUE(AnyContains(big_notes, "large 4/2.0")) << "large never borrowed small's slots:\n" << Lines(big_notes);
  const std::vector<std::string> wc_notes = DecisionNotes(d + "/wc/_trace.jsonl");
  EXPECT_TRUE(AnyContains(wc_notes, "small 2/2.0 large 2/2.0"))
      << "small never got its guarantee back beside large:\n" << Lines(wc_notes);
  // While large still held more than its guarantee, small never got more than its own.
  for (const std::string& n : wc_notes) {
    EXPECT_EQ(n.find("small 3/2.0 large 3/2.0"), std::string::npos) << n;
    EXPECT_EQ(n.find("small 4/2.0 large"), std::string::npos) << n;
  }
  std::string submit_queue;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) {
    if (e.at("event") == "job_submit") submit_queue = e.value("queue", "");
  }
  EXPECT_EQ(submit_queue, "small");

  auto status = Sh(MrBin() + " status" + master);
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("QUEUE"), std::string::npos) << status.out;
  auto cluster_json = Sh(MrBin() + " status --json" + master);
  ASSERT_EQ(cluster_json.exit_code, 0) << cluster_json.err;
  const auto jobs = nlohmann::json::parse(cluster_json.out).at("jobs");
  ASSERT_EQ(jobs.size(), 2u) << "the refused job was not kept";
  EXPECT_EQ(jobs[0].at("queue"), "large");
  EXPECT_EQ(jobs[1].at("queue"), "small");
}

TEST(CapacityClusterTest, QueuesAbove100PercentAreAUsageErrorAndNothingStarts) {
  TempDir tmp("mr-capacity-file-test");
  const std::string d = tmp.path();
  ASSERT_TRUE(WriteStringToFile(d + "/queues.txt", "queue a capacity=60\nqueue b capacity=50\n").ok());
  auto r = Sh(MrBin() + " cluster start --workers 1 --policy capacity --queues " + d + "/queues.txt --dir " + d +
              "/cluster");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("queues.txt: the queues' capacities sum to 110% (a 60%, b 50%), more than 100%"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line: " << r.err;
  EXPECT_TRUE(ProcessesMentioning(d).empty()) << "a process of the refused cluster is running";
}

}  // namespace
}  // namespace mr::testing
