// Worker labels on the master (a JobTracker on a manual clock, driven through the
// RequestHandler as a TCP session drives it): a registration's labels reach the policy's
// WorkerView, the StatusReply's worker rows and /api/workers, sorted by key, and survive a
// second registration; a registration with bad labels is refused by the message checks
// (count, lengths, characters, a repeated key) before the tracker sees it.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "master/message_checks.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

// Keeps every snapshot; decides nothing.
class RecordingPolicy final : public sched::Scheduler {
 public:
  std::string_view name() const override { return "recording"; }
  sched::Decision Schedule(const sched::Snapshot& snap) override {
    snapshots.push_back(snap);
    return {};
  }
  std::vector<sched::Snapshot> snapshots;
};

proto::Envelope Registration(const std::vector<std::pair<std::string, std::string>>& labels, uint32_t port) {
  proto::Envelope in;
  proto::RegisterWorker* r = in.mutable_register_worker();
  r->set_host("127.0.0.1");
  r->set_shuffle_port(port);
  r->set_map_slots(1);
  r->set_reduce_slots(1);
  r->set_speed(1);
  for (const auto& [k, v] : labels) {
    proto::WorkerLabel* l = r->add_labels();
    l->set_key(k);
    l->set_value(v);
  }
  return in;
}

class WorkerLabelsTest : public ::testing::Test {
 protected:
  WorkerLabelsTest() {
    auto policy = std::make_unique<RecordingPolicy>();
    policy_ = policy.get();
    h_ = std::make_unique<TrackerHarness>(dir_.path(), std::move(policy));
  }
  // Registers on a new worker connection; returns the worker id (0 if refused) and keeps
  // the connection for Beat.
  uint32_t Register(const std::vector<std::pair<std::string, std::string>>& labels, std::string* error = nullptr) {
    conn_ = h_->Connect("worker");
    HandlerOutcome out = h_->handler().Handle(*conn_, Registration(labels, port_++));
    if (error != nullptr) *error = out.reply.error().message();
    return out.close || !out.reply.has_register_reply() ? 0 : out.reply.register_reply().worker_id();
  }
  void Beat(uint32_t id) {
    h_->clock().Advance(1);
    proto::Envelope hb;
    hb.mutable_heartbeat()->set_worker_id(id);
    HandlerOutcome out = h_->handler().Handle(*conn_, hb);
    EXPECT_FALSE(out.close) << out.reply.error().message();
  }
  const sched::WorkerView* Seen(uint32_t id) const {
    if (policy_->snapshots.empty()) return nullptr;
    for (const auto& w : policy_->snapshots.back().workers) {
      if (w.id == id) return &w;
    }
    return nullptr;
  }

  TempDir dir_{"mr-labels-test"};
  RecordingPolicy* policy_ = nullptr;
  std::unique_ptr<TrackerHarness> h_;
  std::unique_ptr<PeerConnection> conn_;
  uint32_t port_ = 41000;
};

TEST_F(WorkerLabelsTest, APolicyStatusAndTheApiSeeTheLabelsSortedByKey) {
  const uint32_t plain = h_->AddWorker(1, 1);
  const uint32_t w = Register({{"rack", "r1"}, {"class", "fast"}});
  ASSERT_NE(w, 0u);
  h_->Submit(h_->SyntheticSpec(4, 1));  // work, so the labelled worker's heartbeat runs a round
  Beat(w);

  const sched::WorkerView* seen = Seen(w);
  ASSERT_NE(seen, nullptr) << "no round ran";
  EXPECT_EQ(seen->labels.ToString(), "class=fast,rack=r1");
  ASSERT_NE(seen->labels.Find("class"), nullptr);
  EXPECT_EQ(*seen->labels.Find("class"), "fast");
  ASSERT_NE(Seen(plain), nullptr);
  EXPECT_TRUE(Seen(plain)->labels.empty());

  auto status = h_->tracker().GetStatus(0);
  ASSERT_TRUE(status.ok());
  bool found = false;
  for (const auto& row : status->worker_rows()) {
    if (row.id() != w) {
      EXPECT_EQ(row.labels_size(), 0);
      continue;
    }
    found = true;
    ASSERT_EQ(row.labels_size(), 2);
    EXPECT_EQ(row.labels(0).key(), "class");
    EXPECT_EQ(row.labels(0).value(), "fast");
    EXPECT_EQ(row.labels(1).key(), "rack");
  }
  EXPECT_TRUE(found);

  auto api = h_->tracker().ApiGet("/api/workers");
  ASSERT_TRUE(api.ok());
  nlohmann::json workers = nlohmann::json::parse(*api);
  ASSERT_EQ(workers.size(), 2u);
  for (const auto& j : workers) {
    if (j["id"] == w) {
      EXPECT_EQ(j["labels"], nlohmann::json({{"class", "fast"}, {"rack", "r1"}}));
    } else {
      EXPECT_EQ(j["labels"], nlohmann::json::object());
    }
  }
}

// After a master restart a worker registers again with the same fixed fields
// (worker/master_link.h): the new record carries the labels again.
TEST_F(WorkerLabelsTest, ASecondRegistrationCarriesTheLabelsAgain) {
  const uint32_t first = Register({{"class", "slow"}});
  const uint32_t again = Register({{"class", "slow"}});
  ASSERT_NE(first, 0u);
  ASSERT_NE(again, 0u);
  EXPECT_NE(first, again);
  h_->Submit(h_->SyntheticSpec(2, 1));
  Beat(again);
  ASSERT_NE(Seen(again), nullptr);
  EXPECT_TRUE(Seen(again)->labels.Has("class", "slow"));
}

TEST_F(WorkerLabelsTest, BadLabelsAreRefusedAndTheWorkerIsNotRegistered) {
  std::vector<std::pair<std::string, std::string>> seventeen;
  for (int i = 0; i < 17; ++i) seventeen.push_back({"k" + std::to_string(i), "v"});
  const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>> cases = {
      {seventeen, "at most 16 labels"},
      {{{"class", "fast"}, {"class", "slow"}}, "given twice"},
      {{{std::string(64, 'k'), "v"}, }, "longer than 63 bytes"},
      {{{"k", std::string(1 << 20, 'v')}}, "longer than 63 bytes"},
      {{{"k", "a b"}}, "value 'a b'"},
      {{{"", "v"}}, "empty key"},
      {{{"k", ""}}, "empty value"},
      {{{"k", std::string("\xff\xfe")}}, "value '?\?'"},
  };
  for (const auto& [labels, expected] : cases) {
    std::string error;
    EXPECT_EQ(Register(labels, &error), 0u) << expected;
    EXPECT_NE(error.find(expected), std::string::npos) << error;
    EXPECT_LT(error.size(), 300u) << "one short line: " << error;
  }
  auto status = h_->tracker().GetStatus(0);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->workers(), 0u);
}

// The message checks on their own (the first line of defence, before the tracker) and the
// registry's Validate (the tracker's own) agree.
TEST(WorkerLabelChecksTest, MessageChecksAndRegistryRefuseTheSame) {
  proto::Envelope ok = Registration({{"class", "fast"}}, 40000);
  EXPECT_TRUE(CheckRegisterWorker(ok.register_worker()).ok());
  EXPECT_TRUE(WorkerRegistry::Validate(ok.register_worker()).ok());
  proto::Envelope twice = Registration({{"a", "1"}, {"a", "2"}}, 40000);
  EXPECT_FALSE(CheckRegisterWorker(twice.register_worker()).ok());
  EXPECT_FALSE(WorkerRegistry::Validate(twice.register_worker()).ok());
}

}  // namespace
}  // namespace mr::master
