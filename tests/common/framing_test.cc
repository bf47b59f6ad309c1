#include "common/framing.h"

#include <thread>

#include <asio.hpp>
#include <gtest/gtest.h>

namespace mr {
namespace {

TEST(FrameDecoderTest, DecodesFramesSplitAtEveryByte) {
  std::string wire = EncodeFrame("hello") + EncodeFrame("") + EncodeFrame(std::string(1000, 'x'));
  FrameDecoder dec;
  std::vector<std::string> got;
  for (char c : wire) {
    ASSERT_TRUE(dec.Feed(&c, 1).ok());
    while (auto f = dec.Next()) got.push_back(*f);
  }
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], "hello");
  EXPECT_EQ(got[1], "");
  EXPECT_EQ(got[2], std::string(1000, 'x'));
  EXPECT_EQ(dec.buffered(), 0u);
}

TEST(FrameDecoderTest, TruncatedFrameYieldsNothing) {
  std::string wire = EncodeFrame("abcdef");
  wire.resize(wire.size() - 2);
  FrameDecoder dec;
  ASSERT_TRUE(dec.Feed(wire.data(), wire.size()).ok());
  EXPECT_FALSE(dec.Next().has_value());
  EXPECT_EQ(dec.buffered(), wire.size());
}

TEST(FrameDecoderTest, OversizedFrameRejectedBeforePayload) {
  FrameDecoder dec(/*max_frame_bytes=*/100);
  std::string header = EncodeFrame(std::string(101, 'y')).substr(0, kFrameHeaderBytes);
  Status s = dec.Feed(header.data(), header.size());
  EXPECT_EQ(s.code(), StatusCode::kProtocolError);
  EXPECT_TRUE(dec.failed());
  EXPECT_FALSE(dec.Next().has_value());
  EXPECT_FALSE(dec.Feed("x", 1).ok());
}

TEST(FrameDecoderTest, HugeAnnouncedLengthDoesNotAllocate) {
  FrameDecoder dec;
  const char header[4] = {'\xff', '\xff', '\xff', '\xff'};
  EXPECT_EQ(dec.Feed(header, 4).code(), StatusCode::kProtocolError);
}

class SocketPair {
 public:
  SocketPair() : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}), a_(io_), b_(io_) {
    std::thread t([this] { acceptor_.accept(b_); });
    a_.connect(acceptor_.local_endpoint());
    t.join();
  }
  asio::ip::tcp::socket& a() { return a_; }
  asio::ip::tcp::socket& b() { return b_; }

 private:
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  asio::ip::tcp::socket a_, b_;
};

TEST(FramingSocketTest, RoundTripOverTcp) {
  SocketPair p;
  ASSERT_TRUE(WriteFrame(p.a(), "ping").ok());
  auto r = ReadFrame(p.b());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "ping");
}

TEST(FramingSocketTest, TruncatedFrameIsNetworkError) {
  SocketPair p;
  std::string wire = EncodeFrame("0123456789");
  asio::write(p.a(), asio::buffer(wire.data(), wire.size() - 3));
  p.a().close();
  auto r = ReadFrame(p.b());
  EXPECT_EQ(r.status().code(), StatusCode::kNetworkError);
}

TEST(FramingSocketTest, OversizedFrameIsProtocolError) {
  SocketPair p;
  ASSERT_TRUE(WriteFrame(p.a(), std::string(2048, 'z')).ok());
  auto r = ReadFrame(p.b(), /*max_frame_bytes=*/1024);
  EXPECT_EQ(r.status().code(), StatusCode::kProtocolError);
}

}  // namespace
}  // namespace mr
