#include "experiment/cluster_shape.h"

#include <gtest/gtest.h>

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

TEST(ClusterShapeTest, RefusesWhatCannotBeSimulated) {
  ClusterShape empty;
  EXPECT_FALSE(ToClusterSpec(empty).ok());
  ClusterShape uncapped;
  uncapped.groups.push_back({1, 1, 1, 1.0, 0});
  auto r = ToClusterSpec(uncapped);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("shuffle cap"), std::string::npos);
}

}  // namespace
}  // namespace mr::experiment
