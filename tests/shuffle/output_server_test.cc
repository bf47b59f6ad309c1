// The data server's output half (ShuffleServer::output_roots) and its client,
// shuffle::RemoteOutputs, on loopback: the jobs::OutputStore contract over the network (the
// same answers as the local store), a pushed file appearing only whole (a push cut mid-way
// leaves no file under its name; a range whose bytes fail their CRC32C is refused), the
// export boundary (outside it, "..", a symbolic link out of it, a root itself) and the
// cluster token (docs/multi-host.md, "Outputs").
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "common/auth.h"
#include "common/file_util.h"
#include "jobs/output_store.h"
#include "shuffle/net/output_client.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {
namespace {

auth::ClusterToken Token(const std::string& secret) { return *auth::ClusterToken::FromString(secret); }

class OutputServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(MakeDirs(Root()).ok());
    ASSERT_TRUE(MakeDirs(tmp_.path() + "/private").ok());
    ASSERT_EQ(::symlink((tmp_.path() + "/private").c_str(), (Root() + "/out-link").c_str()), 0);
    ShuffleServerOptions o;
    o.output_roots = {Root()};
    o.token = Token("cluster-secret");
    auto s = ShuffleServer::Start(o);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
  }

  std::string Root() const { return tmp_.path() + "/results"; }
  std::string Address() const { return "127.0.0.1:" + std::to_string(server_->port()); }
  std::unique_ptr<RemoteOutputs> Store(const std::string& secret = "cluster-secret") const {
    auto r = RemoteOutputs::Create(Address(), secret.empty() ? auth::ClusterToken() : Token(secret), 5);
    EXPECT_TRUE(r.ok());
    return std::move(r).value();
  }
  // More than two ranges, not a multiple of the range size.
  static std::string Big() {
    std::string t;
    while (t.size() < 2 * kMaxOutputWriteBytes + 12345) t += "word " + std::to_string(t.size()) + "\n";
    return t;
  }

  TempDir tmp_{"mr-output-server"};
  std::unique_ptr<ShuffleServer> server_;
};

TEST_F(OutputServerTest, AJobsOutputLifeAsTheLocalStoreLivesIt) {
  auto remote = Store();
  const std::string out = Root() + "/job";
  EXPECT_EQ(*remote->State(out), jobs::OutputState::kAbsent);
  ASSERT_TRUE(remote->MakeDirs(out + "/_temporary").ok());
  EXPECT_EQ(*remote->State(out), jobs::OutputState::kUnclaimed);
  EXPECT_EQ(*jobs::LocalOutputs().State(out), jobs::OutputState::kUnclaimed);
  ASSERT_TRUE(remote->MakeDirs(out + "/_temporary/attempt-r-00000-1").ok());
  EXPECT_EQ(*remote->State(out), jobs::OutputState::kTaken);
  // A task's file pushed from its local copy, then committed by rename.
  const std::string local = tmp_.path() + "/part-local";
  ASSERT_TRUE(WriteStringToFile(local, Big()).ok());
  const std::string attempt_file = out + "/_temporary/attempt-r-00000-1/part-r-00000";
  ASSERT_TRUE(remote->PutFile(local, attempt_file).ok());
  EXPECT_EQ(*ReadFileToString(attempt_file), Big());
  EXPECT_FALSE(PathExists(attempt_file + ".partial"));
  ASSERT_TRUE(remote->Rename(attempt_file, out + "/part-r-00000").ok());
  EXPECT_EQ(*ReadFileToString(out + "/part-r-00000"), Big());
  EXPECT_EQ(remote->Rename(attempt_file, out + "/part-r-00001").code(), StatusCode::kNotFound);
  // _SUCCESS (empty) and a small file from memory.
  ASSERT_TRUE(remote->Put(out + "/_SUCCESS", "").ok());
  EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
  ASSERT_TRUE(remote->Put(out + "/_trace.jsonl", "{}\n").ok());
  EXPECT_EQ(*ReadFileToString(out + "/_trace.jsonl"), "{}\n");
  ASSERT_TRUE(remote->RemoveAll(out + "/_temporary").ok());
  EXPECT_FALSE(PathExists(out + "/_temporary"));
  ASSERT_TRUE(remote->RemoveAll(out).ok());
  EXPECT_FALSE(PathExists(out));
  EXPECT_TRUE(IsDirectory(Root()));
}

