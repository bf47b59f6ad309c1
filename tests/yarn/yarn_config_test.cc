// The YARN exports (yarn/fair_allocation.h, yarn/capacity_config.h): written and read back to
// the same pools and queues, validated by xmllint against the element and property names YARN
// reads, and the one-line refusals.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/makespan/batch_jobs_file.h"
#include "model/makespan/batch_plan.h"
#include "scheduler/policies/capacity_queues.h"
#include "scheduler/policies/pool_table.h"
#include "yarn/capacity_config.h"
#include "yarn/fair_allocation.h"

namespace mr::yarn {
namespace {

bool SamePool(const sched::PoolConfig& a, const sched::PoolConfig& b) {
  return a.name == b.name && a.min_maps == b.min_maps && a.min_reduces == b.min_reduces && a.max_maps == b.max_maps &&
         a.max_reduces == b.max_reduces && a.weight == b.weight;
}

constexpr const char* kPools =
    "pool prod min_maps=4 min_reduces=2 max_maps=8 max_reduces=4 weight=2\n"
    "pool adhoc weight=0.25\n"
    "pool etl min_maps=3 weight=1.5\n"
    "pool research min_reduces=5 max_maps=7 max_reduces=6\n";

std::vector<sched::PoolConfig> Pools(const char* text) {
  auto t = sched::PoolTable::Parse(text);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? t->pools() : std::vector<sched::PoolConfig>{};
}

TEST(YarnFairTest, RoundTripGivesTheSamePools) {
  const std::vector<sched::PoolConfig> pools = Pools(kPools);
  ASSERT_EQ(pools.size(), 4u);
  for (YarnContainers c : {YarnContainers{}, YarnContainers{.map_mb = 1536, .reduce_mb = 4096, .map_vcores = 1,
                                                            .reduce_vcores = 2}}) {
    auto xml = FairAllocationXml(pools, {.containers = c, .scheduling_policy = "fair"});
    ASSERT_TRUE(xml.ok()) << xml.status().ToString();
    auto back = ParseFairAllocation(*xml, c, "fair.xml");
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ASSERT_EQ(back->size(), pools.size());
    for (size_t i = 0; i < pools.size(); ++i) {
      EXPECT_TRUE(SamePool((*back)[i].pool, pools[i])) << pools[i].name;
      EXPECT_EQ((*back)[i].scheduling_policy, "fair");
    }
    // And the pools file written from it reads as the same table.
    std::vector<sched::PoolConfig> read;
    for (const FairQueue& q : *back) read.push_back(q.pool);
    std::vector<sched::PoolConfig> again = Pools(PoolsFileText(read).c_str());
    ASSERT_EQ(again.size(), pools.size());
    for (size_t i = 0; i < pools.size(); ++i) EXPECT_TRUE(SamePool(again[i], pools[i]));
  }
}

TEST(YarnFairTest, ResourcesAreMapAndReduceContainers) {
  // prod: 4 maps of 1024 MB + 2 reduces of 2048 MB = 8192 MB, 6 vcores; max 8 + 4: 16384, 12.
  auto xml = FairAllocationXml(Pools(kPools), {});
  ASSERT_TRUE(xml.ok());
  EXPECT_NE(xml->find("<queue name=\"prod\">\n    <weight>2</weight>\n    <minResources>8192 mb, 6 vcores</minResources>\n"
                      "    <maxResources>16384 mb, 12 vcores</maxResources>"),
            std::string::npos)
      << *xml;
  EXPECT_NE(xml->find("<queue name=\"adhoc\">\n    <weight>0.25</weight>\n    <schedulingPolicy>fair"), std::string::npos);
}

TEST(YarnFairTest, ReadsHandWrittenFilesAndNamesWhatItIgnores) {
  const char* xml = R"(<?xml version="1.0"?>
<allocations>
  <queue name="root">
    <queue name="a"><weight>3</weight><minResources>3072mb,2vcores</minResources>
      <maxRunningApps>5</maxRunningApps><schedulingPolicy>fifo</schedulingPolicy></queue>
    <queue name="b"><maxResources>2 vcores, 3072 mb</maxResources></queue>
  </queue>
  <userMaxAppsDefault>4</userMaxAppsDefault>
</allocations>)";
  auto back = ParseFairAllocation(xml, {}, "f.xml");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_TRUE(SamePool((*back)[0].pool, {.name = "a", .min_maps = 1, .min_reduces = 1, .weight = 3}));
  EXPECT_EQ((*back)[0].scheduling_policy, "fifo");
  EXPECT_EQ((*back)[0].ignored, std::vector<std::string>{"maxRunningApps"});
  EXPECT_TRUE(SamePool((*back)[1].pool, {.name = "b", .max_maps = 1, .max_reduces = 1}));
}

std::string FairError(const char* xml) { return ParseFairAllocation(xml, {}, "f.xml").status().message(); }

TEST(YarnFairTest, OneLineRefusals) {
  EXPECT_EQ(FairError("<allocations><queue name=\"a\">"), "f.xml:1: Premature end of data in tag queue line 1");
  EXPECT_EQ(FairError("<configuration/>"), "f.xml: the root element is <configuration>, not <allocations>");
  EXPECT_EQ(FairError("<allocations>\n<queue name=\"a\"><minResources>1000 mb, 1 vcores</minResources></queue>"
                      "</allocations>"),
            "f.xml:2 (queue a, minResources): 1000 mb, 1 vcores is not a whole number of map containers (1024 mb, "
            "1 vcores) and reduce containers (2048 mb, 1 vcores)");
  EXPECT_EQ(FairError("<allocations><queue name=\"a\"><minResources>1 gb</minResources></queue></allocations>"),
            "f.xml:1 (queue a, minResources): '1 gb' is not 'X mb, Y vcores'");
  EXPECT_EQ(FairError("<allocations><queue name=\"a\"><queue name=\"b\"/></queue></allocations>"),
            "f.xml:1: queue a has sub-queues; mrlab's pools are one level");
  EXPECT_EQ(FairError("<allocations><queue name=\"a\"><weight>-1</weight></queue></allocations>"),
            "f.xml:1 (queue a, weight): a weight must be a positive number, not '-1'");
  EXPECT_EQ(FairError("<allocations><queue name=\"a\"><maxResources>1024 mb, 1 vcores</maxResources></queue>"
                      "</allocations>"),
            "f.xml:1: queue a's maxResources allow no map or no reduce container; a pool's 0 means no maximum");
  // Export: containers that cannot be told apart, a maximum YARN cannot express, a bad name.
  auto same = FairAllocationXml(Pools(kPools), {.containers = {.map_mb = 2048, .reduce_mb = 2048}});
  EXPECT_NE(same.status().message().find("same memory per vcore"), std::string::npos);
  EXPECT_EQ(FairAllocationXml(Pools("pool x max_maps=3\n"), {}).status().message(),
            "pool x: YARN's maxResources bounds map and reduce containers together; give both max_maps and "
            "max_reduces, or neither");
  EXPECT_EQ(FairAllocationXml(Pools("pool a.b\n"), {}).status().message(),
            "pool a.b: queue name 'a.b': YARN takes letters, digits, '_' and '-'");
  EXPECT_EQ(FairAllocationXml(Pools(kPools), {.containers = {}, .scheduling_policy = "lifo"}).status().message(),
            "scheduling policy 'lifo': expected fair, fifo or drf");
}

bool SameQueue(const sched::QueueConfig& a, const sched::QueueConfig& b) {
  return a.name == b.name && a.capacity == b.capacity && a.max_capacity == b.max_capacity && !a.bound() && !b.bound();
}

TEST(YarnCapacityTest, RoundTripGivesTheSameQueues) {
  auto queues = sched::CapacityQueues::Parse("queue prod capacity=62.5 max_capacity=80\nqueue dev capacity=25\n"
                                             "queue default capacity=12.5 max_capacity=100\n");
  ASSERT_TRUE(queues.ok()) << queues.status().ToString();
  auto xml = CapacitySchedulerXml(queues->queues(), {});
  ASSERT_TRUE(xml.ok()) << xml.status().ToString();
  EXPECT_NE(xml->find("<name>yarn.scheduler.capacity.root.queues</name>\n    <value>prod,dev,default</value>"),
            std::string::npos);
  std::vector<std::string> ignored;
  auto back = ParseCapacityScheduler(*xml, "cap.xml", &ignored);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(ignored.empty());
  auto again = sched::CapacityQueues::Parse(QueuesFileText(*back));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ASSERT_EQ(again->queues().size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(SameQueue(again->queues()[i], queues->queues()[i])) << i;
}

TEST(YarnCapacityTest, APlansPoolsAreQueuesOfTheirSlotShares) {
  // Scenario 2 of the makespan paper on 30 + 30 slots: BalancedPools splits 20 + 20 and 10 + 10.
  auto jobs = model::ParseBatchJobs(R"({"jobs": [
      {"name": "J1", "maps": 30, "map_seconds": 4, "reduces": 30, "reduce_seconds": 5},
      {"name": "J2", "maps": 30, "map_seconds": 1, "reduces": 30, "reduce_seconds": 4},
      {"name": "J3", "maps": 20, "map_seconds": 30, "reduces": 20, "reduce_seconds": 4},
      {"name": "J4", "maps": 20, "map_seconds": 6, "reduces": 20, "reduce_seconds": 30},
      {"name": "J5", "maps": 30, "map_seconds": 2, "reduces": 30, "reduce_seconds": 3}]})",
                                    "jobs.json");
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  auto plan = model::MakeBatchPlan(*jobs, {.workers = 30, .map_slots = 30, .reduce_slots = 30});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->pools.size(), 2u);
  auto xml = CapacitySchedulerXml(PlanQueues(*plan), {plan->cluster.map_slots, plan->cluster.reduce_slots});
  ASSERT_TRUE(xml.ok()) << xml.status().ToString();
  auto back = ParseCapacityScheduler(*xml, "cap.xml");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), 2u);
  double sum = 0;
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ((*back)[i].name, plan->pool_names[i]);
    // The percent read back is the pool's share of the map slots: slots * 100 / 30.
    EXPECT_NEAR((*back)[i].capacity * plan->cluster.map_slots / 100, plan->pools[i].slots.map_slots, 1e-3);
    sum += (*back)[i].capacity;
  }
  EXPECT_DOUBLE_EQ(sum, 100);  // the rounded thirds still sum to 100, as YARN requires
}

