// Issue 29: a cluster across hosts with the inputs on one host only. scripts/netns-cluster.sh
// makes five hosts (master, client, three workers: network namespaces joined by a bridge,
// each with its own address and work directory); the client's host runs `mr data-server`
// over the input directory, and every other host runs its daemon with that directory
// hidden (a tmpfs mounted over it in the process's own mount namespace), so the only way to
// the input bytes is the network. Word count, sort, grep and a streaming job must match
// coreutils byte for byte, every map must have read its split remotely, and a peer without
// the cluster token gets nothing from the data server or a worker's shuffle port. Skipped,
// with the reason, where network namespaces cannot be made (not root, no CAP_SYS_ADMIN).
// The fixture: tests/cluster/netns_fixture.h.
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/cluster/netns_fixture.h"

namespace mr::testing {
namespace {

TEST_F(NetnsClusterTest, InputsAreOnlyOnTheClientsHost) {
  const std::string input = Data() + "/records.txt";
  ASSERT_TRUE(PathExists(input));
  for (const auto& [ns, ip] : workers_) {
    EXPECT_EQ(Sh(InNs(ns, true, "test ! -e " + input)).exit_code, 0) << ns << " can see " << input;
  }
  EXPECT_EQ(Sh(InNs(env_["MRN_MASTER_NS"], true, "test ! -e " + input)).exit_code, 0);
}

TEST_F(NetnsClusterTest, WordCountMatchesCoreutils) {
  const std::string corpus = Data() + "/corpus-a.txt " + Data() + "/corpus-b.txt";
  std::string job;
  const std::string out = RunJob("wordcount --input " + corpus, "wc", &job);
  EXPECT_EQ(SortedOutput(out), Sh("cat " + corpus + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                                  "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
                                   .out);
  ExpectAllRemote(job, Size(Data() + "/corpus-a.txt") + Size(Data() + "/corpus-b.txt"));
}

TEST_F(NetnsClusterTest, SortSamplesRemoteInputsAndMatchesCoreutils) {
  const std::string in = Data() + "/records.txt";
  std::string job;
  const std::string out = RunJob("sort --input " + in, "sorted", &job);
  const std::string ours = Sh("cat " + out + "/part-r-*").out;
  EXPECT_TRUE(ours == Sh("LC_ALL=C sort " + in).out) << "sort differs from LC_ALL=C sort";
  // The master sampled the remote input for its cut points: every part holds records.
  EXPECT_EQ(Sh("find " + out + " -name 'part-r-*' -size +0 | wc -l").out, "3\n");
  ExpectAllRemote(job, Size(in));
}

TEST_F(NetnsClusterTest, GrepMatchesGrepE) {
  const std::string pattern = "shuffle|tandem [a-z]+|Ha[a-z]*p";
  const std::string corpus = Data() + "/corpus-a.txt";
  std::string job;
  const std::string out = RunJob("grep --pattern " + ShellQuote(pattern) + " --input " + corpus, "grep", &job);
  auto ref = Sh("grep -h -E " + ShellQuote(pattern) + " " + corpus + " | LC_ALL=C sort");
  EXPECT_GT(ref.out.size(), 1000u);
  EXPECT_EQ(Sh("cat " + out + "/part-r-* | cut -f2- | LC_ALL=C sort").out, ref.out);
  ExpectAllRemote(job, Size(corpus));
}

TEST_F(NetnsClusterTest, StreamingMatchesCoreutils) {
  const std::string corpus = Data() + "/corpus-b.txt";
  std::string job;
  const std::string out =
      RunJob("streaming --quiet --input " + corpus + " --mapper \"tr 'a-z\\t' 'A-Z '\" --reducer cat", "streaming", &job);
  // Tabs become spaces: each line is a key with no value, so it comes out as it went in.
  EXPECT_EQ(SortedOutput(out), Sh("tr 'a-z\\t' 'A-Z ' < " + corpus + " | LC_ALL=C sort").out);
  ExpectAllRemote(job, Size(corpus));
}

// Item 5's network faults. Each runs a job whose maps take about four seconds, breaks the
// network 1.5 s in for 13 s (longer than the master's 10 s worker timeout), then mends it.
// The job must end with the exact output; the trace shows the fault handled (`seen`: the
// worker lost, its work run again elsewhere; or a map re-executed on fetch failures), and
// all three workers are registered afterwards.
class NetnsFaultTest : public NetnsClusterTest {
 protected:
  void RunThrough(const std::string& name, const std::string& cut, const std::string& mend,
                  const std::string& seen = "\"worker_lost\"") {
    const std::string corpus = Data() + "/corpus-a.txt";
    const std::string mapper = "sleep 4; tr 'a-z\\t' 'A-Z '";
    auto job = std::async(std::launch::async, [&] {
      std::string id;
      return RunJob("streaming --quiet --input " + corpus + " --mapper " + ShellQuote(mapper) + " --reducer cat",
                    name, &id);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    auto c = Sh(cut);
    std::this_thread::sleep_for(std::chrono::seconds(13));
    auto m = Sh(mend);
    const std::string out = job.get();
    ASSERT_EQ(c.exit_code, 0) << cut << ": " << c.err;
    ASSERT_EQ(m.exit_code, 0) << mend << ": " << m.err;
    EXPECT_EQ(SortedOutput(out), Sh("tr 'a-z\\t' 'A-Z ' < " + corpus + " | LC_ALL=C sort").out);
    const std::string trace = ReadFile(out + "/_trace.jsonl");
    EXPECT_NE(trace.find(seen), std::string::npos) << "the fault was not seen: no " << seen << " in the trace";
    EXPECT_TRUE(WaitUntil(
        [&] {
          auto st = Sh(InNs(Client(), false, Mr(std::string("status --master ") + kMaster + " --token-file " + token_)));
          return st.out.find("3 workers") != std::string::npos;
        },
        40, 0.5))
        << ReadFile(dir_ + "/w1/worker.log");
  }
};

// Worker 1's link goes down (`ip link set down` on its switch port), then up.
TEST_F(NetnsFaultTest, LinkCutMidJobEndsExact) {
  const std::string port = "ip -n " + env_["MRN_RUN"] + "-sw link set p-w1 ";
  RunThrough("linkcut", port + "down", port + "up");
}

// Worker 1 cannot reach the master nor the master it (blackhole routes both ways), but it
// still reaches the other workers, and they it.
TEST_F(NetnsFaultTest, WorkerPartitionedFromTheMasterOnlyEndsExact) {
  const std::string w1 = workers_[0].first, w1_ip = workers_[0].second, m = env_["MRN_MASTER_NS"];
  const std::string cut = "ip -n " + w1 + " route add blackhole 10.29.0.1/32 && ip -n " + m +
                          " route add blackhole " + w1_ip + "/32";
  const std::string mend = "ip -n " + w1 + " route del blackhole 10.29.0.1/32 && ip -n " + m +
                           " route del blackhole " + w1_ip + "/32";
  RunThrough("partition", cut, mend);
}

// Locality as an input to placement: a fourth worker runs on the data server's host (10.29.0.2,
// where the inputs are), with four map slots. A policy that sees the whole cluster each round
// (flex) places every map of a four-map job there (node-local first), and each reads its split
// from the disk, not through the data server: none of the input is read remotely.
class NetnsLocalityTest : public NetnsClusterTest {
 protected:
  static void SetUpTestSuite() {
    local_worker_ = true;
    master_flags_ = " --policy flex";
    NetnsClusterTest::SetUpTestSuite();
  }
  static void TearDownTestSuite() {
    NetnsClusterTest::TearDownTestSuite();
    local_worker_ = false;
    master_flags_.clear();
  }
};

TEST_F(NetnsLocalityTest, MapsRunOnTheDataHostAndReadLocally) {
  const std::string corpus = Data() + "/corpus-a.txt";  // 3 MiB: four splits of 1 MiB or less
  std::string job;
  const std::string out = dir_ + "/out/local";
  auto r = Sh(InNs(Client(), false,
                   Mr("run wordcount --input " + corpus + " --input-server " + kDataServer + " --master " + kMaster +
                      " --token-file " + token_ + " --output " + out + " --reducers 2 --split-size 1MiB")));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << ReadLogs();
  job = r.out.substr(0, r.out.find(' '));
  EXPECT_EQ(SortedOutput(out), Sh("cat " + corpus + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                                  "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
                                   .out);
  auto st = Sh(InNs(Client(), false, Mr("status " + job + " --master " + kMaster + " --token-file " + token_)));
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_NE(st.out.find("map.input_local_bytes"), std::string::npos) << st.out;
  EXPECT_EQ(st.out.find("map.input_remote_bytes"), std::string::npos) << st.out;
  const size_t share = st.out.find("input read remotely:");
  ASSERT_NE(share, std::string::npos) << st.out;
  const std::string line = st.out.substr(share, st.out.find('\n', share) - share);
  EXPECT_NE(line.find(" 0% ("), std::string::npos) << line;
  // The trace: each map attempt's end carries its local read.
  const std::string trace = ReadFile(out + "/_trace.jsonl");
  EXPECT_NE(trace.find("\"map.input_local_bytes\""), std::string::npos);
  EXPECT_EQ(trace.find("\"map.input_remote_bytes\""), std::string::npos);
}

// The reverse partition: worker 1 reaches the master (and the client's data server) but not
// its peers, nor they it (blackhole routes both ways between worker 1 and workers 2 and 3).
// Its heartbeats go on, so it is never lost; fetches of its map outputs by the others fail,
// and so do its own reducers' fetches from them. As in Hadoop, the master re-executes a map
// whose output reducers report unreachable (docs/reliability.md, "Blame and bounds"), so the
// job ends exact; a `reexecute` record names the fetch failure.
TEST_F(NetnsFaultTest, WorkerCutFromItsPeersOnlyEndsExact) {
  const std::string w1 = workers_[0].first, w1_ip = workers_[0].second;
  std::string cut, mend;
  for (size_t i = 1; i < workers_.size(); ++i) {
    const auto& [ns, ip] = workers_[i];
    const std::string both = "ip -n " + w1 + " route %s blackhole " + ip + "/32 && ip -n " + ns + " route %s blackhole " +
                             w1_ip + "/32";
    auto with = [&](const char* verb) {
      std::string s = both;
      for (size_t at; (at = s.find("%s")) != std::string::npos;) s.replace(at, 2, verb);
      return s;
    };
    cut += (cut.empty() ? "" : " && ") + with("add");
    mend += (mend.empty() ? "" : " && ") + with("del");
  }
  RunThrough("peers-cut", cut, mend, "\"reason\":\"fetch failed");
}

TEST_F(NetnsClusterTest, NoTokenGetsNothingFromTheDataServerOrAShufflePort) {
  const auto& [w1, w1_ip] = workers_[0];
  const std::string input = Data() + "/records.txt";
  const std::string wrong = dir_ + "/wrong-token";
  ASSERT_EQ(Sh(MrBin() + " token new " + wrong).exit_code, 0);
  // The worker's shuffle port: its one listener on its own address.
  auto ss = Sh("ip netns exec " + w1 + " ss -Hltn | awk '{print $4}' | grep '^" + w1_ip + ":'");
  ASSERT_EQ(ss.exit_code, 0) << ss.err;
  const std::string shuffle = FirstLine(ss.out);
  for (const std::string& server : {std::string(kDataServer), shuffle}) {
    for (const std::string& token : {std::string(), " --token-file " + wrong}) {
      auto r = Sh(InNs(w1, false, Mr("submit wordcount --input " + input + " --input-server " + server +
                                     " --output " + dir_ + "/out/refused --master " + kMaster + token)));
      EXPECT_NE(r.exit_code, 0) << server << token;
      EXPECT_NE(r.err.find("authentication failed"), std::string::npos) << server << token << ": " << r.err;
      EXPECT_EQ(r.err.find("alpha"), std::string::npos);
    }
  }
  // With the token the shuffle port answers, and serves no inputs: the token was the barrier.
  auto with = Sh(InNs(w1, false, Mr("submit wordcount --input " + input + " --input-server " + shuffle +
                                    " --output " + dir_ + "/out/refused --master " + kMaster + " --token-file " +
                                    token_)));
  EXPECT_NE(with.err.find("exports no inputs"), std::string::npos) << with.err;
  EXPECT_FALSE(PathExists(dir_ + "/out/refused"));
}

}  // namespace
}  // namespace mr::testing
