// Hostile peers against a real master and worker (child processes on loopback, with a
// cluster token) while a good job runs: garbage, truncated and oversized frames, wrong
// tokens, an old protocol version, out-of-range fields, peers speaking for someone else,
// silent peers. Each gets a refusal or a closed connection; the good job still finishes
// with byte-identical output. The good job cannot finish before the probes are done, in
// whatever order gtest runs them: its maps wait on a gate file that only the suite's
// tear-down creates, and the tear-down then checks the job's output.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <thread>

#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "client/master_client.h"
#include "jobs/subprocess.h"
#include "master/message_checks.h"
#include "mr.pb.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/common/wait.h"

extern char** environ;

namespace mr {
namespace {

using testing::MrBin;
using testing::Sh;

constexpr double kWait = 5.0;

// A child process whose stdout+stderr go to a log file; SIGTERM (then SIGKILL) on destruction.
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::string& log) {
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
  ~Child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    if (testing::WaitUntil([&] { return ::waitpid(pid_, nullptr, WNOHANG) == pid_; }, 5, 0.05)) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  bool running() const { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

 private:
  pid_t pid_ = -1;
};

// A peer speaking raw bytes to the master, to send what no real client would.
class RawPeer {
 public:
  explicit RawPeer(uint16_t port) {
    fd_ = testing::ConnectLoopback(port, &connected_);
  }
  ~RawPeer() { ::close(fd_); }
  bool connected() const { return connected_; }

  void Send(std::string_view bytes) {
    // A closed peer may reset the connection under us; the test then sees the close.
    (void)!::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  }
  void SendEnvelope(const proto::Envelope& e) { Send(EncodeFrame(e.SerializeAsString())); }
  void ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

  // The next frame within timeout; nullopt if the master closed (closed() is then true) or
  // said nothing.
  std::optional<proto::Envelope> Read(double timeout = kWait) {
    double deadline = MonotonicSeconds() + timeout;
    for (;;) {
      if (buf_.size() >= kFrameHeaderBytes) {
        uint32_t len = DecodeFrameLength(reinterpret_cast<const unsigned char*>(buf_.data()));
        if (buf_.size() >= kFrameHeaderBytes + len) {
          proto::Envelope e;
          bool ok = e.ParseFromString(buf_.substr(kFrameHeaderBytes, len));
          buf_.erase(0, kFrameHeaderBytes + len);
          if (ok) return e;
          ADD_FAILURE() << "master sent a malformed frame";
          return std::nullopt;
        }
      }
      if (!Fill(deadline)) return std::nullopt;
    }
  }
  // True if the master closes the connection within timeout without sending anything more.
  bool ClosedWithin(double timeout = kWait) {
    size_t before = buf_.size();
    double deadline = MonotonicSeconds() + timeout;
    while (!closed_ && Fill(deadline)) {
    }
    return closed_ && buf_.size() == before;
  }
  bool closed() const { return closed_; }

 private:
  bool Fill(double deadline) {
    double left = deadline - MonotonicSeconds();
    if (closed_ || left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left * 1000) + 1) <= 0) return false;
    char tmp[65536];
    ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) {
      closed_ = true;  // EOF or reset: either way the master dropped us
      return false;
    }
    buf_.append(tmp, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string buf_;
};

proto::Envelope Hello(uint32_t version, const std::string& role, const std::string& nonce) {
  proto::Envelope e;
  e.mutable_hello()->set_protocol_version(version);
  e.mutable_hello()->set_role(role);
  e.mutable_hello()->set_software("bad-peer-test");
  e.mutable_hello()->set_nonce(nonce);
  return e;
}

class BadPeerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  static void CheckTheGoodJobFinishes();
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }

  static auth::ClusterToken Token() {
    return *auth::ClusterToken::FromString("bad-peer-cluster-secret");
  }

  // Hello + AuthResponse with `token` (none: empty proof). Returns the master's last reply.
  static std::optional<proto::Envelope> Authenticate(RawPeer& p, const std::string& role,
                                                     const auth::ClusterToken& token) {
    std::string nonce = *auth::RandomBytes(auth::kNonceBytes);
    p.SendEnvelope(Hello(kProtocolVersion, role, nonce));
    auto reply = p.Read();
    if (!reply || !reply->has_hello_reply() || !reply->hello_reply().auth_required()) {
      ADD_FAILURE() << "expected a HelloReply asking for authentication";
      return std::nullopt;
    }
    EXPECT_TRUE(
        Token().Verify(nonce, auth::kRoleMaster, kProtocolVersion, reply->hello_reply().proof()));
    proto::Envelope answer;
    answer.mutable_auth();
    if (token.enabled()) {
      answer.mutable_auth()->set_proof(
          token.Prove(reply->hello_reply().nonce(), role, kProtocolVersion));
    }
    p.SendEnvelope(answer);
    return p.Read();
  }
  // A connection past the handshake, as `role`.
  static std::unique_ptr<RawPeer> Ready(const std::string& role) {
    auto p = std::make_unique<RawPeer>(port_);
    EXPECT_TRUE(p->connected());
    auto r = Authenticate(*p, role, Token());
    EXPECT_TRUE(r && r->has_auth_result() && r->auth_result().ok())
        << (r ? r->DebugString() : "closed");
    return p;
  }
  // A worker registration with `map_slots` map slots and no reduce slot.
  static proto::Envelope Registration(uint32_t map_slots) {
    proto::Envelope reg;
    auto* r = reg.mutable_register_worker();
    r->set_host("127.0.0.1");
    r->set_shuffle_port(1);
    r->set_map_slots(map_slots);
    r->set_speed(1);
    r->set_work_dir("/nonexistent");
    return reg;
  }
  // A worker connection that registered (1 map slot, no reduce slot: never hosts a reducer).
  static std::unique_ptr<RawPeer> RegisteredWorker(uint32_t* id) {
    auto p = Ready("worker");
    p->SendEnvelope(Registration(1));
    auto reply = p->Read();
    EXPECT_TRUE(reply && reply->has_register_reply()) << (reply ? reply->DebugString() : "closed");
    *id = reply && reply->has_register_reply() ? reply->register_reply().worker_id() : 0;
    return p;
  }

  // The next thing the master does is refuse (an ErrorReply with `code` mentioning
  // `mention`, or just closing when `code` is nullopt) and close the connection.
  static void ExpectRefused(RawPeer& p, std::optional<StatusCode> code,
                            const std::string& mention) {
    auto reply = p.Read();
    if (code) {
      ASSERT_TRUE(reply.has_value()) << "no refusal before close (expected: " << mention << ")";
      ASSERT_TRUE(reply->has_error()) << reply->DebugString();
      EXPECT_EQ(reply->error().code(), static_cast<uint32_t>(*code)) << reply->error().message();
      EXPECT_NE(reply->error().message().find(mention), std::string::npos)
          << reply->error().message();
    } else {
      EXPECT_FALSE(reply.has_value()) << "unexpected reply " << reply->DebugString();
    }
    EXPECT_TRUE(p.closed() || p.ClosedWithin()) << "connection left open after: " << mention;
  }

  static std::string Master() {
    return " --master 127.0.0.1:" + std::to_string(port_) + " --token-file " + token_file_;
  }

  static std::unique_ptr<TempDir> tmp_;
  static std::unique_ptr<Child> master_, worker_;
  static std::string setup_error_;
  static std::string token_file_, input_, output_, gate_;
  static uint16_t port_, shuffle_port_;
  static uint32_t good_worker_id_;
  static uint64_t job_id_;
  static uint32_t job_maps_;
};

