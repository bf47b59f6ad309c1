// A task attempt's log (issue 32, `mr logs`): the writer's cap and its lines, the worker's
// own log lines copied into it from the attempt's thread only, the pruning of old jobs'
// logs, and the shuffle server serving pieces of it to an authenticated reader.
#include "worker/task/attempt_log.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "common/log.h"
#include "shuffle/net/shuffle_server.h"
#include "shuffle/net/task_log_client.h"
#include "shuffle/task_log.h"

namespace mr::worker {
namespace {

std::string Read(const std::string& path) {
  auto r = ReadFileToString(path);
  return r.ok() ? *r : "(unreadable)";
}

TEST(AttemptLogTest, KeepsTheFirstCapBytesThenSaysSoAndStillTakesTheWorkersLines) {
  TempDir tmp("attempt-log");
  const std::string path = shuffle::TaskLogPath(tmp.path(), 7, true, 3, 1);
  EXPECT_EQ(path, tmp.path() + "/logs/j7/m-00003-1.log");
  {
    auto log = AttemptLog::Open(path, /*cap=*/100);
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    (*log)->Note("starts");
    (*log)->Append(std::string(60, 'a'));
    (*log)->Append(std::string(60, 'b'));  // 25 + 60 + 60 > 100: cut inside the b's
    (*log)->Append("never\n");
    EXPECT_EQ((*log)->dropped(), 25u + 120u - 100u + 6u);  // a worker line: 18 bytes of stamp, text, newline
    (*log)->Note("ends");
  }
  const std::string text = Read(path);
  const std::regex want(R"(\[mr \d\d:\d\d:\d\d\.\d{3}\] starts\n)" + std::string(60, 'a') + std::string(15, 'b') +
                        R"(\n\[mr [0-9:.]+\] this attempt's log reached its cap of 100 bytes: what the task )"
                        R"(writes from here on is dropped\n\[mr [0-9:.]+\] ends\n)");
  EXPECT_TRUE(std::regex_match(text, want)) << text;

  // The worker's lines stop too, kNoteReserveBytes past the cap.
  auto log = AttemptLog::Open(path, 10);  // reopening empties it: a new run of the same attempt id
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(Read(path), "");
  const std::string big(AttemptLog::kNoteReserveBytes / 2, 'n');
  (*log)->Note(big);
  (*log)->Note(big);  // past cap + reserve
  EXPECT_EQ((*log)->size(), big.size() + 19);
  EXPECT_GT((*log)->dropped(), big.size());
}

TEST(AttemptLogTest, TheAttemptThreadsLogLinesGoInAndNoOtherThreads) {
  InitLogging("worker");
  TempDir tmp("attempt-log-capture");
  auto log = AttemptLog::Open(tmp.path() + "/a.log");
  ASSERT_TRUE(log.ok());
  MR_LOG_INFO("before the capture");
  {
    AttemptLogCapture capture(log->get());
    MR_LOG_WARN("shuffle of {} went wrong", 42);
    std::thread([] { MR_LOG_INFO("another thread's line"); }).join();
  }
  MR_LOG_INFO("after the capture");
  const std::string text = Read(tmp.path() + "/a.log");
  EXPECT_TRUE(std::regex_match(text, std::regex(R"(\[mr [0-9:.]+\] \[warning\] shuffle of 42 went wrong\n)"))) << text;
}

void Touch(const std::string& dir, int64_t seconds) {
  ASSERT_TRUE(MakeDirs(dir).ok());
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), times, 0), 0);
}

