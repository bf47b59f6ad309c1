// Issue 29, item 1's outputs: reduce output committed on the submitting host with no shared
// file system (docs/multi-host.md, "Outputs"). The namespace cluster of netns_fixture.h, with
// the output directory under the client's directory, which every other daemon runs with
// covered by an empty tmpfs (as the inputs are): the client's data server exports it for
// output (`--export-output`), jobs name it with --output-server, the reduces push their
// parts there and the master commits them there. Word count and sort must match coreutils
// byte for byte; a reduce whose push is cut mid-way (the workers' MR_TEST_CUT_OUTPUT_PUSH
// seam, shuffle/net/output_client.cc) runs again and the output is still exact, with nothing
// partial left. Skipped, with the reason, where network namespaces cannot be made.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/cluster/netns_fixture.h"

namespace mr::testing {
namespace {

class NetnsOutputTest : public NetnsClusterTest {
 protected:
  static void SetUpTestSuite() {
    // dir_ is set in the base's set-up; the flags are read when the daemons start.
    data_server_flags_ = " --export-output " + OutRoot();
    // Reduce 1's first attempt of every job has its push cut; its later attempts go through.
    worker_env_ = "MR_TEST_CUT_OUTPUT_PUSH=attempt-r-00001-1/ ";
    NetnsClusterTest::SetUpTestSuite();
  }
  static void TearDownTestSuite() {
    NetnsClusterTest::TearDownTestSuite();
    data_server_flags_.clear();
    worker_env_.clear();
  }

  static std::string OutRoot() {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp != nullptr ? tmp : "/tmp") + "/hosts/c/out";
  }

  // Runs a job from the client's host with its inputs and its output on that host only.
  static std::string RunRemoteOutputJob(const std::string& args, const std::string& name) {
    const std::string out = OutRoot() + "/" + name;
    auto r = Sh(InNs(Client(), false,
                     Mr("run " + args + " --input-server " + kDataServer + " --output-server " + kDataServer +
                        " --master " + kMaster + " --token-file " + token_ + " --output " + out +
                        " --reducers 3 --split-size 512KiB")));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err << ReadLogs();
    EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
    EXPECT_FALSE(PathExists(out + "/_temporary")) << "the job's _temporary was left behind";
    return out;
  }

  // Only the committed parts and the markers: nothing partial, nothing temporary.
  static void ExpectOnlyWholeParts(const std::string& out) {
    EXPECT_EQ(Sh("ls " + out).out, "_SUCCESS\n_trace.jsonl\npart-r-00000\npart-r-00001\npart-r-00002\n");
    EXPECT_EQ(Sh("find " + out + " -name '*.partial' | wc -l").out, "0\n");
  }

  // The push of reduce 1's first attempt was cut, and it ran again.
  static void ExpectReduceOneReran(const std::string& out) {
    const std::string trace = ReadFile(out + "/_trace.jsonl");
    EXPECT_NE(trace.find("was cut (MR_TEST_CUT_OUTPUT_PUSH)"), std::string::npos)
        << "no attempt failed on a cut push";
    bool reran = false;  // an attempt_end of reduce 1's second attempt, succeeded
    std::istringstream lines(trace);
    for (std::string line; std::getline(lines, line);) {
      reran = reran || (line.find("\"event\":\"attempt_end\"") != std::string::npos &&
                        line.find("\"task\":\"r-00001\"") != std::string::npos &&
                        line.find("\"attempt\":2,") != std::string::npos &&
                        line.find("\"status\":\"ok\"") != std::string::npos);
    }
    EXPECT_TRUE(reran) << "reduce 1 did not run again:\n" << Sh("grep 'attempt_end.*r-00001' " + out + "/_trace.jsonl").out;
  }
};

TEST_F(NetnsOutputTest, TheOutputDirectoryIsOnlyOnTheClientsHost) {
  for (const auto& [ns, ip] : workers_) {
    EXPECT_EQ(Sh(InNs(ns, true, "test ! -e " + OutRoot())).exit_code, 0) << ns << " can see " << OutRoot();
  }
  EXPECT_EQ(Sh(InNs(env_["MRN_MASTER_NS"], true, "test ! -e " + OutRoot())).exit_code, 0);
}

TEST_F(NetnsOutputTest, WordCountCommittedOnTheClientsHostMatchesCoreutils) {
  const std::string corpus = Data() + "/corpus-a.txt " + Data() + "/corpus-b.txt";
  const std::string out = RunRemoteOutputJob("wordcount --input " + corpus, "wc");
  EXPECT_EQ(SortedOutput(out), Sh("cat " + corpus + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                                  "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
                                   .out);
  ExpectOnlyWholeParts(out);
  ExpectReduceOneReran(out);
}

TEST_F(NetnsOutputTest, SortCommittedOnTheClientsHostMatchesCoreutils) {
  const std::string in = Data() + "/records.txt";
  const std::string out = RunRemoteOutputJob("sort --input " + in, "sorted");
  EXPECT_TRUE(Sh("cat " + out + "/part-r-*").out == Sh("LC_ALL=C sort " + in).out) << "sort differs from LC_ALL=C sort";
  ExpectOnlyWholeParts(out);
  ExpectReduceOneReran(out);
}

TEST_F(NetnsOutputTest, AnExistingOutputIsRefusedAndAFailedJobLeavesNothing) {
  const std::string taken = OutRoot() + "/taken";
  ASSERT_TRUE(MakeDirs(taken + "/keep").ok());
  auto r = Sh(InNs(Client(), false,
                   Mr("submit wordcount --input " + Data() + "/corpus-b.txt --input-server " + kDataServer +
                      " --output-server " + kDataServer + " --master " + kMaster + " --token-file " + token_ +
                      " --output " + taken)));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
  EXPECT_TRUE(IsDirectory(taken + "/keep"));
  // A job whose reduces all fail (a reducer that exits 1): the master removes its output
  // directory on the client's host through the data server.
  const std::string failed = OutRoot() + "/failed";
  auto f = Sh(InNs(Client(), false,
                   Mr("run streaming --quiet --input " + Data() + "/corpus-b.txt --mapper cat --reducer false "
                      "--input-server " + std::string(kDataServer) + " --output-server " + kDataServer +
                      " --master " + kMaster + " --token-file " + token_ + " --output " + failed + " --reducers 1")));
  EXPECT_NE(f.exit_code, 0) << f.out;
  EXPECT_FALSE(PathExists(failed)) << Sh("find " + failed).out;
}

}  // namespace
}  // namespace mr::testing
