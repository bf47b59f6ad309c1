// Issue 11: a superseded map output is deleted at once, not when its job ends. A worker the
// master gave up on (its maps re-executed elsewhere) registers again while the job still
// runs and offers the outputs it kept; the master does not adopt them and tells it to
// delete them (RegisterReply.delete_outputs). Before the fix they stayed until the job
// ended: the disk filled with every superseded attempt of a long job.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

std::vector<std::string> IndexFiles(const std::string& dir) {
  std::vector<std::string> out;
  auto files = ListDir(dir);
  if (!files.ok()) return out;
  for (const auto& f : *files) {
    if (f.size() > 6 && f.substr(f.size() - 6) == ".index") out.push_back(JoinPath(dir, f));
  }
  return out;
}

// A master that declares a worker lost after 1 s, worker 0 with map slots only, and job 1
// (4 maps of 256 KB, one reducer that waits for a reduce slot) with all its maps done on
// worker 0. Fatal failures end the calling test (call through ASSERT_NO_FATAL_FAILURE).
void StartJobWithMapsOnWorker0(DirectCluster& c, const std::string& d) {
  ASSERT_TRUE(c.StartMaster({"--worker-timeout", "1", "--heartbeat-ms", "50"})) << c.MasterLogs();
  c.StartWorker({"--master-timeout", "60", "--reduce-slots", "0"});  // maps only: the reducer waits
  auto submit = c.Mr("submit synthetic --maps 4 --map-bytes 256KB --reducers 1 --reduce-seconds 6 --slow-start 1"
                     " --output " + d + "/out");
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() == 4;
  }, 30)) << c.MasterLogs();
}

TEST(SupersededOutputTest, WorkerBackWhileItsJobRunsDeletesSupersededOutputs) {
  TempDir tmp("mr-superseded");
  const std::string d = tmp.path();
  DirectCluster c(d);
  ASSERT_NO_FATAL_FAILURE(StartJobWithMapsOnWorker0(c, d));
  const std::vector<std::string> held = IndexFiles(d + "/w0/j1");
  ASSERT_EQ(held.size(), 4u);
  c.SignalWorker(0, SIGSTOP);  // lost after 1 s: its maps run again on worker 1, which hosts the reducer
  c.StartWorker({"--master-timeout", "60"});
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("counters").value("job.killed_maps", 0) >= 4 && j.at("maps_done").get<int>() == 4;
  }, 30)) << c.MasterLogs();
  c.SignalWorker(0, SIGCONT);
  int left = static_cast<int>(held.size());
  WaitUntil([&] {
    left = 0;
    for (const auto& f : held) left += PathExists(f) || PathExists(f.substr(0, f.size() - 6) + ".data");
    return left == 0;
  }, 5, 0.05);
  auto status = c.Mr("status --json job-000001");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  // Deleted while the job runs: not the job's end removing its directory.
  EXPECT_EQ(nlohmann::json::parse(status.out).at("state"), "RUNNING") << "the job ended before the check";
  EXPECT_EQ(left, 0) << "superseded outputs still on worker 0 while their job runs";
}

ino_t Inode(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// Issue 30: a same-host link is a fetch whose bytes travel through the file system. A worker
// stopped (SIGSTOP) and about to be declared lost still has its map outputs on this host's
// disk, but its shuffle server does not answer, so the reducer on another worker links none
// of them: the master declares it lost and its maps run again, as for a remote worker.
// Failed on i30-sort-samehost (05e15f9), where the reducer linked them from the stopped
// worker's directory and its maps were never run again.
TEST(SupersededOutputTest, AStoppedWorkersOutputsAreNotLinkedOnItsHost) {
  TempDir tmp("mr-stopped-link");
  const std::string d = tmp.path();
  DirectCluster c(d);
  ASSERT_NO_FATAL_FAILURE(StartJobWithMapsOnWorker0(c, d));
  std::set<ino_t> stopped;
  for (const auto& index : IndexFiles(d + "/w0/j1")) stopped.insert(Inode(index.substr(0, index.size() - 6) + ".data"));
  ASSERT_EQ(stopped.size(), 4u);
  c.SignalWorker(0, SIGSTOP);
  c.StartWorker({"--master-timeout", "60"});  // same host: hosts the reducer
  std::set<std::string> linked;  // runs on the reducer's worker that are a stopped worker's data file
  auto count_linked = [&] {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(d + "/w1", ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().extension() == ".run" && stopped.count(Inode(it->path().string())) > 0) {
        linked.insert(it->path().string());
      }
    }
  };
  const bool rerun = WaitForStatus(c.addr(), "job-000001", [&](const nlohmann::json& j) {
    count_linked();
    return j.at("counters").value("job.killed_maps", 0) >= 4 && j.at("maps_done").get<int>() == 4;
  }, 30);
  count_linked();
  c.SignalWorker(0, SIGCONT);
  EXPECT_EQ(linked.size(), 0u) << "the reducer linked map outputs of a stopped worker";
  EXPECT_TRUE(rerun) << "the stopped worker's maps were not run again\n" << c.MasterLogs();
}

}  // namespace
}  // namespace mr::testing
