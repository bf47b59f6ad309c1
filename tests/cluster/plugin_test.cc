// Plug-in policies (scheduler/policy_plugin.h, docs/policies.md "Plug-in policies"): the
// example plug-in built in the tree (examples/plugin/, libfewest_maps.so) runs a word count on
// a local cluster (its master loaded it; the job's decisions are the plug-in's) and a workload
// in the task-level simulator; a plug-in of another ABI version or layout, one whose factory
// throws, a library that is no plug-in and a file that is no library are refused with one
// line and exit 2.
#include <string>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

#ifndef MR_PLUGIN_DIR
#error "MR_PLUGIN_DIR: the directory of libfewest_maps.so"
#endif
#ifndef MR_TEST_PLUGIN_DIR
#error "MR_TEST_PLUGIN_DIR: the directory of the broken test plug-ins"
#endif

namespace mr::testing {
namespace {

const std::string kExample = std::string(MR_PLUGIN_DIR) + "/libfewest_maps.so";

std::string Broken(const std::string& variant) {
  return std::string(MR_TEST_PLUGIN_DIR) + "/libmr_test_plugin_" + variant + ".so";
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PluginTest, TheExamplePluginRunsAJobOnALocalCluster) {
  TempDir tmp("mr-plugin-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 1u << 20, 17);
  // The embedded cluster's master is a child process: it gets --policy-plugin passed on.
  auto run = Sh(MrBin() + " run wordcount --policy-plugin " + kExample + " --policy fewest-maps --workers 2" +
                " --input " + d + "/a.txt --output " + d + "/wc --split-size 128KiB --reducers 2 --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/a.txt"));
  // The decisions of the job are the plug-in's.
  int notes = 0;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) {
    if (e.at("event") == "decision" && Contains(e.at("note").get<std::string>(), "fewest-maps: job")) ++notes;
  }
  EXPECT_GT(notes, 0) << "no decision of the plug-in in the trace";
}

TEST(PluginTest, TheSimulatorRunsThePluginLikeABuiltIn) {
  const std::string workload = std::string(MR_SOURCE_DIR) + "/examples/workloads/model/fluid-ten-jobs.csv";
  const std::string common = " --workload " + workload + " --workers 4 --map-slots 2 --reduce-slots 1 " +
                             "--shuffle-bandwidth 20MB/s";
  auto sim = Sh(MrBin() + " model tasksim --policy-plugin " + kExample + " --policy fewest-maps" + common);
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_TRUE(Contains(sim.out, "# policy=fewest-maps jobs=10")) << sim.out;
  // Its option is a flag like a built-in's, checked by the plug-in's factory.
  auto bad = Sh(MrBin() + " model tasksim --policy-plugin " + kExample + " --policy fewest-maps --fewest-by x" + common);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(Contains(bad.err, "--fewest-by 'x': expected remaining or total")) << bad.err;
  // A bare file name is the file in the current directory (not a library path lookup).
  auto here = Sh("cd " + std::string(MR_PLUGIN_DIR) + " && " + MrBin() +
                 " model tasksim --policy-plugin libfewest_maps.so --policy fewest-maps" + common);
  EXPECT_EQ(here.exit_code, 0) << here.err;
  // Without the plug-in the name is unknown.
  auto unknown = Sh(MrBin() + " model tasksim --policy fewest-maps" + common);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
}

TEST(PluginTest, WhatAPolicyThrowsInARoundDoesNotEndTheMaster) {
  TempDir tmp("mr-plugin-test");
  const std::string d = tmp.path();
  // Every other round throws; the master logs it, the round has no decision, and the job
  // completes in the rounds between.
  ClusterProcess cluster(d + "/cluster", 1, "--policy-plugin " + Broken("throws_sometimes") + " --policy sometimes");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  auto run = Sh(MrBin() + " run synthetic --maps 4 --map-seconds 0.05 --reducers 1 --quiet --output " + d +
                "/out --master " + cluster.address());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(PathExists(d + "/out/_SUCCESS"));
  const std::string log = ReadFile(d + "/cluster/master.log");
  EXPECT_TRUE(Contains(log, "plug-in policy sometimes threw")) << log;
  EXPECT_TRUE(Contains(log, "went wrong")) << log;
}

TEST(PluginTest, BrokenPluginsAreRefusedWithOneLine) {
  TempDir tmp("mr-plugin-test");
  struct Case {
    std::string library;
    std::string message;
  };
  const Case cases[] = {
      {Broken("wrong_version"), "plug-in ABI version 999, this mr loads version 1: rebuild it against this mrlab's headers"},
      {Broken("wrong_layout"), "built against the headers of mrlab 0.0.9 with another layout than mrlab 0.1.0's"},
      {Broken("throws"), "the student's constructor threw"},
      {Broken("not_a_plugin"), "not an mrlab policy plug-in (no mr_policy_plugin_v1 entry point)"},
      {tmp.path() + "/missing.so", "no such file"},
      {std::string(MR_SOURCE_DIR) + "/README.md", "not a loadable shared library"},
  };
  for (const Case& c : cases) {
    // The master refuses to start: one line, exit 2, no crash.
    auto master = Sh(MrBin() + " master --state " + tmp.path() + "/state --listen 127.0.0.1:0 --policy-plugin " +
                     c.library + " --policy broken");
    EXPECT_EQ(master.exit_code, 2) << c.library << ": " << master.err;
    EXPECT_TRUE(Contains(master.err, "mr: --policy-plugin " + c.library + ": ")) << master.err;
    EXPECT_TRUE(Contains(master.err, c.message)) << master.err;
    EXPECT_EQ(std::count(master.err.begin(), master.err.end(), '\n'), 1) << master.err;
  }
  EXPECT_FALSE(PathExists(tmp.path() + "/state"));
}

}  // namespace
}  // namespace mr::testing
