#include "master/http_server.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/web/fake_provider.h"
#include "tests/web/http_client.h"

namespace mr::master {
namespace {

using webtest::Get;
using webtest::SendRaw;

class HttpServerTest : public testing::Test {
 protected:
  void SetUp() override {
    auto s = HttpServer::Start(HostPort{"127.0.0.1", 0}, &provider_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(*s);
    addr_ = server_->address();
  }
  webtest::FakeProvider provider_{webtest::HandBuiltTrace(), "RUNNING"};
  std::unique_ptr<HttpServer> server_;
  HostPort addr_;
};

TEST_F(HttpServerTest, BindsAnEphemeralLoopbackPort) {
  EXPECT_EQ(addr_.host, "127.0.0.1");
  EXPECT_NE(addr_.port, 0);
}

TEST_F(HttpServerTest, ClusterPage) {
  auto r = Get(addr_, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("Content-Type: text/html"), std::string::npos);
  EXPECT_NE(r.body.find("<h1>Cluster"), std::string::npos);
  EXPECT_NE(r.body.find("/jobs/job-000001"), std::string::npos);
  EXPECT_EQ(Get(addr_, "/?refresh=1").status, 200);
}

TEST_F(HttpServerTest, ApiPassesThroughJson) {
  auto r = Get(addr_, "/api/jobs");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("Content-Type: application/json"), std::string::npos);
  auto j = nlohmann::json::parse(r.body);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j[0]["id"], "job-000001");
  auto t = nlohmann::json::parse(Get(addr_, "/api/jobs/1/trace").body);
  EXPECT_EQ(t.size(), webtest::HandBuiltTrace().size());
}

TEST_F(HttpServerTest, JobPageRendersTheChart) {
  for (const char* id : {"1", "job-000001"}) {
    auto r = Get(addr_, std::string("/jobs/") + id);
    EXPECT_EQ(r.status, 200) << id;
    EXPECT_NE(r.body.find("<svg"), std::string::npos);
    EXPECT_NE(r.body.find("class=\"bar fetch\""), std::string::npos);
    EXPECT_NE(r.body.find("data-live=\"1\""), std::string::npos);
  }
}

TEST_F(HttpServerTest, UnknownPathsAre404) {
  auto api = Get(addr_, "/api/nope");
  EXPECT_EQ(api.status, 404);
  EXPECT_TRUE(nlohmann::json::parse(api.body).contains("error"));
  EXPECT_EQ(Get(addr_, "/api/jobs/7").status, 404);
  EXPECT_EQ(Get(addr_, "/jobs/7").status, 404);
  EXPECT_EQ(Get(addr_, "/jobs/..%2F").status, 404);
  EXPECT_EQ(Get(addr_, "/nothing-here").status, 404);
}

TEST_F(HttpServerTest, OnlyGet) {
  auto r = SendRaw(addr_, "POST /api/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.headers.find("Allow: GET"), std::string::npos);
  EXPECT_EQ(SendRaw(addr_, "DELETE /jobs/1 HTTP/1.1\r\nHost: x\r\n\r\n").status, 405);
}

TEST_F(HttpServerTest, OversizedRequestsAreRejected) {
  std::string big_header = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(64 * 1024, 'a') + "\r\n\r\n";
  EXPECT_EQ(SendRaw(addr_, big_header).status, 413);
  std::string big_body = "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + std::string(1000, 'b');
  EXPECT_EQ(SendRaw(addr_, big_body).status, 413);
  // The server is still fine afterwards.
  EXPECT_EQ(Get(addr_, "/api/cluster").status, 200);
}

TEST_F(HttpServerTest, MalformedRequestIs400) {
  EXPECT_EQ(SendRaw(addr_, "NOT HTTP AT ALL\r\n\r\n").status, 400);
}

TEST_F(HttpServerTest, KeepAliveServesSeveralRequests) {
  std::string two = "GET /api/cluster HTTP/1.1\r\nHost: x\r\n\r\nGET /api/workers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  auto r = SendRaw(addr_, two);
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("HTTP/1.1 200 OK"), std::string::npos);  // the second reply follows the first
}

TEST_F(HttpServerTest, StopIsIdempotentAndClosesThePort) {
  server_->Stop();
  server_->Stop();
  EXPECT_EQ(Get(addr_, "/").status, 0);
}

TEST(HttpServerStartTest, PortInUseIsAnError) {
  webtest::FakeProvider p({});
  auto a = HttpServer::Start(HostPort{"127.0.0.1", 0}, &p);
  ASSERT_TRUE(a.ok());
  auto b = HttpServer::Start((*a)->address(), &p);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kNetworkError);
  EXPECT_FALSE(HttpServer::Start(HostPort{"127.0.0.1", 0}, nullptr).ok());
}

class FailingProvider : public StatusProvider {
 public:
  Result<std::string> Get(std::string_view) override { return Status::Unavailable("master is restarting"); }
};

TEST(HttpServerStartTest, ProviderErrorsBecome503) {
  FailingProvider p;
  auto s = HttpServer::Start(HostPort{"127.0.0.1", 0}, &p);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Get((*s)->address(), "/api/cluster").status, 503);
  auto page = Get((*s)->address(), "/");
  EXPECT_EQ(page.status, 503);
  EXPECT_NE(page.body.find("master is restarting"), std::string::npos);
}

}  // namespace
}  // namespace mr::master