std::unique_ptr<TempDir> BadPeerTest::tmp_;
std::unique_ptr<Child> BadPeerTest::master_, BadPeerTest::worker_;
std::string BadPeerTest::setup_error_;
std::string BadPeerTest::token_file_, BadPeerTest::input_, BadPeerTest::output_, BadPeerTest::gate_;
uint16_t BadPeerTest::port_ = 0, BadPeerTest::shuffle_port_ = 0;
uint32_t BadPeerTest::good_worker_id_ = 0;
uint64_t BadPeerTest::job_id_ = 0;
uint32_t BadPeerTest::job_maps_ = 0;

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

TEST_F(BadPeerTest, TheGoodJobIsRunningWhileTheProbesStart) {
  EXPECT_GT(job_maps_, 100u);
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  auto r = (*c)->Call(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status_reply().jobs(0).state(), "RUNNING")
      << "the probes would not overlap the good job";
  EXPECT_FALSE(PathExists(gate_)) << "the good job's maps were let through before the probes ran";
}

TEST_F(BadPeerTest, GarbageBytesAreRefused) {
  RawPeer http(port_);
  http.Send("GET / HTTP/1.1\r\nHost: master\r\n\r\n");  // header reads as a ~1.2 GB frame
  ExpectRefused(http, StatusCode::kProtocolError, "exceeds the maximum");
  RawPeer junk(port_);
  junk.Send(std::string("\0\0\0\x08\xff\xff\xff\xff\xff\xff\xff\xff", 12));
  ExpectRefused(junk, StatusCode::kProtocolError, "malformed message");
}

