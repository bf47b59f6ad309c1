// The policy table and job table seen from the command line (issue 12): --policy-options
// files are checked against the chosen policy before anything starts, flags win over the
// file, `cluster start` hands the master the file's absolute path, tasksim reads the same
// flags, and FLEX's per-job flags (--metric, --deadline, --sla, --min-slots, --max-slots;
// read by the flex policy since issue 25) are checked across each other at the client.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

class PolicyOptionsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteCorpus(tmp_.path() + "/in.txt", 2000, 3);
    in_ = tmp_.path() + "/in.txt";
    out_ = tmp_.path() + "/out";
  }
  // `mr args` must fail with exit 2, one stderr line containing must_mention, no output.
  void ExpectUsageError(const std::string& args, const std::string& must_mention) {
    auto r = Sh(MrBin() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << args << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(PathExists(out_)) << args;
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = tmp_.path() + "/" + name;
    EXPECT_TRUE(WriteStringToFile(path, text).ok());
    return path;
  }
  TempDir tmp_{"mr-policy-opts"};
  std::string in_, out_;
};

TEST_F(PolicyOptionsCliTest, AnUnknownOptionInTheFileIsAUsageErrorNamingFileLineAndOptions) {
  std::string opts = Write("k.opts", "# for klps\nklps-k = 3\npools = /x\n");
  ExpectUsageError("run wordcount --policy klps --policy-options " + opts + " --input " + in_ + " --output " + out_,
                   opts + ":3: policy klps has no option 'pools' (its options: klps-k)");
  ExpectUsageError("master --listen 127.0.0.1:0 --state " + tmp_.path() + "/state --policy klps --policy-options " +
                       opts,
                   opts + ":3: policy klps has no option 'pools'");
  EXPECT_FALSE(PathExists(tmp_.path() + "/state"));
}

TEST_F(PolicyOptionsCliTest, ABadValueNamesTheOptionAndItsRange) {
  std::string opts = Write("k.opts", "klps-k = 0\n");
  ExpectUsageError("run wordcount --policy klps --policy-options " + opts + " --input " + in_ + " --output " + out_,
                   "klps-k must be int in 1..2147483647, got '0'");
  ExpectUsageError("run wordcount --policy klps --klps-k 0 --input " + in_ + " --output " + out_,
                   "--klps-k must be int in 1..2147483647");
  // A flag of another policy is still checked, as before the table.
  ExpectUsageError("run wordcount --policy fifo --klps-k 0 --input " + in_ + " --output " + out_, "--klps-k");
}

TEST_F(PolicyOptionsCliTest, ClusterStartPassesTheFilesAbsolutePathToTheMaster) {
  Write("k.opts", "klps-k = 2\n");
  std::string dir = tmp_.path() + "/c";
  auto start = Sh("cd " + ShellQuote(tmp_.path()) + " && " + MrBin() + " cluster start --workers 1 --dir " +
                  ShellQuote(dir) + " --policy klps --policy-options k.opts");
  ASSERT_EQ(start.exit_code, 0) << start.err;
  struct StopOnExit {
    std::string dir;
    ~StopOnExit() { Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir)); }
  } guard{dir};
  int master = ReadPidFile(dir + "/master.pid");
  ASSERT_TRUE(ProcessRunning(master));
  auto margs = ProcessArgs(master);
  EXPECT_TRUE(HasArgs(margs, "--policy-options", tmp_.path() + "/k.opts")) << Joined(margs);
}

TEST_F(PolicyOptionsCliTest, EmbeddedRunWithPolicyOptionsAndJobParametersSucceeds) {
  std::string opts = Write("k.opts", "klps-k = 2  # two jobs at a time\n");
  auto r = Sh(MrBin() + " run wordcount --quiet --workers 1 --policy klps --policy-options " + opts +
              " --pool batch --weight 2 --input " + in_ + " --output " + out_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(PathExists(out_ + "/part-r-00000"));
}

// A flag that parses but changes nothing is a stub: these four waited for a policy that reads
// them (FLEX, issue 25) and are refused, by name, until it comes.
// Issue 24 removed these flags while no policy read them; flex reads them (issue 25,
// tests/scheduler/flex_policy_test.cc shows each changing a decision). A malformed or
// contradictory combination is still a usage error before anything runs.
TEST_F(PolicyOptionsCliTest, FlexJobParameterFlagsAreCheckedBeforeAnythingRuns) {
  for (const auto& [flags, message] : std::vector<std::pair<std::string, std::string>>{
           {"--metric response", "--metric: unknown metric 'response'"},
           {"--metric tardiness", "--metric tardiness needs --deadline"},
           {"--deadline soon", "--deadline must be a duration"},
           {"--min-slots 5 --max-slots 4", "--min-slots 5 is above --max-slots 4"},
           {"--metric sla --sla 60:1,30:2", "--sla: SLA pseudo-deadlines must increase"}}) {
    ExpectUsageError("run wordcount " + flags + " --input " + in_ + " --output " + out_, message);
  }
  auto r = Sh(MrBin() + " run wordcount --policy flex --metric tardiness --deadline +1h --min-slots 1 --max-slots 4" +
              " --input " + in_ + " --output " + out_ + " --quiet");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(PathExists(out_ + "/_SUCCESS") || PathExists(out_)) << "the job ran under flex";
}

// tasksim reads the same table: --policy-options, --klps-k and the older --k set the same
// option, a flag wins over the file, and the value changes what klps does.
TEST_F(PolicyOptionsCliTest, TasksimReadsThePolicyOptionsFileAndFlagsWin) {
  std::string csv = "arrival,x,y\n";
  for (int i = 0; i < 6; ++i) csv += "0," + std::to_string(1 + i) + ",1\n";
  std::string workload = Write("w.csv", csv);
  std::string base = MrBin() + " model tasksim --workload " + workload +
                     " --policy klps --workers 2 --map-slots 2 --reduce-slots 1 --shuffle-bandwidth 10MB/s";
  auto run = [&](const std::string& extra) {
    auto r = Sh(base + " " + extra);
    EXPECT_EQ(r.exit_code, 0) << extra << ": " << r.err;
    return r.out;
  };
  std::string one = run("--klps-k 1");
  std::string many = run("--klps-k 100");
  ASSERT_NE(one, many) << "k should change klps's schedule on this workload";
  EXPECT_EQ(run("--k 1"), one);
  std::string opts = Write("k1.opts", "klps-k = 1\n");
  EXPECT_EQ(run("--policy-options " + opts), one);
  EXPECT_EQ(run("--policy-options " + opts + " --klps-k 100"), many);
  auto bad = Sh(base + " --policy-options " + Write("bad.opts", "k = 1\n"));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("bad.opts:1: policy klps has no option 'k' (its options: klps-k)"), std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace mr::testing