TEST(AttemptLogTest, PruningKeepsTheMostRecentJobsLogs) {
  TempDir tmp("attempt-log-prune");
  const std::string root = shuffle::TaskLogRoot(tmp.path());
  Touch(root + "/j1", 5000);  // the newest, whatever its id
  Touch(root + "/j2", 1000);
  Touch(root + "/j3", 2000);
  Touch(root + "/j4", 3000);
  Touch(root + "/notes", 10);  // not a job's: left alone
  ASSERT_TRUE(shuffle::PruneTaskLogs(tmp.path(), 2).ok());
  auto left = ListDir(root);
  ASSERT_TRUE(left.ok());
  std::sort(left->begin(), left->end());
  EXPECT_EQ(*left, (std::vector<std::string>{"j1", "j4", "notes"}));
  EXPECT_TRUE(shuffle::PruneTaskLogs(tmp.path() + "/none", 2).ok()) << "no logs yet is not an error";

  // And by bytes: the newest that fit together (j1's 60 bytes, j4's 50 more, not j3's 40).
  Touch(root + "/j3", 2000);
  ASSERT_TRUE(WriteFileAtomically(root + "/j1/m-00000-1.log", std::string(60, 'x')).ok());
  ASSERT_TRUE(WriteFileAtomically(root + "/j4/m-00000-1.log", std::string(50, 'x')).ok());
  ASSERT_TRUE(WriteFileAtomically(root + "/j3/m-00000-1.log", std::string(40, 'x')).ok());
  Touch(root + "/j1", 5000);
  Touch(root + "/j4", 3000);
  Touch(root + "/j3", 2000);
  ASSERT_TRUE(shuffle::PruneTaskLogs(tmp.path(), 10, 120).ok());
  left = ListDir(root);
  ASSERT_TRUE(left.ok());
  std::sort(left->begin(), left->end());
  EXPECT_EQ(*left, (std::vector<std::string>{"j1", "j4", "notes"}));
  // The newest job's logs stay whatever their size.
  ASSERT_TRUE(shuffle::PruneTaskLogs(tmp.path(), 10, 1).ok());
  left = ListDir(root);
  ASSERT_TRUE(left.ok());
  std::sort(left->begin(), left->end());
  EXPECT_EQ(*left, (std::vector<std::string>{"j1", "notes"}));
}

TEST(AttemptLogTest, TheShuffleServerServesPiecesToAnAuthenticatedReader) {
  TempDir tmp("attempt-log-serve");
  const std::string path = shuffle::TaskLogPath(tmp.path(), 3, false, 2, 1);
  std::string content;
  for (int i = 0; content.size() < shuffle::kTaskLogChunkBytes + 1000; ++i) content += "line " + std::to_string(i) + "\n";
  ASSERT_TRUE(MakeDirs(shuffle::TaskLogJobDir(tmp.path(), 3)).ok());
  ASSERT_TRUE(WriteFileAtomically(path, content).ok());
  auto token = auth::ClusterToken::FromString("serve-secret");
  ASSERT_TRUE(token.ok());
  shuffle::ShuffleServerOptions so;
  so.work_dir = tmp.path();
  so.token = *token;
  auto server = shuffle::ShuffleServer::Start(so);
  ASSERT_TRUE(server.ok()) << server.status().ToString();

  auto client = shuffle::TaskLogClient::Connect("127.0.0.1", (*server)->port(), *token, 5);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  proto::TaskLogRequest req;
  req.set_job_id(3);
  req.set_kind(proto::REDUCE);
  req.set_index(2);
  req.set_attempt(1);
  req.set_max_bytes(10u << 20);  // more than a piece: a piece is all it gets
  auto first = (*client)->Read(req);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->log_size, content.size());
  EXPECT_EQ(first->bytes, content.substr(0, shuffle::kTaskLogChunkBytes));
  req.set_offset(first->bytes.size());
  auto second = (*client)->Read(req);  // the same connection
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(first->bytes + second->bytes, content);
  req.set_offset(content.size() + 50);
  auto past = (*client)->Read(req);
  ASSERT_TRUE(past.ok());
  EXPECT_EQ(past->bytes, "");
  // Another attempt: NotFound, and the connection still serves.
  req.set_attempt(2);
  auto missing = (*client)->Read(req);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("no log of job 3 r-00002 attempt 2 on this worker"), std::string::npos);
  req.set_attempt(1);
  req.set_offset(0);
  req.set_max_bytes(5);
  auto small = (*client)->Read(req);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->bytes, "line ");

  // Without the token, nothing.
  auto stranger = shuffle::TaskLogClient::Connect("127.0.0.1", (*server)->port(), auth::ClusterToken(), 5);
  ASSERT_TRUE(stranger.ok());
  auto refused = (*stranger)->Read(req);
  EXPECT_EQ(refused.status().code(), StatusCode::kPermissionDenied) << refused.status().ToString();
}

}  // namespace
}  // namespace mr::worker
