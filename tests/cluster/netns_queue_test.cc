// `scripts/netns-cluster.sh up N --link RATE --queue BYTES`, the stand-in for packet loss
// where the kernel has no netem (docs/multi-host.md, "Packet loss"): every token bucket gets
// a queue of BYTES instead of 100 ms worth, so what overflows it is dropped. The option must
// change every link's qdisc (both ends of each host's link), and a job whose inputs and
// shuffle cross those links must still end byte-exact. Skipped, with the reason, where
// network namespaces cannot be made. The fixture: tests/cluster/netns_fixture.h.
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "tests/cluster/netns_fixture.h"

namespace mr::testing {
namespace {

class NetnsQueueTest : public NetnsClusterTest {
 protected:
  static void SetUpTestSuite() {
    up_flags_ = " --link 160mbit --queue 16kb";
    NetnsClusterTest::SetUpTestSuite();
  }
  static void TearDownTestSuite() {
    NetnsClusterTest::TearDownTestSuite();
    up_flags_.clear();
  }

  // The packets the token buckets of a host's link dropped so far (its eth0 and its port).
  static long Dropped(const std::string& ns, const std::string& port) {
    long n = 0;
    for (const std::string& cmd : {"tc -s -n " + ns + " qdisc show dev eth0",
                                   "tc -s -n " + env_["MRN_RUN"] + "-sw qdisc show dev " + port}) {
      const std::string out = Sh(cmd).out;
      std::smatch m;
      if (std::regex_search(out, m, std::regex("dropped ([0-9]+)"))) n += std::stol(m[1]);
    }
    return n;
  }
};

TEST_F(NetnsQueueTest, EveryLinkHasTheSmallQueue) {
  EXPECT_EQ(env_["MRN_QUEUE"], "16kb");
  std::vector<std::pair<std::string, std::string>> hosts = {{env_["MRN_MASTER_NS"], "p-m"},
                                                            {env_["MRN_CLIENT_NS"], "p-c"}};
  for (size_t i = 0; i < workers_.size(); ++i) hosts.push_back({workers_[i].first, "p-w" + std::to_string(i + 1)});
  for (const auto& [ns, port] : hosts) {
    for (const std::string& out :
         {Sh("tc -n " + ns + " qdisc show dev eth0").out, Sh("tc -n " + env_["MRN_RUN"] + "-sw qdisc show dev " + port).out}) {
      // tbf with --queue: "limit 16Kb"; without it the queue is given as a latency ("lat 100ms").
      EXPECT_NE(out.find("tbf"), std::string::npos) << ns << ": " << out;
      EXPECT_NE(out.find("rate 160Mbit"), std::string::npos) << ns << ": " << out;
      EXPECT_NE(out.find("limit 16Kb"), std::string::npos) << ns << ": " << out;
      EXPECT_EQ(out.find("lat "), std::string::npos) << ns << ": " << out;
    }
  }
}

TEST_F(NetnsQueueTest, WordCountEndsExactThroughTheSmallQueues) {
  const std::string corpus = Data() + "/corpus-a.txt " + Data() + "/corpus-b.txt";
  std::string job;
  const std::string out = RunJob("wordcount --input " + corpus, "wc-queue", &job);
  EXPECT_EQ(SortedOutput(out), Sh("cat " + corpus + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                                  "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
                                   .out);
  ExpectAllRemote(job, Size(Data() + "/corpus-a.txt") + Size(Data() + "/corpus-b.txt"));
  // What the queues dropped (for the log; the rate depends on the traffic and the load).
  long dropped = Dropped(env_["MRN_CLIENT_NS"], "p-c");
  for (size_t i = 0; i < workers_.size(); ++i) dropped += Dropped(workers_[i].first, "p-w" + std::to_string(i + 1));
  RecordProperty("packets_dropped", std::to_string(dropped));
  std::printf("packets dropped by the 16 KB queues: %ld\n", dropped);
}

}  // namespace
}  // namespace mr::testing