TEST_F(BadPeerTest, TruncatedFrameThenCloseIsDropped) {
  RawPeer p(port_);
  std::string frame = EncodeFrame(Hello(kProtocolVersion, "client", "").SerializeAsString());
  p.Send(frame.substr(0, frame.size() / 2));
  p.ShutdownWrite();
  ExpectRefused(p, std::nullopt, "truncated frame");
}

TEST_F(BadPeerTest, OversizedFramesAreRefusedFromTheHeader) {
  RawPeer huge(port_);
  huge.Send(std::string("\xff\xff\xff\xff", 4));
  ExpectRefused(huge, StatusCode::kProtocolError, "exceeds the maximum");
  RawPeer before_auth(port_);  // 100 KiB is fine for a worker, not for a handshake
  before_auth.Send(std::string("\x00\x01\x90\x00", 4));
  ExpectRefused(before_auth, StatusCode::kProtocolError, "exceeds the maximum of 65536");
  auto after_auth = Ready("client");  // over the 4 MiB cap of the control channel
  after_auth->Send(std::string("\x00\x50\x00\x00", 4));
  ExpectRefused(*after_auth, StatusCode::kProtocolError, "exceeds the maximum of 4194304");
}

TEST_F(BadPeerTest, WrongOrMissingTokenIsRefusedWithoutInformation) {
  for (const auto& token : {*auth::ClusterToken::FromString("a-guess"), auth::ClusterToken()}) {
    RawPeer p(port_);
    auto reply = Authenticate(p, "client", token);
    ASSERT_TRUE(reply && reply->has_error()) << (reply ? reply->DebugString() : "closed");
    EXPECT_EQ(reply->error().code(), static_cast<uint32_t>(StatusCode::kPermissionDenied));
    EXPECT_EQ(reply->error().message(), auth::kAuthFailedMessage);
    EXPECT_TRUE(p.ClosedWithin());
  }
  // Skipping the answer: a request right after Hello gets no status, only a refusal.
  RawPeer skip(port_);
  skip.SendEnvelope(Hello(kProtocolVersion, "client", *auth::RandomBytes(auth::kNonceBytes)));
  ASSERT_TRUE(skip.Read().has_value());
  proto::Envelope status;
  status.mutable_status();
  skip.SendEnvelope(status);
  ExpectRefused(skip, StatusCode::kPermissionDenied, auth::kAuthFailedMessage);
  // Through the real client: the one-line message.
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client",
                                         *auth::ClusterToken::FromString("x"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), auth::kAuthFailedMessage);
}

TEST_F(BadPeerTest, OldProtocolVersionIsRefused) {
  RawPeer p(port_);
  p.SendEnvelope(Hello(kProtocolVersion - 1, "worker", ""));
  auto reply = p.Read();
  ASSERT_TRUE(reply && reply->has_hello_reply()) << (reply ? reply->DebugString() : "closed");
  EXPECT_FALSE(reply->hello_reply().accepted());
  EXPECT_NE(reply->hello_reply().error().find("protocol version mismatch"), std::string::npos);
  EXPECT_TRUE(p.ClosedWithin());
  RawPeer first(port_);  // not starting with Hello at all
  first.SendEnvelope(proto::Envelope());
  ExpectRefused(first, StatusCode::kProtocolError, "expected Hello first");
}

