// The fixture of the status-field tests (status_fields_test: a job's fields;
// worker_status_fields_test: a worker's and the cluster's): a JobTracker driven through its
// RequestHandler on a manual clock under the policy of the test's parameter (fifo, which
// reads no size estimate, and maxsrpt, an SRPT policy that does), and the helpers both use.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "scheduler/scheduler.h"
#include "tests/master/tracker_harness.h"

namespace mr::master::testing {

class StatusFieldsFixture : public ::testing::TestWithParam<const char*> {
 protected:
  StatusFieldsFixture() {
    auto policy = sched::CreateScheduler(GetParam());
    EXPECT_TRUE(policy.ok()) << GetParam();
    h_ = std::make_unique<TrackerHarness>(dir_.path(), std::move(*policy));
  }
  bool SrptPolicy() const { return std::string(GetParam()) != "fifo"; }

  TempDir dir_{"mr-status-fields-test"};
  std::unique_ptr<TrackerHarness> h_;
};

// Reports the first durations.size() maps w runs as succeeded, map i after durations[i]
// seconds (worker clock), each with combine counters (in, out).
inline void FinishMapsTaking(TrackerHarness& h, uint32_t w, const std::vector<double>& durations,
                      std::pair<int64_t, int64_t> combine = {0, 0}) {
  std::vector<proto::TaskReport> reports;
  EXPECT_GE(h.worker(w).maps.size(), durations.size());
  for (size_t i = 0; i < std::min(durations.size(), h.worker(w).maps.size()); ++i) {
    proto::TaskReport r = TrackerHarness::MapReport(h.worker(w).maps[i], proto::SUCCEEDED);
    r.set_start_time(1000);
    r.set_end_time(1000 + durations.at(i));
    for (auto [name, v] : {std::pair{"combine.records_in", combine.first}, {"combine.records_out", combine.second}}) {
      proto::Counter* c = r.add_counters();
      c->set_name(name);
      c->set_value(v);
    }
    reports.push_back(std::move(r));
  }
  auto& maps = h.worker(w).maps;
  maps.erase(maps.begin(), maps.begin() + static_cast<std::ptrdiff_t>(reports.size()));
  h.Beat(w, std::move(reports));
}

inline nlohmann::json WorkerJson(TrackerHarness& h, uint32_t w) {
  auto api = h.tracker().ApiGet("/api/workers");
  EXPECT_TRUE(api.ok());
  for (const auto& row : nlohmann::json::parse(*api)) {
    if (row.at("id") == w) return row;
  }
  ADD_FAILURE() << "no worker " << w << " in " << *api;
  return {};
}

inline proto::WorkerRow WorkerRowOf(TrackerHarness& h, uint32_t w) {
  auto conn = h.Connect("client");
  proto::Envelope in;
  in.mutable_status();
  const proto::StatusReply r = h.handler().Handle(*conn, in).reply.status_reply();
  for (const auto& row : r.worker_rows()) {
    if (row.id() == w) return row;
  }
  ADD_FAILURE() << "no worker row " << w;
  return {};
}

}  // namespace mr::master::testing
