// LocalCluster's fork without exec (`mr run`'s embedded cluster): the daemons are separate
// processes that run the command table's `master` / `worker` in a copy of the caller, never
// loading the binary again; the guard that allows it only in a single-threaded caller.
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "cli/local_cluster.h"
#include "common/file_util.h"
#include "tests/common/wait.h"

namespace mr::cli {
namespace {

using mr::testing::WaitUntil;

std::string Slurp(const std::string& path) {
  auto text = ReadFileToString(path);
  return text.ok() ? *text : std::string();
}

std::string ExeOf(pid_t pid) {
  char buf[4096];
  const std::string link = "/proc/" + std::to_string(pid) + "/exe";
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

TEST(LocalClusterTest, ForkedDaemonsRunTheCommandTableWithoutExec) {
  ASSERT_TRUE(SingleThreaded()) << "the test needs a single-threaded caller";
  TempDir tmp("mr-local-cluster");
  LocalClusterOptions o;
  o.dir = tmp.path() + "/c";
  o.workers = 1;
  o.master_args = {"--state-in-memory"};
  o.fork_without_exec = true;
  LocalCluster cluster(o);
  ASSERT_TRUE(cluster.Start().ok());
  EXPECT_FALSE(cluster.master_address().empty());
  ASSERT_EQ(cluster.pids().size(), 2u);
  const std::string own_cmdline = Slurp("/proc/self/cmdline");
  for (pid_t pid : cluster.pids()) {
    // This test binary is no `mr`: an exec'd daemon would have run it with `master ...` or
    // `worker ...`; a forked one keeps the caller's image and command line.
    EXPECT_EQ(ExeOf(pid), SelfExe());
    EXPECT_EQ(Slurp("/proc/" + std::to_string(pid) + "/cmdline"), own_cmdline);
    EXPECT_EQ(::getpgid(pid), pid) << "a daemon outside a process group of its own";
  }
  // The worker found the master through its address file and registered: the daemons work.
  EXPECT_TRUE(WaitUntil([&] { return Slurp(o.dir + "/worker-1.log").find("registered with master") != std::string::npos; }, 20))
      << Slurp(o.dir + "/worker-1.log");
  const std::vector<pid_t> pids = cluster.pids();
  cluster.Stop();
  for (pid_t pid : pids) EXPECT_NE(::kill(pid, 0), 0) << "pid " << pid << " still running after Stop";
}

TEST(LocalClusterTest, SingleThreadedSeesASecondThread) {
  EXPECT_TRUE(SingleThreaded());
  std::mutex mu;
  std::condition_variable cv;
  bool started = false, done = false;
  std::thread t([&] {
    std::unique_lock lock(mu);
    started = true;
    cv.notify_all();
    cv.wait(lock, [&] { return done; });
  });
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return started; });
  }
  EXPECT_FALSE(SingleThreaded()) << "a fork now could inherit a lock the other thread holds";
  {
    std::lock_guard lock(mu);
    done = true;
  }
  cv.notify_all();
  t.join();
  EXPECT_TRUE(SingleThreaded());
}

}  // namespace
}  // namespace mr::cli