TEST(YarnCapacityTest, OneLineRefusals) {
  auto bound = sched::CapacityQueues::Parse("queue gpu label=kind=gpu\nqueue rest capacity=100\n");
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ(CapacitySchedulerXml(bound->queues(), {}).status().message(),
            "queue gpu is bound to the label kind=gpu: YARN's node labels are not exported (a queue with a capacity)");
  auto partial = sched::CapacityQueues::Parse("queue a capacity=30\nqueue b capacity=20\n");
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(CapacitySchedulerXml(partial->queues(), {}).status().message(),
            "the queues' capacities sum to 50%; YARN needs root's queues to sum to 100%: add a queue (e.g. default) "
            "with the remaining 50%");
  auto slots = sched::CapacityQueues::Parse("queue a map_slots=2 reduce_slots=2\nqueue b map_slots=2 reduce_slots=2\n");
  ASSERT_TRUE(slots.ok()) << slots.status().ToString();
  EXPECT_EQ(CapacitySchedulerXml(slots->queues(), {}).status().message(),
            "queue a is given in slots: give the cluster's --map-slots");
  EXPECT_EQ(ParseCapacityScheduler("<configuration/>", "c.xml").status().message(),
            "c.xml: no yarn.scheduler.capacity.root.queues");
  const char* no_cap = "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value>"
                       "</property></configuration>";
  EXPECT_EQ(ParseCapacityScheduler(no_cap, "c.xml").status().message(), "c.xml: queue a has no capacity");
}