TEST_F(BadPeerTest, OutOfRangeRegistrationIsRefused) {
  auto p = Ready("worker");
  p->SendEnvelope(Registration(1000000));
  ExpectRefused(*p, StatusCode::kInvalidArgument, "slot counts");
  auto client = Ready("client");  // a client may not pose as a worker
  client->SendEnvelope(Registration(1));
  ExpectRefused(*client, StatusCode::kPermissionDenied, "only a worker may register");
}

TEST_F(BadPeerTest, HeartbeatsMaySpeakOnlyForTheRegisteredWorker) {
  auto unregistered = Ready("worker");
  proto::Envelope hb;
  hb.mutable_heartbeat()->set_worker_id(good_worker_id_);
  unregistered->SendEnvelope(hb);
  ExpectRefused(*unregistered, StatusCode::kProtocolError, "heartbeat before registration");
  uint32_t mine = 0;
  auto impostor = RegisteredWorker(&mine);
  ASSERT_NE(mine, good_worker_id_);
  impostor->SendEnvelope(hb);  // the good worker's id, from another connection
  ExpectRefused(*impostor, StatusCode::kPermissionDenied, "may not speak for worker");
}

TEST_F(BadPeerTest, OutOfRangeReportsAreRefused) {
  struct Case {
    std::function<void(proto::Heartbeat*)> fill;
    std::string mention;
  };
  const std::vector<Case> cases = {
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_index(1000000000); }, "task index"},
      // In range for any job, out of range for this one: checked against the job's shape.
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_index(job_maps_); }, "task index"},
      {[](proto::Heartbeat* hb) { hb->add_fetches()->set_reduce_index(1000000000); },
       "fetch reduce index"},
      {[](proto::Heartbeat* hb) {
         hb->add_reports()->set_state(static_cast<proto::TaskState>(99));
       },
       "task state"},
      {[](proto::Heartbeat* hb) { hb->add_reports()->set_end_time(-1); }, "end_time"},
      {[](proto::Heartbeat* hb) { hb->set_free_map_slots(1000000); }, "free slots"},
      {[](proto::Heartbeat* hb) {
         hb->add_served()->set_bytes(10);
         hb->set_served_since(100);
         hb->set_served_until(50);  // ends before it starts
       },
       "served_until"},
      {[](proto::Heartbeat* hb) {
         hb->add_served()->set_bytes(uint64_t{1} << 60);
         hb->set_served_since(100);
         hb->set_served_until(101);
       },
       "served bytes"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mention);
    uint32_t mine = 0;
    auto p = RegisteredWorker(&mine);
    proto::Envelope env;
    proto::Heartbeat* hb = env.mutable_heartbeat();
    hb->set_worker_id(mine);
    c.fill(hb);
    for (auto& r : *hb->mutable_reports()) {  // otherwise-valid report about the good job
      r.set_job_id(job_id_);
      r.set_kind(proto::MAP);
      r.set_attempt(1);
      if (r.state() == proto::TASK_STATE_UNSPECIFIED) r.set_state(proto::SUCCEEDED);
    }
    for (auto& f : *hb->mutable_fetches()) f.set_job_id(job_id_);
    p->SendEnvelope(env);
    ExpectRefused(*p, StatusCode::kInvalidArgument, c.mention);
  }
}

TEST_F(BadPeerTest, OutOfRangeSubmitIsRefused) {
  auto p = Ready("client");
  proto::Envelope env;
  auto* spec = env.mutable_submit()->mutable_spec();
  spec->set_job("wordcount");
  spec->add_inputs(input_);
  spec->set_output(JoinPath(tmp_->path(), "evil/../out2"));
  spec->set_reducers(1);
  spec->set_split_bytes(1 << 20);
  p->SendEnvelope(env);
  ExpectRefused(*p, StatusCode::kInvalidArgument, "normalised");
  EXPECT_FALSE(PathExists(JoinPath(tmp_->path(), "out2")));
  auto q = Ready("client");
  spec->set_output(JoinPath(tmp_->path(), "out3"));
  spec->set_split_bytes(1);  // would be millions of map tasks
  q->SendEnvelope(env);
  ExpectRefused(*q, StatusCode::kInvalidArgument, "split size");
  EXPECT_FALSE(PathExists(JoinPath(tmp_->path(), "out3")));
}

