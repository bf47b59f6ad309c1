// shuffle::DataServerClients (RemoteInputsCache, RemoteOutputsCache): one client per server,
// made once on first use; a server whose client cannot be made is not kept.
#include "shuffle/net/data_server_link.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "shuffle/net/input_client.h"
#include "shuffle/net/output_client.h"

namespace mr::shuffle {
namespace {

// A client whose Create counts its calls and refuses a server named "bad".
struct CountingClient {
  static inline std::atomic<int> created{0};
  static Result<std::unique_ptr<CountingClient>> Create(const std::string& server, auth::ClusterToken token) {
    if (server == "bad") return Status::InvalidArgument("bad server " + server);
    ++created;
    auto c = std::make_unique<CountingClient>();
    c->server = server;
    c->token_enabled = token.enabled();
    return c;
  }
  std::string server;
  bool token_enabled = false;
};

TEST(DataServerClientsTest, OneClientPerServerMadeOnce) {
  CountingClient::created = 0;
  auto token = auth::ClusterToken::FromString("s3cret");
  ASSERT_TRUE(token.ok());
  DataServerClients<CountingClient> clients(*token);
  auto a = clients.For("h1:1");
  auto b = clients.For("h2:1");
  auto a2 = clients.For("h1:1");
  ASSERT_TRUE(a.ok() && b.ok() && a2.ok());
  EXPECT_EQ(*a, *a2);
  EXPECT_NE(*a, *b);
  EXPECT_EQ((*a)->server, "h1:1");
  EXPECT_TRUE((*b)->token_enabled);  // the cache's token is handed to every client
  EXPECT_EQ(CountingClient::created.load(), 2);
}

TEST(DataServerClientsTest, ARefusedServerIsNotKept) {
  DataServerClients<CountingClient> clients(auth::ClusterToken{});
  for (int i = 0; i < 2; ++i) {
    auto r = clients.For("bad");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(DataServerClientsTest, ConcurrentFirstUsesMakeOneClient) {
  CountingClient::created = 0;
  DataServerClients<CountingClient> clients(auth::ClusterToken{});
  std::vector<const CountingClient*> got(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = *clients.For("h:7"); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(CountingClient::created.load(), 1);
  for (const CountingClient* c : got) EXPECT_EQ(c, got[0]);
}

// The real caches: an address that does not parse is refused by the client's Create.
TEST(DataServerClientsTest, TheRealCachesRefuseABadAddress) {
  RemoteInputsCache inputs(auth::ClusterToken{});
  RemoteOutputsCache outputs(auth::ClusterToken{});
  EXPECT_EQ(inputs.For("no-port").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(outputs.For("no-port").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::shuffle
