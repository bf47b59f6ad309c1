// The data server (a ShuffleServer with exported input directories) and its reader,
// shuffle::RemoteInputs, on loopback: the jobs::InputSource contract over the network (the
// same answers as the local source), the CRC32C of every range, the export boundary (paths
// outside it, "..", symbolic links out of it) and the cluster token (docs/multi-host.md).
#include <unistd.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/auth.h"
#include "common/file_util.h"
#include "jobs/input_source.h"
#include "shuffle/net/input_client.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {
namespace {

auth::ClusterToken Token(const std::string& secret) { return *auth::ClusterToken::FromString(secret); }

class InputServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(MakeDirs(Exported() + "/sub").ok());
    ASSERT_TRUE(MakeDirs(tmp_.path() + "/private").ok());
    ASSERT_TRUE(WriteFileAtomically(Exported() + "/a.txt", Text()).ok());
    ASSERT_TRUE(WriteFileAtomically(Exported() + "/sub/b.txt", "b\n").ok());
    ASSERT_TRUE(WriteFileAtomically(Exported() + "/_hidden", "h\n").ok());
    ASSERT_TRUE(WriteFileAtomically(tmp_.path() + "/private/secret.txt", "secret\n").ok());
    ASSERT_EQ(::symlink((tmp_.path() + "/private/secret.txt").c_str(), (Exported() + "/link.txt").c_str()), 0);
    ShuffleServerOptions o;
    o.input_roots = {Exported()};
    o.token = Token("cluster-secret");
    auto s = ShuffleServer::Start(o);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
  }

  std::string Exported() const { return tmp_.path() + "/data"; }
  std::string Address() const { return "127.0.0.1:" + std::to_string(server_->port()); }
  static std::string Text() {
    std::string t;
    for (int i = 0; i < 50000; ++i) t += "line " + std::to_string(i) + "\n";
    return t;
  }
  std::unique_ptr<RemoteInputs> Reader(const std::string& secret = "cluster-secret") const {
    auto r = RemoteInputs::Create(Address(), secret.empty() ? auth::ClusterToken() : Token(secret));
    EXPECT_TRUE(r.ok());
    return std::move(r).value();
  }

  TempDir tmp_{"mr-input-server"};
  std::unique_ptr<ShuffleServer> server_;
};

TEST_F(InputServerTest, AnswersAsTheLocalSourceDoes) {
  auto remote = Reader();
  const jobs::InputSource& local = jobs::LocalInputs();
  const std::vector<std::string> args = {Exported(), Exported() + "/sub/*.txt"};
  auto r = remote->Resolve(args, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, *local.Resolve(args, false));
  auto files = remote->List({Exported() + "/a.txt", Exported() + "/sub"});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].path, Exported() + "/a.txt");
  EXPECT_EQ((*files)[0].size, Text().size());
  EXPECT_EQ((*files)[0].host, Address());  // splits cut from it name the data server
  EXPECT_EQ((*files)[1].path, Exported() + "/sub/b.txt");
  // Ranges: the middle, one running past the end (short), and length 0.
  auto mid = remote->Read(Exported() + "/a.txt", 1000, 5000);
  ASSERT_TRUE(mid.ok()) << mid.status().ToString();
  EXPECT_EQ((*mid)->data(), Text().substr(1000, 5000));
  auto tail = remote->Read(Exported() + "/a.txt", Text().size() - 10, 100);
  ASSERT_TRUE(tail.ok());
  EXPECT_EQ((*tail)->data(), Text().substr(Text().size() - 10));
  EXPECT_TRUE(remote->Read(Exported() + "/a.txt", 0, 0).ok());
  EXPECT_EQ(remote->bytes_read(), 5010u);
}

TEST_F(InputServerTest, ErrorsKeepTheirCodes) {
  auto remote = Reader();
  EXPECT_EQ(remote->Read(Exported() + "/nope.txt", 0, 10).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(remote->List({Exported() + "/nope"}).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(remote->Read(Exported() + "/a.txt", Text().size() + 1, 10).status().code(), StatusCode::kIoError);
  // The connection is still good after error replies.
  EXPECT_TRUE(remote->Read(Exported() + "/sub/b.txt", 0, 10).ok());
}

TEST_F(InputServerTest, NothingOutsideTheExportedDirectories) {
  auto remote = Reader();
  const std::string secret = tmp_.path() + "/private/secret.txt";
  for (const std::string& path :
       {secret, Exported() + "/../private/secret.txt", Exported() + "/link.txt", std::string("relative.txt")}) {
    auto r = remote->Read(path, 0, 100);
    EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied) << path << ": " << r.status().ToString();
    EXPECT_EQ(remote->List({path}).status().code(), StatusCode::kPermissionDenied) << path;
  }
  // A glob or a directory whose matches leave the export is refused as a whole.
  EXPECT_EQ(remote->Resolve({Exported() + "/*.txt"}, false).status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(remote->List({Exported()}).status().code(), StatusCode::kPermissionDenied);
}

TEST_F(InputServerTest, NoTokenOrAnotherTokenGetsNothing) {
  for (const std::string& secret : {std::string(), std::string("another-secret")}) {
    auto remote = Reader(secret);
    auto r = remote->Read(Exported() + "/a.txt", 0, 100);
    EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied) << r.status().ToString();
    EXPECT_NE(r.status().message().find("authentication failed"), std::string::npos) << r.status().ToString();
    EXPECT_EQ(remote->bytes_read(), 0u);
  }
}

TEST_F(InputServerTest, AShuffleServerWithoutExportsServesNoInputs) {
  ShuffleServerOptions o;
  o.work_dir = tmp_.path() + "/work";
  auto plain = ShuffleServer::Start(o);
  ASSERT_TRUE(plain.ok());
  auto remote = RemoteInputs::Create("127.0.0.1:" + std::to_string((*plain)->port()), {});
  auto r = (*remote)->Read(Exported() + "/a.txt", 0, 10);
  EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(r.status().message().find("exports no inputs"), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace mr::shuffle
