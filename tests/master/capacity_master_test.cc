// --policy capacity on the master (a JobTracker on a manual clock, driven through the
// RequestHandler): a job naming an unknown queue is refused at submit before anything is
// created, and a queue bound to a worker label keeps its job's maps and reducers on the
// workers carrying it — the reducer placement at slow start asks the policy (MayRunOn).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/file_util.h"
#include "nlohmann/json.hpp"
#include "web/pages.h"
#include "scheduler/policies/capacity_scheduler.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

std::unique_ptr<sched::Scheduler> Capacity(const char* text) {
  auto q = sched::CapacityQueues::Parse(text);
  EXPECT_TRUE(q.ok()) << q.status().ToString();
  return std::make_unique<sched::CapacityScheduler>("capacity", std::move(q).value());
}

TEST(CapacityMasterTest, AnUnknownQueueIsRefusedAtSubmitAndNothingIsCreated) {
  TempDir dir("mr-capacity-master-test");
  TrackerHarness h(dir.path(), Capacity("queue small capacity=30\nqueue large capacity=70\n"));
  proto::JobSpec spec = h.SyntheticSpec(2, 1);
  spec.set_queue("huge");
  Result<uint64_t> id = h.tracker().Submit(spec);
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(id.status().message(), "unknown queue 'huge' (known: small, large)");
  EXPECT_FALSE(PathExists(spec.output()));
  auto all = h.tracker().GetStatus(0);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->jobs_size(), 0);
  spec.set_queue("large");
  EXPECT_TRUE(h.tracker().Submit(spec).ok());
}

TEST(CapacityMasterTest, ALabelBoundQueuesMapsAndReducersStayOnItsWorkers) {
  TempDir dir("mr-capacity-master-test");
  TrackerHarness h(dir.path(), Capacity("queue batch capacity=100\nqueue gpu label=class=gpu\n"));
  const uint32_t plain = h.AddWorker(2, 2);
  const uint32_t gpu = h.AddWorker(2, 2, 0, {}, 0, {{"class", "gpu"}});
  proto::JobSpec spec = h.SyntheticSpec(2, 2);
  spec.set_queue("gpu");
  h.Submit(spec);
  h.Beat(plain);
  EXPECT_TRUE(h.worker(plain).maps.empty()) << "a gpu job's map on an unlabelled worker";
  h.Beat(gpu);
  EXPECT_EQ(h.worker(gpu).maps.size(), 2u);
  h.FinishMaps(gpu);
  h.Beat(plain);
  h.Beat(gpu);
  // Least loaded would put one reducer on each worker; the queue owns only the gpu one.
  EXPECT_TRUE(h.worker(plain).placed.empty()) << "a gpu job's reducer placed on an unlabelled worker";
  EXPECT_EQ(h.worker(gpu).placed.size(), 2u);
}

// The cluster page's queue table is /api/cluster's `queues`, row by row: each queue's name,
// share, jobs, and per slot kind "in use / guaranteed", lent and borrowed (docs/status-fields.md).
TEST(CapacityMasterTest, ThePagesQueueTableIsTheApisQueues) {
  TempDir dir("mr-capacity-master-test");
  TrackerHarness h(dir.path(), Capacity("queue small capacity=25\nqueue large capacity=75\n"));
  const uint32_t w = h.AddWorker(4, 2);
  proto::JobSpec spec = h.SyntheticSpec(6, 1);
  spec.set_queue("small");
  h.Submit(spec);
  h.Beat(w);
  ASSERT_FALSE(h.worker(w).maps.empty()) << "small borrows the idle slots";
  auto get = [&](const char* path) { return nlohmann::json::parse(*h.tracker().ApiGet(path)); };
  const nlohmann::json cluster = get("/api/cluster");
  ASSERT_EQ(cluster.at("queues").size(), 2u);
  const nlohmann::json& small = cluster.at("queues").at(0);
  EXPECT_EQ(small.at("name"), "small");
  EXPECT_EQ(small.at("jobs"), 1);
  EXPECT_EQ(small.at("map").at("in_use"), h.worker(w).maps.size());
  EXPECT_DOUBLE_EQ(small.at("map").at("guaranteed").get<double>(), 1.0) << "25% of 4 map slots";
  EXPECT_GT(small.at("map").at("borrowed").get<double>(), 0.0);
  const std::string html = web::ClusterPageHtml(cluster, get("/api/workers"), get("/api/jobs"), h.clock().Now());
  auto fixed1 = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return std::string(b);
  };
  for (const auto& q : cluster.at("queues")) {
    std::string row = "<td>" + q.at("name").get<std::string>() + "</td><td>" + fixed1(q.at("capacity").get<double>()) +
                      "%</td><td class=\"num\">" + std::to_string(q.at("jobs").get<int>()) + "</td>";
    for (const char* kind : {"map", "reduce"}) {
      const nlohmann::json& k = q.at(kind);
      row += "<td class=\"num\">" + std::to_string(k.at("in_use").get<int>()) + " / " +
             fixed1(k.at("guaranteed").get<double>()) + "</td><td class=\"num\">" + fixed1(k.at("lent").get<double>()) +
             "</td><td class=\"num\">" + fixed1(k.at("borrowed").get<double>()) + "</td>";
    }
    EXPECT_NE(html.find(row), std::string::npos) << "no row " << row << " in\n" << html;
  }
}

}  // namespace
}  // namespace mr::master