TEST_F(BadPeerTest, ShuffleServerRefusesStrangersAndBadPartitions) {
  auto fd = shuffle::netio::ConnectTcp("127.0.0.1", shuffle_port_, kWait);
  ASSERT_TRUE(fd.ok());
  proto::FetchRequest req;  // a real map output, but no authentication
  req.set_job_id(job_id_);
  req.set_attempt(1);
  ASSERT_TRUE(shuffle::netio::WriteFrameFd(fd->get(), req.SerializeAsString(), kWait).ok());
  auto frame = shuffle::netio::ReadFrameFd(fd->get(), 1 << 16, kWait, kWait);
  ASSERT_TRUE(frame.ok()) << frame.status().ToString();
  proto::FetchReply reply;
  ASSERT_TRUE(reply.ParseFromString(*frame));
  EXPECT_FALSE(reply.ok());
  EXPECT_NE(reply.error().find(auth::kAuthFailedMessage), std::string::npos) << reply.error();

  TempDir dest("mr-bad-peer-fetch");
  shuffle::FetchTarget t{"127.0.0.1", shuffle_port_, job_id_, 0, 1, 1000000000};
  auto r =
      shuffle::FetchPartition(t, JoinPath(dest.path(), "x"), kWait, SystemClock::Get(), Token());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().code() == StatusCode::kNotFound ||
              r.status().code() == StatusCode::kProtocolError)
      << r.status().ToString();
  EXPECT_FALSE(PathExists(JoinPath(dest.path(), "x")));
}

TEST_F(BadPeerTest, SilentPeersAreDroppedAndDoNotStarveOthers) {
  std::vector<std::unique_ptr<RawPeer>> silent;
  for (int i = 0; i < 32; ++i) silent.push_back(std::make_unique<RawPeer>(port_));
  silent.back()->Send(std::string("\0\0", 2));  // half a header, then nothing
  double start = MonotonicSeconds();
  // Meanwhile the cluster serves its own client.
  auto c = client::MasterClient::Connect(HostPort{"127.0.0.1", port_}, "client", Token());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  proto::Envelope req;
  req.mutable_status()->set_job_id(job_id_);
  EXPECT_TRUE((*c)->Call(req).ok());
  for (auto& p : silent) EXPECT_TRUE(p->ClosedWithin(kWait)) << "silent peer kept its connection";
  double took = MonotonicSeconds() - start;
  // Lower bound, safe under any load: the last peer connected just before `start`, and a
  // deadline never fires early, so it cannot close before ~1 s; 0.5 allows for the clocks.
  // Upper bound: the deadline fired at all (a master that ignored it would keep them for
  // good); 5 s is five deadlines, far more than a loaded master needs to act on one.
  EXPECT_GE(took, 0.5) << "closed before the 1 s handshake timeout";
  EXPECT_LT(took, kWait);
}

