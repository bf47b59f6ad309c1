#include "experiment/cluster_shape.h"

#include <gtest/gtest.h>

#include "experiment/experiment_file.h"

namespace mr::experiment {
namespace {

TEST(ClusterShapeTest, OneSimulatorWorkerPerLiveWorkerInGroupOrder) {
  ClusterShape shape;
  shape.slow_start = 0.5;
  shape.groups.push_back({2, 2, 1, 1.0, 10e6});
  shape.groups.push_back({1, 1, 0, 0.5, 5e6});
  auto spec = ToClusterSpec(shape);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->worker_specs.size(), 3u);
  EXPECT_EQ(spec->workers, 3);
  EXPECT_EQ(spec->worker_specs[0].map_slots, 2);
  EXPECT_EQ(spec->worker_specs[1].reduce_slots, 1);
  EXPECT_EQ(spec->worker_specs[2].speed, 0.5);
  EXPECT_EQ(spec->worker_specs[2].shuffle_bandwidth, 5e6);
  EXPECT_EQ(spec->slow_start, 0.5);
}

TEST(ClusterShapeTest, UnifiedSlotsReachTheSimulator) {
  ClusterShape shape;
  shape.groups.push_back({2, 0, 0, 1.0, 10e6, /*unified_slots=*/2});
  shape.groups.push_back({1, 1, 1, 1.0, 10e6, /*unified_slots=*/1});
  auto spec = ToClusterSpec(shape);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->worker_specs.size(), 3u);
  EXPECT_EQ(spec->worker_specs[0].unified_slots, 2);
  EXPECT_EQ(spec->worker_specs[0].map_slots, 0);
  EXPECT_EQ(spec->worker_specs[1].unified_slots, 2);
  EXPECT_EQ(spec->worker_specs[2].unified_slots, 1);
  EXPECT_EQ(spec->worker_specs[2].map_slots, 1);
  EXPECT_EQ(model::MapCapacity(*spec), 2 * 2 + 1 + 1);
}

TEST(ClusterShapeTest, StragglersReachTheSimulatorWithOneSeedPerWorker) {
  ClusterShape shape;
  WorkerGroup plain{1, 1, 1, 1.0, 10e6};
  WorkerGroup slow{2, 1, 1, 0.5, 10e6};
  slow.straggler.enabled = true;
  slow.straggler.offset = 2;
  slow.straggler.rate = 0.5;
  slow.straggler.seed = 7;
  shape.groups = {plain, slow};
  auto spec = ToClusterSpec(shape);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->worker_specs.size(), 3u);
  EXPECT_FALSE(spec->worker_specs[0].straggler.enabled);
  EXPECT_TRUE(spec->worker_specs[1].straggler.enabled);
  EXPECT_EQ(spec->worker_specs[1].straggler.offset, 2);
  EXPECT_EQ(spec->worker_specs[1].straggler.seed, 7u);  // worker k of the group: seed + k
  EXPECT_EQ(spec->worker_specs[2].straggler.seed, 8u);
}

TEST(ClusterShapeTest, LabelsReachEveryWorkerOfTheGroup) {
  ClusterShape shape;
  WorkerGroup fast{2, 1, 1, 1.0, 10e6};
  fast.labels = WorkerLabels::Parse({"class=fast"}).value();
  WorkerGroup plain{1, 1, 1, 1.0, 10e6};
  shape.groups = {fast, plain};
  auto spec = ToClusterSpec(shape);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->worker_specs.size(), 3u);
  EXPECT_TRUE(spec->worker_specs[0].labels.Has("class", "fast"));
  EXPECT_TRUE(spec->worker_specs[1].labels.Has("class", "fast"));
  EXPECT_TRUE(spec->worker_specs[2].labels.empty());
}

TEST(ClusterShapeTest, RefusesWhatCannotBeSimulated) {
  ClusterShape empty;
  EXPECT_FALSE(ToClusterSpec(empty).ok());
  ClusterShape uncapped;
  uncapped.groups.push_back({1, 1, 1, 1.0, 0});
  auto r = ToClusterSpec(uncapped);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("shuffle cap"), std::string::npos);
}

// kind: netns (issue 29): the link rate is the simulator's shuffle bandwidth of a worker
// with no software cap; with both, the smaller one limits.
TEST(ClusterShapeTest, ANetnsClustersLinkIsTheSimulatorsShuffleBandwidth) {
  ClusterShape shape;
  shape.kind = ClusterKind::kNetns;
  shape.link_rate = 20e6;
  shape.groups.push_back({2, 1, 1, 1.0, 0});
  shape.groups.push_back({1, 1, 1, 1.0, 5e6});
  shape.groups.push_back({1, 1, 1, 1.0, 50e6});
  auto spec = ToClusterSpec(shape);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->worker_specs.size(), 4u);
  EXPECT_EQ(spec->worker_specs[0].shuffle_bandwidth, 20e6);
  EXPECT_EQ(spec->worker_specs[1].shuffle_bandwidth, 20e6);
  EXPECT_EQ(spec->worker_specs[2].shuffle_bandwidth, 5e6);
  EXPECT_EQ(spec->worker_specs[3].shuffle_bandwidth, 20e6);
}

Result<Experiment> Parse(const std::string& cluster) {
  return ParseExperiment("name: t\ncluster:\n" + cluster +
                             "workload: {generator: synthetic, params: {jobs: 2}}\npolicies: [fifo]\n",
                         "t.yaml");
}

