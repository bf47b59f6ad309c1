// Two fetches of one map into one run file (shuffle/net/run_commit.h, issue 29): a newer
// attempt of a map, from another source, fetched while the older attempt's fetch is still
// receiving. Each fetch writes a file of its own, the first run committed stays, and the
// later fetch succeeds with that run's result, so whichever the reducer records describes
// the bytes at the destination.
#include "shuffle/net/run_commit.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "tests/common/wait.h"
#include "tests/shuffle/scripted_server.h"

namespace mr::shuffle {
namespace {

using mr::shuffle::testing::ScriptedServer;
using mr::testing::WaitUntil;

// A partition of `n` records whose values carry the attempt, so two attempts' runs differ.
std::string Partition(uint32_t attempt, int n) {
  std::string part;
  for (int i = 0; i < n; ++i) {
    AppendRecord("key-" + std::to_string(100000 + i), "attempt-" + std::to_string(attempt) + std::string(40, 'v'),
                 &part);
  }
  return part;
}

FetchTarget Target(uint16_t port, uint32_t attempt, std::atomic<uint64_t>* received = nullptr) {
  FetchTarget t;
  t.host = "127.0.0.1";
  t.port = port;
  t.job_id = 9;
  t.map_index = 4;
  t.attempt = attempt;
  t.partition = 0;
  t.received = received;
  return t;
}

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

class RunCommitTest : public ::testing::Test {
 protected:
  std::string dir() const { return tmp_.path(); }
  std::string dest() const { return JoinPath(tmp_.path(), "m4.run"); }
  TempDir tmp_{"mr-run-commit-test"};
};

// The interleaving, step by step: attempt 1's fetch has received half its bytes when attempt
// 2's fetch (another source) starts, receives everything and commits; then attempt 1's fetch
// receives the rest. Before the fix both received into dest + ".tmp": attempt 2 truncated
// and overwrote the file attempt 1 was writing, attempt 1's remaining bytes landed in the
// middle of attempt 2's committed run, and attempt 1's fetch then failed (its rename found no
// .tmp: IoError, which fails the reducer on its own disk) or blamed a good source.
TEST_F(RunCommitTest, AnOlderAttemptStillReceivingWhenANewerOneCommitsLeavesTheNewerRun) {
  const std::string older = Partition(1, 4000), newer = Partition(2, 4000);
  ASSERT_NE(older, newer);
  const size_t half = older.size() / 2;
  std::atomic<bool> release{false};
  ScriptedServer first([&](const proto::FetchRequest&, int fd) {
    ScriptedServer::WriteHeader(fd, older, 4000);
    ScriptedServer::WriteBytes(fd, older.substr(0, half));
    EXPECT_TRUE(WaitUntil([&] { return release.load(); }, 60, 0.002));
    ScriptedServer::WriteBytes(fd, older.substr(half));
    return false;
  });
  ScriptedServer second([&](const proto::FetchRequest&, int fd) {
    return ScriptedServer::WriteHeader(fd, newer, 4000) && ScriptedServer::WriteBytes(fd, newer);
  });

  std::atomic<uint64_t> received{0};
  Result<FetchResult> a = Status::Internal("not run");
  std::thread fetch_a([&] { a = FetchPartition(Target(first.port(), 1, &received), dest(), 30); });
  const bool halfway = WaitUntil([&] { return received.load() >= half; }, 30, 0.002);
  auto b = halfway ? FetchPartition(Target(second.port(), 2), dest(), 30) : Result<FetchResult>(Status::Internal("-"));
  release = true;
  fetch_a.join();
  ASSERT_TRUE(halfway) << "attempt 1's fetch never received half its bytes";

  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_TRUE(a.ok()) << "the older attempt's fetch failed: " << a.status().ToString();
  EXPECT_EQ(b->crc32c, crc32c::Value(newer));
  // Both results describe the run at the destination: the first committed, attempt 2's.
  EXPECT_EQ(a->crc32c, crc32c::Value(newer));
  EXPECT_EQ(a->bytes, newer.size());
  EXPECT_EQ(a->offset, 0u);
  auto run = ReadFileToString(dest());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(*run == newer) << "the run at the destination is not attempt 2's";
  EXPECT_EQ(Files(dir()), std::vector<std::string>{"m4.run"}) << "a temporary file was left";
}

// The rule on its own: a run committed at a destination stays until the destination is
// removed (a later commit returns its result and leaves nothing); after the removal the next
// run is committed; a file no commit put there is replaced; forgetting a directory's commits
// leaves the files alone.
TEST_F(RunCommitTest, TheFirstCommittedRunStaysUntilItsDestinationIsRemoved) {
  auto commit = [&](uint32_t attempt, const std::string& bytes) {
    const std::string temp = RunTempPath(dest(), attempt);
    EXPECT_TRUE(WriteStringToFile(temp, bytes).ok());
    FetchResult r;
    r.bytes = bytes.size();
    r.records = attempt;
    r.crc32c = crc32c::Value(bytes);
    return CommitRun(temp, dest(), r);
  };
  EXPECT_NE(RunTempPath(dest(), 1), RunTempPath(dest(), 1));
  ASSERT_TRUE(WriteStringToFile(dest(), "left by a crashed worker").ok());
  auto first = commit(1, "run of attempt 1");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->records, 1u);
  auto second = commit(2, "run of attempt 2, longer");
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->records, 1u);
  EXPECT_EQ(second->crc32c, crc32c::Value("run of attempt 1"));
  EXPECT_EQ(second->bytes, std::string("run of attempt 1").size());
  EXPECT_EQ(ReadFileToString(dest()).value(), "run of attempt 1");
  EXPECT_EQ(Files(dir()), std::vector<std::string>{"m4.run"});

  ASSERT_TRUE(RemoveAll(dest()).ok());  // as FetchScheduler::Refetch does
  auto third = commit(3, "run of attempt 3");
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(third->records, 3u);
  EXPECT_EQ(ReadFileToString(dest()).value(), "run of attempt 3");

  const size_t before = CommittedRunCount();
  ForgetRunsUnder(dir());
  EXPECT_EQ(CommittedRunCount(), before - 1);
  EXPECT_TRUE(PathExists(dest()));
}

}  // namespace
}  // namespace mr::shuffle
