// A scratch directory holding the suite's Streaming scripts (tests/hadoop/data, copied
// without their execute bits, as a user's checkout may have them) and an hdfs:// root,
// and `mr hadoop ...` run from it as a user would run `hadoop ...`.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {

class HadoopSuite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("hadoop-suite");
    d_ = dir_->path();
    const char* src = std::getenv("MR_SOURCE_DIR");
    ASSERT_NE(src, nullptr);
    ASSERT_EQ(Sh("cp " + std::string(src) + "/tests/hadoop/data/* " + d_ + "/ && chmod a-x " + d_ + "/*").exit_code, 0);
  }
  // `hadoop ARGS` in the scratch directory, hdfs:// under d_/hdfs, a 2-worker embedded cluster.
  CommandResult Hadoop(const std::string& args) {
    return Sh("cd " + d_ + " && MR_MASTER= MR_HDFS_ROOT=" + d_ + "/hdfs " + MrBin() + " hadoop " + args);
  }
  void Write(const std::string& name, const std::string& text) {
    ASSERT_TRUE(WriteStringToFile(d_ + "/" + name, text).ok());
  }
  std::string Part(const std::string& out, int n) {
    char name[32];
    std::snprintf(name, sizeof name, "/part-%05d", n);
    return ReadFile(d_ + "/" + out + name);
  }

  std::unique_ptr<TempDir> dir_;
  std::string d_;
};

}  // namespace mr::testing