// xmllint validates what we write against the schemas of the element and property names YARN
// reads, and refuses a file with a misspelt name (so the check can fail).
class XmllintTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("xmllint --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint not installed (libxml2-utils)";
  }
  int Validate(const std::string& xml, const char* schema) {
    const std::string path = dir_.path() + "/config.xml";
    EXPECT_TRUE(WriteStringToFile(path, xml).ok());
    const std::string cmd = std::string("xmllint --noout --schema ") + MR_SOURCE_DIR + "/yarn/schema/" + schema + " " +
                            path + " >/dev/null 2>&1";
    return std::system(cmd.c_str());
  }
  TempDir dir_;
};

TEST_F(XmllintTest, TheExportsValidateAndAMisspeltNameDoesNot) {
  auto fair = FairAllocationXml(Pools(kPools), {});
  ASSERT_TRUE(fair.ok());
  EXPECT_EQ(Validate(*fair, "fair-scheduler.xsd"), 0);
  std::string bad = *fair;
  bad.replace(bad.find("minResources>"), 13, "minResource>");
  bad.replace(bad.find("</minResources>"), 15, "</minResource>");
  EXPECT_NE(Validate(bad, "fair-scheduler.xsd"), 0);

  auto queues = sched::CapacityQueues::Parse("queue a capacity=40 max_capacity=60\nqueue b capacity=60\n");
  ASSERT_TRUE(queues.ok());
  auto cap = CapacitySchedulerXml(queues->queues(), {});
  ASSERT_TRUE(cap.ok());
  EXPECT_EQ(Validate(*cap, "capacity-scheduler.xsd"), 0);
  std::string wrong = *cap;
  wrong.replace(wrong.find("maximum-capacity"), 16, "max-capacity");
  EXPECT_NE(Validate(wrong, "capacity-scheduler.xsd"), 0);
}

}  // namespace
}  // namespace mr::yarn
