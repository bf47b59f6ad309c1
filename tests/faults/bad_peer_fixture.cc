#include "tests/faults/bad_peer_fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>

#include "client/master_client.h"
#include "tests/common/wait.h"

extern char** environ;

namespace mr::badpeer {

using testing::MrBin;
using testing::Sh;

Child::Child(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
  posix_spawn_file_actions_destroy(&fa);
}

Child::~Child() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  if (testing::WaitUntil([&] { return ::waitpid(pid_, nullptr, WNOHANG) == pid_; }, 5, 0.05)) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

bool Child::running() const { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

std::unique_ptr<TempDir> BadPeerTest::tmp_;
std::unique_ptr<Child> BadPeerTest::master_, BadPeerTest::worker_;
std::string BadPeerTest::setup_error_;
std::string BadPeerTest::token_file_, BadPeerTest::input_, BadPeerTest::output_, BadPeerTest::gate_;
uint16_t BadPeerTest::port_ = 0, BadPeerTest::shuffle_port_ = 0;
uint32_t BadPeerTest::good_worker_id_ = 0;
uint64_t BadPeerTest::job_id_ = 0;
uint32_t BadPeerTest::job_maps_ = 0;

namespace {

// Polls `path` until it contains `marker`; returns the text after it.
std::optional<std::string> WaitForText(const std::string& path, const std::string& marker,
                                       double timeout) {
  std::optional<std::string> after;
  testing::WaitUntil([&] {
    auto text = ReadFileToString(path);
    if (!text.ok()) return false;
    auto at = text->find(marker);
    if (at == std::string::npos || text->find('\n', at) == std::string::npos) return false;
    after = text->substr(at + marker.size());
    return true;
  }, timeout, 0.05);
  return after;
}

// Lines of text, sorted bytewise: the job's output has the input's lines, in the order
// its partitions put them.
std::string SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size() - 1;
    lines.push_back(text.substr(pos, nl + 1 - pos));
    pos = nl + 1;
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

}  // namespace

void BadPeerTest::SetUpTestSuite() {
  tmp_ = std::make_unique<TempDir>("mr-bad-peer");
  const std::string& d = tmp_->path();
  token_file_ = JoinPath(d, "token");
  (void)WriteStringToFile(token_file_, "bad-peer-cluster-secret\n");
  ::chmod(token_file_.c_str(), 0600);
  input_ = JoinPath(d, "records.txt");
  testing::WriteRecords(input_, 80000, 11);  // 8 MB: ~120 maps of 64 KiB
  output_ = JoinPath(d, "out");
  gate_ = JoinPath(d, "gate");
  master_ = std::make_unique<Child>(
      std::vector<std::string>{MrBin(), "master", "--listen", "127.0.0.1:0", "--state",
                               JoinPath(d, "state"), "--addr-file", JoinPath(d, "addr"),
                               "--token-file", token_file_, "--handshake-timeout", "1"},
      JoinPath(d, "master.log"));
  auto addr = WaitForText(JoinPath(d, "addr"), "127.0.0.1:", 20);
  if (!addr) return void(setup_error_ = "master did not start; see " + JoinPath(d, "master.log"));
  port_ = static_cast<uint16_t>(std::stoi(*addr));
  worker_ = std::make_unique<Child>(
      std::vector<std::string>{MrBin(), "worker", "--master", "127.0.0.1:" + std::to_string(port_),
                               "--work-dir", JoinPath(d, "work"), "--token-file", token_file_},
      JoinPath(d, "worker.log"));
  auto reg = WaitForText(JoinPath(d, "worker.log"), "as worker ", 20);
  if (!reg) return void(setup_error_ = "worker did not register");
  good_worker_id_ = static_cast<uint32_t>(std::stoul(*reg));
  shuffle_port_ = static_cast<uint16_t>(std::stoul(reg->substr(reg->find("shuffle port ") + 13)));
  // Each map passes its split through once the gate exists (a poll inside the job, not a
  // wait of the test's); the reducers pass theirs through: the output is the input's lines.
  const std::string mapper =
      "while [ ! -e " + testing::ShellQuote(gate_) + " ]; do sleep 0.05; done; cat";
  auto submit = Sh(MrBin() + " submit streaming --mapper " + testing::ShellQuote(mapper) +
                   " --reducer cat --reducers 2 --split-size 64KiB --input " + input_ +
                   " --output " + output_ + Master());
  if (submit.exit_code != 0) return void(setup_error_ = "submit failed: " + submit.err);
  job_id_ = std::stoull(submit.out.substr(4));
  auto client = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  auto st = client.ok() ? (*client)->Call(req) : Result<proto::Envelope>(client.status());
  if (!st.ok()) return void(setup_error_ = "status failed: " + st.status().ToString());
  job_maps_ = st->status_reply().jobs(0).maps_total();
}

// Every probe has run while the good job waited at its gate: open it, and the job must
// finish with the input's lines, the daemons still up. (Failures here fail the binary.)
void BadPeerTest::CheckTheGoodJobFinishes() {
  ASSERT_TRUE(WriteStringToFile(gate_, "").ok());
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  std::string state;
  ASSERT_TRUE(testing::WaitUntil([&] {
    auto r = (*c)->Call(req);
    state = r.ok() ? r->status_reply().jobs(0).state() : r.status().ToString();
    return state == "SUCCEEDED" || state == "FAILED";
  }, 90, 0.1)) << "still " << state;
  ASSERT_EQ(state, "SUCCEEDED") << "see " << JoinPath(tmp_->path(), "master.log");
  std::string got = *ReadFileToString(JoinPath(output_, "part-r-00000")) +
                    *ReadFileToString(JoinPath(output_, "part-r-00001"));
  std::string expected = SortedLines(*ReadFileToString(input_));
  EXPECT_TRUE(SortedLines(got) == expected)
      << "output lines differ from the input's (" << got.size() << " vs " << expected.size() << " bytes)";
  EXPECT_TRUE(master_->running() && worker_->running()) << "a daemon died";
}

void BadPeerTest::TearDownTestSuite() {
  if (setup_error_.empty()) CheckTheGoodJobFinishes();
  worker_.reset();
  master_.reset();
  tmp_.reset();
}

}  // namespace mr::badpeer