TEST_F(OutputServerTest, APushCutMidwayLeavesNoFileUnderItsName) {
  auto remote = Store();
  const std::string dir = Root() + "/job/_temporary/attempt-r-00000-1";
  ASSERT_TRUE(remote->MakeDirs(dir).ok());
  const std::string local = tmp_.path() + "/part-local";
  ASSERT_TRUE(WriteStringToFile(local, Big()).ok());
  ::setenv("MR_TEST_CUT_OUTPUT_PUSH", "attempt-r-00000-1/", 1);
  Status cut = remote->PutFile(local, dir + "/part-r-00000");
  ::unsetenv("MR_TEST_CUT_OUTPUT_PUSH");
  EXPECT_EQ(cut.code(), StatusCode::kNetworkError) << cut.ToString();
  EXPECT_FALSE(PathExists(dir + "/part-r-00000"));
  // Nor does a FINISH over what a cut push left: the server checks size and checksum.
  EXPECT_FALSE(remote->Rename(dir + "/part-r-00000", Root() + "/job/part-r-00000").ok());
  EXPECT_FALSE(PathExists(Root() + "/job/part-r-00000"));
  // The next attempt's push, on a fresh connection, goes through.
  ASSERT_TRUE(remote->PutFile(local, dir + "/part-r-00000").ok());
  EXPECT_EQ(*ReadFileToString(dir + "/part-r-00000"), Big());
}

TEST_F(OutputServerTest, RefusesPathsOutsideItsRootsAndPeersWithoutTheToken) {
  auto remote = Store();
  EXPECT_EQ(remote->MakeDirs(tmp_.path() + "/elsewhere").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(remote->MakeDirs(Root() + "/../elsewhere").code(), StatusCode::kPermissionDenied);
  EXPECT_FALSE(PathExists(tmp_.path() + "/elsewhere"));
  EXPECT_EQ(remote->Put(Root() + "/out-link/x", "x").code(), StatusCode::kPermissionDenied);
  EXPECT_FALSE(PathExists(tmp_.path() + "/private/x"));
  EXPECT_FALSE(PathExists(tmp_.path() + "/private/x.partial"));
  EXPECT_EQ(remote->RemoveAll(Root()).code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(IsDirectory(Root()));
  EXPECT_EQ(remote->Rename(Root() + "/a", tmp_.path() + "/b").code(), StatusCode::kPermissionDenied);
  auto stranger = Store("");
  EXPECT_FALSE(stranger->MakeDirs(Root() + "/job").ok());
  auto wrong = Store("another-secret");
  EXPECT_FALSE(wrong->MakeDirs(Root() + "/job").ok());
  EXPECT_FALSE(PathExists(Root() + "/job"));
}

TEST_F(OutputServerTest, AnInputOnlyServerRefusesOutput) {
  ShuffleServerOptions o;
  o.input_roots = {Root()};
  auto s = ShuffleServer::Start(o);
  ASSERT_TRUE(s.ok());
  auto remote = RemoteOutputs::Create("127.0.0.1:" + std::to_string((*s)->port()), auth::ClusterToken(), 5);
  ASSERT_TRUE(remote.ok());
  EXPECT_EQ((*remote)->MakeDirs(Root() + "/job").code(), StatusCode::kPermissionDenied);
  EXPECT_FALSE(PathExists(Root() + "/job"));
}

}  // namespace
}  // namespace mr::shuffle
