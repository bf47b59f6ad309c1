// The shuffle server tests' fixture: a map output written as a map task writes it, a
// server over it on loopback, and where fetched partitions go. Shared by
// shuffle_server_test.cc (fetching and errors), shuffle_server_limits_test.cc (bandwidth
// and stopping) and shuffle_admission_test.cc (silent connections).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle::shuffle_test {

inline constexpr double kTimeout = 5.0;

struct FakeMapOutput {
  std::vector<std::string> partitions;  // expected bytes per partition
  std::vector<uint64_t> records;
};

// Writes a map output the way a map task does: records per partition, index last.
FakeMapOutput WriteMapOutput(const std::string& dir, uint64_t job, uint32_t map, uint32_t attempt,
                             uint32_t r, int records_per_partition, size_t value_bytes);

class ShuffleServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MakeDirs(JoinPath(tmp_.path(), "out")).ok() || (ADD_FAILURE(), true);
    output_ = WriteMapOutput(work(), 7, 3, 1, 5, 200, 100);
  }

  std::unique_ptr<ShuffleServer> StartServer(double bandwidth = 0) {
    ShuffleServerOptions opts;
    opts.work_dir = work();
    opts.bandwidth = bandwidth;
    auto server = ShuffleServer::Start(opts);
    EXPECT_TRUE(server.ok()) << server.status().ToString();
    return std::move(server).value();
  }

  FetchTarget Target(const ShuffleServer& s, uint32_t partition, uint64_t job = 7, uint32_t map = 3,
                     uint32_t attempt = 1) {
    return FetchTarget{"127.0.0.1", s.port(), job, map, attempt, partition};
  }
  std::string work() const { return JoinPath(tmp_.path(), "work"); }
  std::string Dest(const std::string& name) const { return JoinPath(JoinPath(tmp_.path(), "out"), name); }

  TempDir tmp_{"shufflenet"};
  FakeMapOutput output_;
};

}  // namespace mr::shuffle::shuffle_test
