// What `mr cluster start` and the embedded `mr run` pass on to the daemons they start
// (ExplicitArgs): only what the user gave, every value of a repeatable flag, read back by
// the child's parser as the same values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/daemon_options.h"
#include "worker/worker.h"

namespace mr::cli {
namespace {

po::variables_map Parse(const po::options_description& group, std::vector<std::string> words) {
  po::variables_map vm;
  po::store(po::command_line_parser(words).options(group).run(), vm);
  po::notify(vm);
  return vm;
}

TEST(ExplicitArgsTest, OnlyTheGivenFlagsReadBackTheSame) {
  po::options_description g = WorkerSlotOptionGroup();
  po::variables_map vm = Parse(g, {"--speed", "0.25", "--map-slots", "3"});
  std::vector<std::string> args = ExplicitArgs(vm, g);
  EXPECT_EQ(args, (std::vector<std::string>{"--map-slots", "3", "--speed", "0.25"}));
  po::variables_map child = Parse(g, args);
  EXPECT_EQ(child["map-slots"].as<uint32_t>(), 3u);
  EXPECT_EQ(child["speed"].as<double>(), 0.25);
  EXPECT_EQ(FirstExplicit(vm, g), "map-slots");
  EXPECT_EQ(FirstExplicit(Parse(g, {}), g), "");
}

// --shuffle-link-rate: auto (the default), off, or a declared rate; never with a cap.
TEST(WorkerSlotOptionsTest, ShuffleLinkRate) {
  po::options_description g = WorkerSlotOptionGroup();
  using Mode = worker::WorkerOptions::LinkMode;
  worker::WorkerOptions o;
  ASSERT_TRUE(ApplyWorkerSlotOptions(Parse(g, {}), &o).ok());
  EXPECT_EQ(o.shuffle_link, Mode::kEstimate);
  ASSERT_TRUE(ApplyWorkerSlotOptions(Parse(g, {"--shuffle-link-rate", "off"}), &o).ok());
  EXPECT_EQ(o.shuffle_link, Mode::kOff);
  ASSERT_TRUE(ApplyWorkerSlotOptions(Parse(g, {"--shuffle-link-rate", "20MB/s"}), &o).ok());
  EXPECT_EQ(o.shuffle_link, Mode::kDeclared);
  EXPECT_EQ(o.shuffle_link_rate, 20e6);
  // The declared link's capacity: its TCP payload (1448 of 1514 bytes) x the cruise gain 0.97.
  EXPECT_DOUBLE_EQ(worker::ShuffleCapacityOfLink(20e6), 20e6 * 1448.0 / 1514.0 * 0.97);
  Status bad = ApplyWorkerSlotOptions(Parse(g, {"--shuffle-link-rate", "fast"}), &o);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  Status both = ApplyWorkerSlotOptions(Parse(g, {"--shuffle-link-rate", "20MB/s", "--shuffle-bandwidth", "1MB/s"}), &o);
  EXPECT_NE(both.message().find("not both"), std::string::npos) << both.ToString();
}

// `mr worker --ephemeral-work-dir` (what `mr run` gives its embedded workers) turns off the
// fsync of map output indexes (WorkerOptions::sync_map_outputs, whose effect the slot
// runner's test counts); without it a worker syncs them.
TEST(WorkerStorageOptionsTest, EphemeralWorkDirTurnsOffTheIndexSync) {
  po::options_description g = WorkerStorageOptionGroup();
  worker::WorkerOptions o;
  ASSERT_TRUE(ApplyWorkerStorageOptions(Parse(g, {"--work-dir", "w"}), &o).ok());
  EXPECT_TRUE(o.sync_map_outputs);
  EXPECT_EQ(o.work_dir, "w");
  EXPECT_EQ(o.host, "127.0.0.1");
  ASSERT_TRUE(ApplyWorkerStorageOptions(Parse(g, {"--work-dir", "w", "--ephemeral-work-dir"}), &o).ok());
  EXPECT_FALSE(o.sync_map_outputs);
}

// A repeatable flag (a row of type std::vector<std::string>, as a worker's labels would be)
// is passed on once per value, in order.
TEST(ExplicitArgsTest, EveryValueOfARepeatableFlag) {
  po::options_description g("g");
  g.add_options()("tag", po::value<std::vector<std::string>>()->composing(), "repeatable")
      ("fetch-threads", po::value<uint32_t>()->default_value(32), "one value");
  po::variables_map vm = Parse(g, {"--tag", "zone=a", "--fetch-threads", "4", "--tag", "disk=ssd"});
  std::vector<std::string> args = ExplicitArgs(vm, g);
  EXPECT_EQ(args, (std::vector<std::string>{"--tag", "zone=a", "--tag", "disk=ssd", "--fetch-threads", "4"}));
  EXPECT_EQ(Parse(g, args)["tag"].as<std::vector<std::string>>(), (std::vector<std::string>{"zone=a", "disk=ssd"}));
}

}  // namespace
}  // namespace mr::cli
