// Cluster token: HMAC known answers, token files, the master and shuffle handshakes with
// right, wrong and missing tokens (in-process servers on loopback), and the CLI on a real
// cluster started with a token.
#include "common/auth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <thread>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "client/master_client.h"
#include "master/master_server.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/shuffle_server.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr {
namespace {

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

auth::ClusterToken Token(const std::string& secret) {
  auto t = auth::ClusterToken::FromString(secret);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : auth::ClusterToken();
}

std::string WriteTokenFile(const std::string& dir, const std::string& name,
                           const std::string& contents, mode_t mode = 0600) {
  std::string path = JoinPath(dir, name);
  EXPECT_TRUE(WriteStringToFile(path, contents).ok());
  EXPECT_EQ(::chmod(path.c_str(), mode), 0);
  return path;
}

// ---- primitives ------------------------------------------------------------------

TEST(HmacTest, Rfc4231TestCase1) {
  std::string key(20, '\x0b');
  EXPECT_EQ(Hex(auth::HmacSha256(key, "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

// `mr token new` and the netns experiment's token: 32 random bytes as hex, which FromString
// reads back as a usable token.
TEST(TokenTextTest, IsSixtyFourHexDigitsAndFresh) {
  auto a = auth::NewTokenText(), b = auth::NewTokenText();
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), 65u);
  EXPECT_EQ(a->back(), '\n');
  EXPECT_EQ(a->find_first_not_of("0123456789abcdef"), 64u);
  EXPECT_NE(*a, *b);
  auto token = auth::ClusterToken::FromString(*a);
  ASSERT_TRUE(token.ok());
  EXPECT_TRUE(token->enabled());
}

TEST(HmacTest, Rfc4231TestCase2) {
  EXPECT_EQ(Hex(auth::HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(HmacTest, ConstantTimeEqual) {
  EXPECT_TRUE(auth::ConstantTimeEqual("abc", "abc"));
  EXPECT_FALSE(auth::ConstantTimeEqual("abc", "abd"));
  EXPECT_FALSE(auth::ConstantTimeEqual("abc", "abcd"));
  EXPECT_TRUE(auth::ConstantTimeEqual("", ""));
}

TEST(HmacTest, RandomBytesDiffer) {
  auto a = auth::RandomBytes(auth::kNonceBytes);
  auto b = auth::RandomBytes(auth::kNonceBytes);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->size(), auth::kNonceBytes);
  EXPECT_NE(*a, *b);
}

TEST(ClusterTokenTest, ProofIsBoundToNonceRoleVersionAndToken) {
  auth::ClusterToken t = Token("s3cret");
  std::string n1(auth::kNonceBytes, 'a'), n2(auth::kNonceBytes, 'b');
  std::string proof = t.Prove(n1, "worker", 1);
  EXPECT_EQ(proof.size(), auth::kProofBytes);
  EXPECT_TRUE(t.Verify(n1, "worker", 1, proof));
  EXPECT_FALSE(t.Verify(n2, "worker", 1, proof));
  EXPECT_FALSE(t.Verify(n1, "client", 1, proof));
  EXPECT_FALSE(t.Verify(n1, "worker", 2, proof));
  EXPECT_FALSE(Token("other").Verify(n1, "worker", 1, proof));
  EXPECT_FALSE(auth::ClusterToken().Verify(n1, "worker", 1, proof));  // no token: nothing verifies
  // A short (trivial) challenge is never accepted, even with a matching proof.
  EXPECT_FALSE(t.Verify("x", "worker", 1, t.Prove("x", "worker", 1)));
}

TEST(ClusterTokenTest, ParsesAndRejectsTokenFiles) {
  TempDir dir("mr-auth");
  std::string warning;
  auto good =
      auth::ClusterToken::FromFile(WriteTokenFile(dir.path(), "good", "  s3cret\n\n"), &warning);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_TRUE(warning.empty()) << warning;
  std::string nonce(auth::kNonceBytes, 'n');
  EXPECT_EQ(good->Prove(nonce, "client", 1), Token("s3cret").Prove(nonce, "client", 1))
      << "whitespace not trimmed";

  auto missing = auth::ClusterToken::FromFile(JoinPath(dir.path(), "nope"), &warning);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
  auto empty = auth::ClusterToken::FromFile(WriteTokenFile(dir.path(), "empty", ""), &warning);
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  auto blank =
      auth::ClusterToken::FromFile(WriteTokenFile(dir.path(), "blank", " \t\r\n"), &warning);
  EXPECT_EQ(blank.status().code(), StatusCode::kInvalidArgument);
  auto big = auth::ClusterToken::FromFile(WriteTokenFile(dir.path(), "big", std::string(4097, 'x')),
                                          &warning);
  EXPECT_EQ(big.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(auth::ClusterToken::FromFile(
                  WriteTokenFile(dir.path(), "max", std::string(4096, 'x')), &warning)
                  .ok());
  auto directory = auth::ClusterToken::FromFile(dir.path(), &warning);
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);

  auto open =
      auth::ClusterToken::FromFile(WriteTokenFile(dir.path(), "open", "s3cret", 0644), &warning);
  ASSERT_TRUE(open.ok());
  EXPECT_NE(warning.find("readable by group or others"), std::string::npos) << warning;
  auto none = auth::ClusterToken::FromFile("", &warning);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->enabled());
}

// ---- master handshake, in process -----------------------------------------------------

class MasterAuthTest : public ::testing::Test {
 protected:
  void Start(const auth::ClusterToken& token) {
    master::MasterOptions o;
    o.listen = HostPort{"127.0.0.1", 0};
    o.state_dir = JoinPath(tmp_.path(), "state");
    o.token = token;
    auto server = master::MasterServer::Create(o);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    thread_ = std::thread([this] { server_->Run(); });
  }
  void TearDown() override {
    if (server_) server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  Result<std::unique_ptr<client::MasterClient>> Connect(const auth::ClusterToken& token) {
    return client::MasterClient::Connect(server_->address(), "client", token);
  }
  static Status AskStatus(client::MasterClient& c) {
    proto::Envelope req;
    req.mutable_status();
    auto r = c.Call(req);
    if (!r.ok()) return r.status();
    return r->has_status_reply() ? Status::Ok() : Status::ProtocolError("no status reply");
  }

  TempDir tmp_{"mr-auth-master"};
  std::unique_ptr<master::MasterServer> server_;
  std::thread thread_;
};

TEST_F(MasterAuthTest, RightTokenIsServed) {
  Start(Token("cluster-secret"));
  auto c = Connect(Token("cluster-secret"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(AskStatus(**c).ok());
}

TEST_F(MasterAuthTest, WrongOrMissingTokenIsRefusedWithOneMessage) {
  Start(Token("cluster-secret"));
  for (const auto& token : {Token("not-the-secret"), auth::ClusterToken()}) {
    auto c = Connect(token);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), StatusCode::kPermissionDenied);
    EXPECT_EQ(c.status().message(), auth::kAuthFailedMessage);
  }
  // The master still serves its own cluster afterwards.
  auto c = Connect(Token("cluster-secret"));
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(AskStatus(**c).ok());
}

TEST_F(MasterAuthTest, MasterWithoutTokenAcceptsEveryoneButATokenHolderRefusesIt) {
  Start(auth::ClusterToken());
  auto plain = Connect(auth::ClusterToken());
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_TRUE(AskStatus(**plain).ok());
  // A peer given a token insists on a master that proves it (no downgrade to "no token").
  auto strict = Connect(Token("cluster-secret"));
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(strict.status().message().find("without a cluster token"), std::string::npos)
      << strict.status().message();
}

// ---- shuffle handshake, in process ---------------------------------------------------

class ShuffleAuthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    shuffle::MapOutputIndex index;
    std::string data;
    for (uint32_t p = 0; p < 2; ++p) {
      std::string part;
      for (int i = 0; i < 50; ++i)
        shuffle::AppendRecord("k" + std::to_string(p * 100 + i), "value", &part);
      index.partitions.push_back({data.size(), part.size(), 50, crc32c::Value(part)});
      data += part;
      parts_.push_back(part);
    }
    ASSERT_TRUE(MakeDirs(shuffle::MapOutputDir(work(), 5)).ok());
    ASSERT_TRUE(WriteStringToFile(shuffle::MapOutputDataPath(work(), 5, 0, 1), data).ok());
    ASSERT_TRUE(index.WriteTo(shuffle::MapOutputIndexPath(work(), 5, 0, 1)).ok());
  }
  void Start(const auth::ClusterToken& token) {
    shuffle::ShuffleServerOptions o;
    o.work_dir = work();
    o.token = token;
    auto s = shuffle::ShuffleServer::Start(o);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
  }
  shuffle::FetchTarget Target(uint32_t partition) const {
    return shuffle::FetchTarget{"127.0.0.1", server_->port(), 5, 0, 1, partition};
  }
  Result<shuffle::FetchResult> Fetch(uint32_t partition, const auth::ClusterToken& token,
                                     const std::string& dest) {
    return shuffle::FetchPartition(Target(partition), Dest(dest), 5.0, SystemClock::Get(), token);
  }
  std::string work() const { return JoinPath(tmp_.path(), "work"); }
  std::string Dest(const std::string& name) const { return JoinPath(tmp_.path(), name); }

  TempDir tmp_{"mr-auth-shuffle"};
  std::vector<std::string> parts_;
  std::unique_ptr<shuffle::ShuffleServer> server_;
};

TEST_F(ShuffleAuthTest, RightTokenFetchesAndKeepsTheConnectionAuthenticated) {
  Start(Token("cluster-secret"));
  shuffle::Fetcher fetcher(5.0, SystemClock::Get(), 4, Token("cluster-secret"));
  for (uint32_t p = 0; p < 2; ++p) {
    auto r = fetcher.Fetch(Target(p), Dest("p" + std::to_string(p)));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*ReadFileToString(Dest("p" + std::to_string(p))), parts_[p]);
  }
  EXPECT_EQ(fetcher.idle_connections(), 1u);
  EXPECT_EQ(server_->connections_accepted(), 1u)
      << "the second fetch should reuse the authenticated connection";
}

TEST_F(ShuffleAuthTest, WrongOrMissingTokenGetsNoData) {
  Start(Token("cluster-secret"));
  for (const auto& token : {Token("not-the-secret"), auth::ClusterToken()}) {
    auto r = Fetch(0, token, "x");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied) << r.status().ToString();
    EXPECT_NE(r.status().message().find("authentication failed"), std::string::npos)
        << r.status().ToString();
    EXPECT_FALSE(PathExists(Dest("x")));
  }
  EXPECT_EQ(server_->requests_served(), 0u);
}

TEST_F(ShuffleAuthTest, FetchRequestBeforeAuthenticationIsRefusedAndClosed) {
  Start(Token("cluster-secret"));
  auto fd = shuffle::netio::ConnectTcp("127.0.0.1", server_->port(), 5.0);
  ASSERT_TRUE(fd.ok());
  proto::FetchRequest req;
  req.set_job_id(5);
  req.set_attempt(1);
  req.set_auth_proof(std::string(auth::kProofBytes, 'p'));  // a guess
  ASSERT_TRUE(shuffle::netio::WriteFrameFd(fd->get(), req.SerializeAsString(), 5.0).ok());
  auto frame = shuffle::netio::ReadFrameFd(fd->get(), 1 << 16, 5.0, 5.0);
  ASSERT_TRUE(frame.ok()) << frame.status().ToString();
  proto::FetchReply reply;
  ASSERT_TRUE(reply.ParseFromString(*frame));
  EXPECT_FALSE(reply.ok());
  EXPECT_EQ(reply.length(), 0u);
  EXPECT_NE(reply.error().find(auth::kAuthFailedMessage), std::string::npos) << reply.error();
  char c;
  auto more = shuffle::netio::ReadSome(fd->get(), &c, 1, 5.0);
  EXPECT_TRUE(!more.ok() || *more == 0) << "connection left open after a refusal";
  EXPECT_EQ(server_->requests_served(), 0u);
}

TEST_F(ShuffleAuthTest, TokenHolderRefusesAServerWithoutToken) {
  Start(auth::ClusterToken());
  auto r = Fetch(0, Token("cluster-secret"), "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied) << r.status().ToString();
  auto plain = Fetch(1, auth::ClusterToken(), "y");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(*ReadFileToString(Dest("y")), parts_[1]);
}

// ---- the CLI on a real cluster -------------------------------------------------------

using testing::MrBin;
using testing::Sh;
using testing::ShellQuote;

TEST(ClusterTokenCliTest, TokenClusterRunsAJobAndRefusesOutsiders) {
  TempDir tmp("mr-auth-cli");
  std::string token = WriteTokenFile(tmp.path(), "token", "cluster-secret\n");
  std::string wrong = WriteTokenFile(tmp.path(), "wrong", "guess\n");
  std::string in = JoinPath(tmp.path(), "in.txt");
  ASSERT_TRUE(WriteStringToFile(in, "b a c\na b\nb\n").ok());
  testing::ClusterProcess cluster(JoinPath(tmp.path(), "cluster"), 2,
                                  "--token-file " + ShellQuote(token));
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  std::string master = " --master " + cluster.address();

  std::string out = JoinPath(tmp.path(), "out");
  auto run = Sh(MrBin() + " run wordcount --quiet --reducers 2 --input " + in + " --output " + out +
                master + " --token-file " + ShellQuote(token));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string all = *ReadFileToString(JoinPath(out, "part-r-00000")) +
                    *ReadFileToString(JoinPath(out, "part-r-00001"));
  for (const char* line : {"a\t2\n", "b\t3\n", "c\t1\n"})
    EXPECT_NE(all.find(line), std::string::npos) << all;

  // The refusal names the command (ClientError's prefix): "mr: status: ...".
  auto refused = [](const std::string& command) {
    return "mr: " + command + ": " + std::string(auth::kAuthFailedMessage) + "\n";
  };
  for (const std::string& flags : {std::string(), " --token-file " + ShellQuote(wrong)}) {
    // The cluster refused the request: exit 3, like a cluster that cannot be reached.
    auto status = Sh(MrBin() + " status" + master + flags);
    EXPECT_EQ(status.exit_code, 3);
    EXPECT_EQ(status.err, refused("status"));
    EXPECT_EQ(status.out, "") << "a refused client must learn nothing";
    std::string out2 = JoinPath(tmp.path(), "out2");
    auto submit =
        Sh(MrBin() + " submit wordcount --input " + in + " --output " + out2 + master + flags);
    EXPECT_EQ(submit.exit_code, 3);
    EXPECT_EQ(submit.err, refused("submit"));
    EXPECT_FALSE(PathExists(out2));
  }
  // A worker with the wrong token exits at once with the same line (no retry loop).
  auto worker =
      Sh("timeout 20 " + MrBin() + " worker --work-dir " + JoinPath(tmp.path(), "w") + master +
         " --token-file " + ShellQuote(wrong) + " 2>" + JoinPath(tmp.path(), "worker.err"));
  EXPECT_EQ(worker.exit_code, 3);
  std::string err = *ReadFileToString(JoinPath(tmp.path(), "worker.err"));
  EXPECT_NE(err.find(refused("worker")), std::string::npos) << err;
}

TEST(ClusterTokenCliTest, BadTokenFilesAreUsageErrors) {
  TempDir tmp("mr-auth-cli");
  std::string empty = WriteTokenFile(tmp.path(), "empty", "\n");
  auto r = Sh(MrBin() + " master --state " + JoinPath(tmp.path(), "s") + " --token-file " + empty);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cluster token is empty"), std::string::npos) << r.err;
  auto missing =
      Sh(MrBin() + " status --master 127.0.0.1:1 --token-file " + JoinPath(tmp.path(), "nope"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("does not exist"), std::string::npos) << missing.err;
}

TEST(ClusterTokenCliTest, RefusesListeningBeyondLoopbackWithoutToken) {
  TempDir tmp("mr-auth-cli");
  // Safe by default (issue 29): no master, worker or data server beyond loopback without a token.
  auto master = Sh("timeout -s TERM 2 " + MrBin() + " master --listen 0.0.0.0:0 --state " + JoinPath(tmp.path(), "s"));
  EXPECT_EQ(master.exit_code, 2) << master.err;
  EXPECT_NE(master.err.find("has no --token-file"), std::string::npos) << master.err;
  EXPECT_NE(master.err.find("mr token new"), std::string::npos) << master.err;
  EXPECT_FALSE(PathExists(JoinPath(tmp.path(), "s")));
  auto worker = Sh("timeout -s TERM 2 " + MrBin() + " worker --master 127.0.0.1:1 --host 10.1.2.3 --work-dir " +
                   JoinPath(tmp.path(), "w"));
  EXPECT_EQ(worker.exit_code, 2) << worker.err;
  EXPECT_NE(worker.err.find("has no --token-file"), std::string::npos) << worker.err;
  auto data = Sh("timeout -s TERM 2 " + MrBin() + " data-server --export " + tmp.path() + " --listen 0.0.0.0:0");
  EXPECT_EQ(data.exit_code, 2) << data.err;
  EXPECT_NE(data.err.find("has no --token-file"), std::string::npos) << data.err;
  // With a token it starts (and runs until `timeout` stops it); a status page beyond
  // loopback is said to be read-only and unauthenticated.
  std::string token = WriteTokenFile(tmp.path(), "token", "cluster-secret");
  auto ok = Sh("timeout -s TERM 2 " + MrBin() + " master --listen 0.0.0.0:0 --http 0.0.0.0:0 --state " +
               JoinPath(tmp.path(), "s2") + " --token-file " + token + " 2>&1 | grep -c 'no --token-file'");
  EXPECT_EQ(ok.out, "0\n");
  auto page = Sh("timeout -s TERM 2 " + MrBin() + " master --listen 127.0.0.1:0 --http 0.0.0.0:0 --state " +
                 JoinPath(tmp.path(), "s3") + " 2>&1 | grep -m1 'read-only and unauthenticated'");
  EXPECT_NE(page.out.find("status page on 0.0.0.0:0"), std::string::npos) << page.out;
}

TEST(ClusterTokenCliTest, TokenNewWritesAPrivateRandomToken) {
  TempDir tmp("mr-auth-cli");
  const std::string a = JoinPath(tmp.path(), "a"), b = JoinPath(tmp.path(), "b");
  ASSERT_EQ(Sh(MrBin() + " token new " + a).exit_code, 0);
  ASSERT_EQ(Sh(MrBin() + " token new " + b).exit_code, 0);
  EXPECT_EQ(Sh("stat -c %a " + a).out, "600\n");
  EXPECT_EQ(ReadFileToString(a)->size(), 65u);  // 32 random bytes in hex, and a newline
  EXPECT_NE(*ReadFileToString(a), *ReadFileToString(b));
  auto again = Sh(MrBin() + " token new " + a);  // never replaces a token by accident
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace mr