TEST(ClusterShapeTest, ParsesTheNetnsKindAndItsLink) {
  auto e = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 3}]\n");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->cluster.kind, ClusterKind::kNetns);
  EXPECT_EQ(e->cluster.link_rate, 20e6);
  EXPECT_EQ(e->cluster.groups[0].shuffle_bandwidth, 0);  // no software cap
  auto local = Parse("  workers: [{count: 1, shuffle_bandwidth: 20MB/s}]\n");
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  EXPECT_EQ(local->cluster.kind, ClusterKind::kLocal);
}

TEST(ClusterShapeTest, RefusesANetnsClusterWithoutALinkAndALinkWithoutOne) {
  auto no_link = Parse("  kind: netns\n  workers: [{count: 3}]\n");
  ASSERT_FALSE(no_link.ok());
  EXPECT_NE(no_link.status().message().find("needs link"), std::string::npos) << no_link.status().message();
  auto local_link = Parse("  link: 20MB/s\n  workers: [{count: 3, shuffle_bandwidth: 1MB/s}]\n");
  ASSERT_FALSE(local_link.ok());
  EXPECT_NE(local_link.status().message().find("kind: netns only"), std::string::npos);
  auto unknown = Parse("  kind: cloud\n  link: 20MB/s\n  workers: [{count: 3}]\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("local or netns"), std::string::npos);
}

TEST(ClusterShapeTest, ShuffleLinkRateIsAutoOffOrADeclaredRate) {
  auto e = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 1}, {count: 1, shuffle_link_rate: 'off'},"
                 " {count: 1, shuffle_link_rate: 20MB/s}]\n");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->cluster.groups[0].shuffle_link_rate, "auto");  // the worker's default
  EXPECT_EQ(e->cluster.groups[1].shuffle_link_rate, "off");
  EXPECT_EQ(e->cluster.groups[2].shuffle_link_rate, "20MB/s");
  auto bad = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 1, shuffle_link_rate: fast}]\n");
  EXPECT_FALSE(bad.ok());
  auto both = Parse("  workers: [{count: 1, shuffle_bandwidth: 1MB/s, shuffle_link_rate: 20MB/s}]\n");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.status().message().find("not both"), std::string::npos) << both.status().message();
}

// mr worker --fetches-per-source, per group: 2 unless given, 1..16.
TEST(ClusterShapeTest, FetchesPerSourceDefaultsToTwo) {
  auto e = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 1}, {count: 1, fetches_per_source: 1}]\n");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->cluster.groups[0].fetches_per_source, 2);
  EXPECT_EQ(e->cluster.groups[1].fetches_per_source, 1);
  EXPECT_FALSE(Parse("  workers: [{count: 1, fetches_per_source: 0}]\n").ok());
  EXPECT_FALSE(Parse("  workers: [{count: 1, fetches_per_source: 17}]\n").ok());
}

// mr worker --receiver-shares, per group: on unless given.
TEST(ClusterShapeTest, ReceiverSharesDefaultsToOn) {
  auto e = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 1}, {count: 1, receiver_shares: false}]\n");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE(e->cluster.groups[0].receiver_shares);
  EXPECT_FALSE(e->cluster.groups[1].receiver_shares);
  EXPECT_FALSE(Parse("  workers: [{count: 1, receiver_shares: 3}]\n").ok());
}

// cluster.receiver_links: on|off; on by default for netns (its hosts receive through a shaped
// link), off for local (a software cap limits only the senders); it reaches the simulator.
TEST(ClusterShapeTest, ReceiverLinksDefaultToOnForNetnsAndOffForLocal) {
  auto netns = Parse("  kind: netns\n  link: 20MB/s\n  workers: [{count: 3}]\n");
  ASSERT_TRUE(netns.ok()) << netns.status().ToString();
  EXPECT_TRUE(netns->cluster.receiver_links);
  EXPECT_TRUE(ToClusterSpec(netns->cluster)->receiver_links);
  auto local = Parse("  workers: [{count: 1, shuffle_bandwidth: 20MB/s}]\n");
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  EXPECT_FALSE(local->cluster.receiver_links);
  EXPECT_FALSE(ToClusterSpec(local->cluster)->receiver_links);
  auto netns_off = Parse("  kind: netns\n  link: 20MB/s\n  receiver_links: off\n  workers: [{count: 3}]\n");
  ASSERT_TRUE(netns_off.ok()) << netns_off.status().ToString();
  EXPECT_FALSE(netns_off->cluster.receiver_links);
  EXPECT_FALSE(ToClusterSpec(netns_off->cluster)->receiver_links);
  auto local_on = Parse("  receiver_links: on\n  workers: [{count: 1, shuffle_bandwidth: 20MB/s}]\n");
  ASSERT_TRUE(local_on.ok()) << local_on.status().ToString();
  EXPECT_TRUE(ToClusterSpec(local_on->cluster)->receiver_links);
}

TEST(ClusterShapeTest, ReceiverLinksIsOnOrOff) {
  auto bad = Parse("  kind: netns\n  link: 20MB/s\n  receiver_links: maybe\n  workers: [{count: 3}]\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("must be on or off"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("receiver_links"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(Parse("  receiver_links: [on]\n  workers: [{count: 1, shuffle_bandwidth: 1MB/s}]\n").ok());
}

}  // namespace
}  // namespace mr::experiment