// The master's field checks on their own (the process tests above go through them too).
TEST(MessageChecksTest, Utf8) {
  EXPECT_TRUE(master::IsValidUtf8("plain ascii"));
  EXPECT_TRUE(master::IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(master::IsValidUtf8("\xff"));
  EXPECT_FALSE(master::IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(master::IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(master::IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(master::IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

proto::JobSpec GoodSpec() {
  proto::JobSpec spec;
  spec.set_job("wordcount");
  spec.add_inputs("/data/in.txt");
  spec.set_output("/data/out");
  spec.set_reducers(2);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(0.05);
  spec.set_weight(1);
  return spec;
}

TEST(MessageChecksTest, JobSpec) {
  EXPECT_TRUE(master::CheckJobSpec(GoodSpec()).ok());
  for (const char* out : {"/", "relative", "/a/../b", "/a/./b", "/a//b", "/a/", "/a/.."}) {
    auto spec = GoodSpec();
    spec.set_output(out);
    EXPECT_EQ(master::CheckJobSpec(spec).code(), StatusCode::kInvalidArgument) << out;
  }
  auto nul = GoodSpec();
  nul.set_inputs(0, std::string("/etc/passwd\0.txt", 16));
  EXPECT_NE(master::CheckJobSpec(nul).message().find("NUL"), std::string::npos);
  auto nan = GoodSpec();
  nan.set_slow_start(std::nan(""));
  EXPECT_FALSE(master::CheckJobSpec(nan).ok());
  auto buffer = GoodSpec();
  buffer.set_sort_buffer_bytes(uint64_t{1} << 40);
  EXPECT_FALSE(master::CheckJobSpec(buffer).ok());
}

TEST(MessageChecksTest, ReportsAgainstTheJobShape) {
  proto::TaskReport r;
  r.set_kind(proto::REDUCE);
  r.set_state(proto::FETCHING);
  r.set_index(3);
  EXPECT_TRUE(master::CheckTaskReport(r, std::nullopt).ok());  // unknown job: generic bounds
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 3}).ok());
  EXPECT_TRUE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
  r.set_maps_fetched(11);
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
  r.set_maps_fetched(1);
  r.add_counters()->set_name(std::string(300, 'c'));
  EXPECT_FALSE(master::CheckTaskReport(r, master::JobShape{10, 4}).ok());
}

// A failed attempt's stderr tail is bounded (the worker keeps at most kStderrTailBytes) and
// must be clean text: a peer cannot make the master keep and persist more through it.
TEST(MessageChecksTest, StderrTailIsBoundedText) {
  proto::TaskReport r;
  r.set_kind(proto::MAP);
  r.set_state(proto::FAILED);
  r.set_stderr_tail(std::string(jobs::kStderrTailBytes, 'e'));
  EXPECT_TRUE(master::CheckTaskReport(r, std::nullopt).ok());
  r.set_stderr_tail(std::string(jobs::kStderrTailBytes + 1, 'e'));
  EXPECT_FALSE(master::CheckTaskReport(r, std::nullopt).ok());
  r.set_stderr_tail(std::string("a\0b", 3));
  EXPECT_FALSE(master::CheckTaskReport(r, std::nullopt).ok());
}

TEST(MessageChecksTest, GateKeepsRolesApart) {
  proto::Envelope reg;
  auto* w = reg.mutable_register_worker();
  w->set_host("10.0.0.7");
  w->set_shuffle_port(7000);
  w->set_map_slots(2);
  w->set_speed(1);
  master::PeerGate client("client");
  EXPECT_EQ(client.Check(reg, nullptr).code(), StatusCode::kPermissionDenied);
  master::PeerGate worker("worker");
  ASSERT_TRUE(worker.Check(reg, nullptr).ok());
  worker.Registered(9, *w);
  EXPECT_EQ(worker.Check(reg, nullptr).code(), StatusCode::kProtocolError);  // twice
  proto::Envelope hb;
  hb.mutable_heartbeat()->set_worker_id(9);
  hb.mutable_heartbeat()->set_free_map_slots(2);
  EXPECT_TRUE(worker.Check(hb, nullptr).ok());
  hb.mutable_heartbeat()->set_worker_id(8);
  EXPECT_EQ(worker.Check(hb, nullptr).code(), StatusCode::kPermissionDenied);
  w->set_host("evil host;rm");
  EXPECT_FALSE(master::CheckRegisterWorker(*w).ok());
}

// A kill names one job; the gate lets any authenticated peer send it (the tracker then
// answers NotFound or FailedPrecondition), but not without a job id.
TEST(MessageChecksTest, KillJobNeedsAJobId) {
  master::PeerGate client("client");
  proto::Envelope kill;
  kill.mutable_kill_job();
  EXPECT_EQ(client.Check(kill, nullptr).code(), StatusCode::kInvalidArgument);
  kill.mutable_kill_job()->set_job_id(4);
  EXPECT_TRUE(client.Check(kill, nullptr).ok());
  proto::Envelope reply;
  reply.mutable_kill_job_reply();
  EXPECT_EQ(client.Check(reply, nullptr).code(), StatusCode::kProtocolError) << "a reply is not a request";
}

}  // namespace
}  // namespace mr
