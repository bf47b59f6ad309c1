// Issue 11, blame and bounds, on real processes: a reducer whose own work directory (a
// small tmpfs) fills during the shuffle fails its attempt and moves; the maps it was
// fetching are not blamed. With room elsewhere the job ends with exact output; with no
// worker able to host the reducer it fails within --max-attempts, naming the disk. Either
// way the map attempts stay bounded (before the fix: thousands of re-executions, no end).
// The small disk is a tmpfs where one can be mounted, else the fetcher's injected ENOSPC.
#include <sys/mount.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// A tmpfs mounted for the test's lifetime (unmounted before its directory is removed).
// Where none can be mounted (not root, no CAP_SYS_ADMIN), or when MR_TEST_INJECT_FULL_DISK
// is set (to run this path on a machine that could mount), the directory is made full by
// the fetcher's test seam instead: MR_TEST_FULL_DISK="BYTES:DIR" in the environment of
// the worker that owns it (shuffle/net/fetcher.cc), so the tests never silently skip.
class SmallDisk {
 public:
  SmallDisk(const std::string& dir, uint64_t bytes) : dir_(dir) {
    if (!MakeDirs(dir).ok()) {
      error_ = "cannot create " + dir;
    } else if (std::getenv("MR_TEST_INJECT_FULL_DISK") != nullptr) {
      error_ = "MR_TEST_INJECT_FULL_DISK is set";
    } else if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, ("size=" + std::to_string(bytes)).c_str()) != 0) {
      error_ = std::string("mount -t tmpfs: ") + std::strerror(errno);
    } else {
      mounted_ = true;
    }
    injected_ = std::to_string(bytes) + ":" + dir;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  // Starts the worker that owns the directory: with the seam in its environment unless the
  // tmpfs is mounted.
  void StartWorker(DirectCluster& c, const std::vector<std::string>& flags) const {
    if (!mounted_) {
      std::printf("full disk by MR_TEST_FULL_DISK=%s (no tmpfs: %s)\n", injected_.c_str(), error_.c_str());
      ::setenv("MR_TEST_FULL_DISK", injected_.c_str(), 1);
    }
    c.StartWorker(flags);
    ::unsetenv("MR_TEST_FULL_DISK");
  }

 private:
  std::string dir_;
  std::string error_;
  std::string injected_;
  bool mounted_ = false;
};

class FullDiskTest : public ::testing::Test {
 protected:
  std::string d() const { return tmp_.path(); }

  // Worker 0 (work dir w0 on a 512 KiB tmpfs) may only host reducers; `others` more
  // workers run the maps, and host reducers too if `others_reduce`.
  void Start(int others, bool others_reduce) {
    disk_ = std::make_unique<SmallDisk>(d() + "/w0", 512u << 10);
    ASSERT_TRUE(c_.StartMaster({"--worker-timeout", "3", "--heartbeat-ms", "50", "--max-attempts", "3"}))
        << c_.MasterLogs();
    disk_->StartWorker(c_, {"--map-slots", "0", "--reduce-slots", "1"});
    for (int i = 0; i < others; ++i) {
      c_.StartWorker({"--map-slots", "2", "--reduce-slots", others_reduce ? "1" : "0"});
    }
    WriteRecords(d() + "/records.txt", 30000, 11);  // 3 MB: 1 MB per reducer
    // Every worker registered before the job: else the reducers may all go elsewhere.
    bool all = WaitUntil([&] {
      auto st = c_.Mr("status --json");
      return st.exit_code == 0 && nlohmann::json::parse(st.out).value("workers", 0) == others + 1;
    }, 10, 0.05);
    ASSERT_TRUE(all) << "workers did not register within 10 s" << c_.MasterLogs();
  }

  // Bounded: before the fix the job never ended (`timeout` then exits 124).
  CommandResult RunSort() {
    return Sh("timeout 60 " + ShellQuote(MrBin()) + " run sort --input " + d() + "/records.txt --output " + d() +
              "/out --reducers 3 --split-size 256KiB --quiet --master " + c_.addr());
  }

  // Attempts per map task in the master's trace of job 1, speculative backups aside (a
  // second attempt of a running map is not a re-run).
  std::map<std::string, int> MapAttempts() {
    std::map<std::string, int> n;
    for (const auto& e : ReadTrace(d() + "/state/traces/job-000001.jsonl")) {
      if (e.at("event") == "attempt_start" && e.at("task").get<std::string>()[0] == 'm' && !e.value("backup", false)) {
        n[e.at("task")]++;
      }
    }
    return n;
  }

  TempDir tmp_{"mr-full-disk-test"};
  std::unique_ptr<SmallDisk> disk_;  // destroyed after the cluster's processes
  DirectCluster c_{tmp_.path()};
};

TEST_F(FullDiskTest, ReducerOnAFullDiskMovesAndTheJobSucceeds) {
  Start(/*others=*/2, /*others_reduce=*/true);
  if (HasFatalFailure()) return;
  auto r = RunSort();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << c_.MasterLogs();
  auto ours = Sh("cat " + d() + "/out/part-r-*");
  auto ref = Sh("LC_ALL=C sort " + d() + "/records.txt");
  EXPECT_TRUE(ours.out == ref.out) << "sort output differs from LC_ALL=C sort";
  auto status = c_.Mr("status --json job-000001");
  nlohmann::json counters = nlohmann::json::parse(status.out).at("counters");
  EXPECT_GE(counters.value("job.failed_reduces", 0), 1) << "the reducer on the full disk never failed";
  EXPECT_EQ(counters.value("job.killed_maps", 0), 0) << "maps were blamed for the reducer's full disk";
  for (const auto& [task, n] : MapAttempts()) EXPECT_EQ(n, 1) << task << " ran " << n << " times";
  // The full disk's reducer removed what it had fetched.
  EXPECT_EQ(CountLines("find " + d() + "/w0 -name '*.run*'"), 0);
}

TEST_F(FullDiskTest, NoRoomForTheReducerFailsTheJobNamingTheDisk) {
  Start(/*others=*/1, /*others_reduce=*/false);
  if (HasFatalFailure()) return;
  auto r = RunSort();
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  auto status = c_.Mr("status --json job-000001");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  nlohmann::json st = nlohmann::json::parse(status.out);
  EXPECT_EQ(st.at("state"), "FAILED");
  const std::string error = st.value("error", "");
  EXPECT_NE(error.find(d() + "/w0"), std::string::npos) << error;
  EXPECT_NE(error.find("No space left on device"), std::string::npos) << error;
  EXPECT_EQ(st.at("counters").value("job.killed_maps", 0), 0);
  for (const auto& [task, n] : MapAttempts()) EXPECT_EQ(n, 1) << task << " ran " << n << " times";
}

}  // namespace
}  // namespace mr::testing
