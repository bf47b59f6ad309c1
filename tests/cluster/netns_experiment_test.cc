// `mr experiment run` of a `kind: netns` cluster removes the hosts it made however it ends:
// SIGTERM, SIGINT to its process group (Ctrl-C), or SIGKILL (a crash). Before the guard
// (cli/experiment_netns.h) a signal left the namespaces, the daemons in them and the
// tc queues behind until someone ran `netns-cluster.sh down` by hand. Skipped, with the
// reason, where network namespaces cannot be made (not root).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

std::string Script() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  return std::string(src != nullptr ? src : ".") + "/scripts/netns-cluster.sh";
}

// Namespaces of runs owned by pid (the script names them mrn<PID>x<TAG>-<host>).
int NamespacesOf(int pid) {
  return static_cast<int>(CountLines("ip netns list | awk '{print $1}' | grep -E '^mrn" + std::to_string(pid) + "x'"));
}

class NetnsExperimentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "network namespaces need root";
    const std::string probe = "mrnprobe" + std::to_string(::getpid());
    auto p = Sh("ip netns add " + probe + " && ip netns del " + probe);
    if (p.exit_code != 0) GTEST_SKIP() << "cannot create a network namespace here: " << p.err;
    const char* tmp = std::getenv("TMPDIR");
    dir_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(MakeDirs(dir_).ok());
    ::setenv("MR_NETNS_SCRIPT", Script().c_str(), 1);  // the binary may live outside the sources
    file_ = dir_ + "/netns.yaml";
    ASSERT_TRUE(WriteFileAtomically(file_,
                                    "name: netns-signal\n"
                                    "cluster:\n"
                                    "  kind: netns\n"
                                    "  link: 20MB/s\n"
                                    "  workers:\n"
                                    "    - {count: 2, map_slots: 1, reduce_slots: 1, speed: 1}\n"
                                    "workload:\n"
                                    "  generator: synthetic\n"
                                    "  params: {jobs: 4, load: 0.5, min_seconds: 2, max_seconds: 8}\n"
                                    "  seed: 1\n"
                                    "policies: [klps]\n")
                    .ok());
  }
  void TearDown() override {
    if (dir_.empty()) return;
    (void)Sh(Script() + " down 2>/dev/null");  // a failed case leaves no hosts either
    (void)RemoveAll(dir_);
  }

  // Starts the experiment, waits for its hosts (and, unless during_up, for a master running
  // in one), signals it, and checks that every host, and every daemon that ran in one, is
  // gone soon after.
  void SignalAndCheck(int sig, bool to_group, bool during_up = false) {
    // In a process group of its own, as a shell starts a foreground job.
    const int pid = SpawnMr({"experiment", "run", file_, "--results", dir_ + "/results"}, dir_ + "/run.log", true);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(WaitUntil([&] { return NamespacesOf(pid) >= 4 || !ProcessRunning(pid); }, 60, 0.1) &&
                ProcessRunning(pid))
        << "the experiment made no hosts:\n" << ReadFile(dir_ + "/run.log");
    if (!during_up) {  // the calibration's master runs on its host
      ASSERT_TRUE(WaitUntil(
          [&] {
            for (int p : ProcessesMentioning(dir_ + "/results")) {
              const auto args = ProcessArgs(p);
              if (args.size() > 1 && args[1] == "master") return true;
            }
            return false;
          },
          60, 0.05))
          << ReadFile(dir_ + "/run.log");
    }
    ASSERT_EQ(::kill(to_group ? -pid : pid, sig), 0);
    int status = 0;
    const bool ended = WaitUntil([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 30, 0.02);
    if (!ended) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
    }
    EXPECT_TRUE(ended) << "mr experiment run did not end after signal " << sig;
    EXPECT_TRUE(WaitUntil([&] { return NamespacesOf(pid) == 0; }, 30, 0.1))
        << NamespacesOf(pid) << " namespaces of the run are left after signal " << sig << ":\n"
        << Sh("ip netns list").out;
    EXPECT_TRUE(WaitUntil([&] { return ProcessesMentioning(dir_ + "/results").empty(); }, 30, 0.1))
        << "daemons of the run are still running";
  }

  std::string dir_, file_;
};

TEST_F(NetnsExperimentTest, SigtermRemovesTheHosts) { SignalAndCheck(SIGTERM, false); }
TEST_F(NetnsExperimentTest, CtrlCToTheGroupRemovesTheHosts) { SignalAndCheck(SIGINT, true); }
TEST_F(NetnsExperimentTest, SigkillRemovesTheHosts) { SignalAndCheck(SIGKILL, false); }
// Killed while netns-cluster.sh up is still making the hosts: the script finishes them with
// nobody left to remove them, unless it sees its owner gone.
TEST_F(NetnsExperimentTest, SigtermDuringUpRemovesTheHosts) { SignalAndCheck(SIGTERM, false, true); }

}  // namespace
}  // namespace mr::testing
