#include "tracker_harness.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/version.h"
#include "master/job_paths.h"

namespace mr::master::testing {

std::unique_ptr<sched::Scheduler> Fifo() {
  auto s = sched::CreateScheduler("fifo");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

TrackerOptions TrackerHarness::DefaultOptions() {
  TrackerOptions o;
  o.worker_timeout = 10;
  return o;
}

TrackerHarness::TrackerHarness(const std::string& dir, std::unique_ptr<sched::Scheduler> scheduler,
                               std::unique_ptr<StateStore> store, TrackerOptions options)
    : dir_(dir) {
  EXPECT_TRUE(MakeDirs(JoinPath(dir_, "state/traces")).ok());
  std::string policy(scheduler->name());
  tracker_ = std::make_unique<JobTracker>(&clock_, std::move(scheduler), policy, JoinPath(dir_, "state"),
                                          std::move(store), options);
  handler_ = std::make_unique<RequestHandler>(tracker_.get(), RequestHandlerOptions{});
}

std::unique_ptr<PeerConnection> TrackerHarness::Connect(const std::string& role) {
  auto conn = std::make_unique<PeerConnection>("test " + role);
  proto::Envelope hello;
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->set_role(role);
  HandlerOutcome out = handler_->Handle(*conn, hello);
  EXPECT_FALSE(out.close);
  EXPECT_TRUE(out.reply.hello_reply().accepted());
  EXPECT_TRUE(conn->ready());
  return conn;
}

uint32_t TrackerHarness::AddWorker(uint32_t map_slots, uint32_t reduce_slots, uint32_t unified_slots,
                                   std::vector<proto::HeldMapOutput> held, uint32_t port,
                                   const std::vector<std::pair<std::string, std::string>>& labels) {
  FakeWorker w;
  w.conn = Connect("worker");
  proto::Envelope in;
  proto::RegisterWorker* r = in.mutable_register_worker();
  r->set_host("127.0.0.1");
  r->set_shuffle_port(port != 0 ? port : next_port_++);
  r->set_map_slots(map_slots);
  r->set_reduce_slots(reduce_slots);
  r->set_unified_slots(unified_slots);
  r->set_speed(1);
  for (auto& h : held) *r->add_held_outputs() = std::move(h);
  for (const auto& [key, value] : labels) {
    proto::WorkerLabel* l = r->add_labels();
    l->set_key(key);
    l->set_value(value);
  }
  HandlerOutcome out = handler_->Handle(*w.conn, in);
  EXPECT_FALSE(out.close) << out.reply.error().message();
  EXPECT_TRUE(out.reply.has_register_reply());
  w.id = out.reply.register_reply().worker_id();
  w.registration = *r;
  for (const auto& d : out.reply.register_reply().delete_outputs()) w.deleted.push_back(d);
  uint32_t id = w.id;
  workers_[id] = std::move(w);
  return id;
}

proto::JobSpec TrackerHarness::SyntheticSpec(uint32_t maps, uint32_t reduces, double slow_start) {
  proto::JobSpec spec;
  spec.set_job("synthetic");
  spec.set_num_maps(maps);
  spec.set_reducers(reduces);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(slow_start);
  spec.set_output(JoinPath(dir_, "out" + std::to_string(++outputs_)));
  return spec;
}

uint64_t TrackerHarness::Submit(const proto::JobSpec& spec) {
  if (!client_) client_ = Connect("client");
  proto::Envelope in;
  *in.mutable_submit()->mutable_spec() = spec;
  HandlerOutcome out = handler_->Handle(*client_, in);
  EXPECT_TRUE(out.reply.has_submit_reply()) << out.reply.error().message();
  uint64_t id = out.reply.submit_reply().job_id();
  specs_[id] = spec;
  return id;
}

proto::JobStatus TrackerHarness::Status(uint64_t job) {
  if (!client_) client_ = Connect("client");
  proto::Envelope in;
  in.mutable_status()->set_job_id(job);
  HandlerOutcome out = handler_->Handle(*client_, in);
  EXPECT_EQ(out.reply.status_reply().jobs_size(), 1) << out.reply.error().message();
  return out.reply.status_reply().jobs_size() == 1 ? out.reply.status_reply().jobs(0) : proto::JobStatus();
}

proto::HeartbeatReply TrackerHarness::Beat(uint32_t id, std::vector<proto::TaskReport> reports) {
  return Beat(id, std::move(reports), proto::Heartbeat());
}

proto::HeartbeatReply TrackerHarness::Beat(uint32_t id, std::vector<proto::TaskReport> reports, proto::Heartbeat base) {
  FakeWorker& w = workers_.at(id);
  proto::Envelope in;
  proto::Heartbeat* hb = in.mutable_heartbeat();
  *hb = std::move(base);
  hb->set_worker_id(id);
  for (auto& r : reports) *hb->add_reports() = std::move(r);
  HandlerOutcome out = handler_->Handle(*w.conn, in);
  EXPECT_FALSE(out.close) << out.reply.error().message();
  const proto::HeartbeatReply& reply = out.reply.heartbeat_reply();
  for (const auto& a : reply.assignments()) {
    if (a.kind() == proto::MAP) w.maps.push_back(a);
    else if (a.place_only()) w.placed.push_back(a);
    else w.reduces.push_back(a);
  }
  for (const auto& l : reply.map_outputs()) w.locations.push_back(l);
  for (const auto& k : reply.kills()) w.kills.push_back(k);
  for (const auto& d : reply.delete_outputs()) w.deleted.push_back(d);
  return reply;
}

proto::TaskReport TrackerHarness::MapReport(const proto::Assignment& a, proto::TaskState state) {
  proto::TaskReport r;
  r.set_job_id(a.job_id());
  r.set_kind(proto::MAP);
  r.set_index(a.index());
  r.set_attempt(a.attempt());
  r.set_state(state);
  r.set_start_time(1000);
  r.set_end_time(1001);
  if (state == proto::SUCCEEDED) {
    r.set_bytes_out(100ull * a.spec().reducers());
    for (uint32_t i = 0; i < a.spec().reducers(); ++i) r.add_partition_bytes(100);
  }
  if (state == proto::FAILED) r.set_error("exit 1");
  return r;
}

proto::TaskReport TrackerHarness::ReduceReport(const proto::Assignment& a, proto::TaskState state,
                                               uint32_t maps_fetched) {
  proto::TaskReport r;
  r.set_job_id(a.job_id());
  r.set_kind(proto::REDUCE);
  r.set_index(a.index());
  r.set_attempt(a.attempt());
  r.set_state(state);
  r.set_maps_fetched(maps_fetched);
  r.set_start_time(1000);
  r.set_end_time(1001);
  return r;
}

proto::HeartbeatReply TrackerHarness::FinishMaps(uint32_t id) {
  std::vector<proto::TaskReport> reports;
  for (const auto& a : workers_.at(id).maps) reports.push_back(MapReport(a, proto::SUCCEEDED));
  workers_.at(id).maps.clear();
  return Beat(id, std::move(reports));
}

void TrackerHarness::RunReduces(uint32_t id, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    FakeWorker& w = workers_.at(id);
    std::vector<proto::TaskReport> reports;
    for (const auto& a : w.placed) reports.push_back(ReduceReport(a, proto::READY, a.num_maps()));
    w.placed.clear();
    for (const auto& a : w.reduces) {
      // The attempt writes its output where the master's commit renames it from.
      EXPECT_TRUE(MakeDirs(std::filesystem::path(a.temp_output()).parent_path().string()).ok());
      EXPECT_TRUE(WriteStringToFile(a.temp_output(), "r" + std::to_string(a.index()) + "\n").ok());
      reports.push_back(ReduceReport(a, proto::SUCCEEDED, a.num_maps()));
    }
    w.reduces.clear();
    Beat(id, std::move(reports));
  }
}

}  // namespace mr::master::testing
