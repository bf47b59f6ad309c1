#include "master/status_json.h"

#include <string>
#include <vector>

#include "master/job.h"

namespace mr::master {

nlohmann::json JobStatusToJson(const proto::JobStatus& st) {
  nlohmann::json j = {{"id", JobIdString(st.job_id())},
                      {"name", st.name()},
                      {"job", st.job()},
                      {"state", st.state()},
                      {"phase", st.phase()},
                      {"maps_total", st.maps_total()},
                      {"maps_done", st.maps_done()},
                      {"maps_running", st.maps_running()},
                      {"reduces_total", st.reduces_total()},
                      {"reduces_done", st.reduces_done()},
                      {"reduces_running", st.reduces_running()},
                      {"shuffle_bytes_total", st.shuffle_bytes_total()},
                      {"shuffle_bytes_fetched", st.shuffle_bytes_fetched()},
                      {"submit_time", st.submit_time()},
                      {"start_time", st.start_time()},
                      {"end_time", st.end_time()},
                      {"error", st.error()},
                      {"output", st.output()},
                      {"share", st.share()},
                      {"shuffle_rate", st.shuffle_rate()},
                      {"shuffle_rate_mean", st.shuffle_rate_mean()},
                      {"policy", st.policy()},
                      {"queue", st.queue()},
                      {"sojourn_time", st.sojourn_time()},
                      {"progress",
                       {{"map", st.map_progress()},
                        {"shuffle", st.shuffle_progress()},
                        {"reduce", st.reduce_progress()}}},
                      {"input_bytes", st.input_bytes()},
                      {"input_bytes_read", st.input_bytes_read()},
                      {"shuffle_bytes_expected", st.shuffle_bytes_expected()},
                      {"reduce_bytes_merged", st.reduce_bytes_merged()},
                      {"estimate",
                       {{"source", st.estimate_source()},
                        {"map_seconds", st.est_map_seconds()},
                        {"shuffle_bytes", st.est_shuffle_bytes()},
                        {"reduce_source", st.reduce_estimate_source()},
                        {"reduce_seconds", st.est_reduce_seconds()},
                        {"used_by_policy", !st.estimate_ignored()}}},
                      {"shuffle_bytes_waiting", st.shuffle_bytes_waiting()},
                      {"trace", st.trace_path()},
                      {"counters", nlohmann::json::object()}};
  for (const auto& c : st.counters()) j["counters"][c.name()] = c.value();
  j["allocations"] = nlohmann::json::array();
  for (const proto::PolicyAllocation& a : st.allocations()) {
    j["allocations"].push_back({{"slot", a.slot()},           {"slots", a.slots()},   {"min_slots", a.min_slots()},
                                {"max_slots", a.max_slots()}, {"rank", a.rank()},     {"order", a.order()},
                                {"metric", a.metric()},       {"predicted", a.predicted()},
                                {"completion", a.completion()}, {"time", a.time()}});
  }
  j["last_failed_attempt"] = nlohmann::json();
  if (st.has_last_failed_attempt()) {
    const proto::FailedAttempt& f = st.last_failed_attempt();
    j["last_failed_attempt"] = {{"task", f.task()},   {"attempt", f.attempt()}, {"worker", f.worker()},
                                {"worker_name", f.worker_name()},
                                {"time", f.time()},   {"error", f.error()},     {"stderr_tail", f.stderr_tail()}};
  }
  // Only when a task set one (a streaming program's reporter:status:), so other jobs' JSON is unchanged.
  if (st.task_status_lines_size() > 0) {
    j["task_status_lines"] = std::vector<std::string>(st.task_status_lines().begin(), st.task_status_lines().end());
  }
  std::optional<double> ratio = CombineRatio(st);
  j["combine_ratio"] = ratio ? nlohmann::json(*ratio) : nlohmann::json();
  return j;
}

nlohmann::json LabelsToJson(const WorkerLabels& labels) {
  nlohmann::json j = nlohmann::json::object();
  for (const Label& l : labels) j[l.key] = l.value;
  return j;
}

nlohmann::json WorkerRowToJson(const proto::WorkerRow& w) {
  nlohmann::json labels = nlohmann::json::object();
  for (const proto::WorkerLabel& l : w.labels()) labels[l.key()] = l.value();
  return {{"id", w.id()},
          {"name", w.name()},
          {"host", w.host()},
          {"map_slots", w.map_slots()},
          {"reduce_slots", w.reduce_slots()},
          {"unified_slots", w.unified_slots()},
          {"running_map", w.running_map()},
          {"running_reduce", w.running_reduce()},
          {"running_unified", w.running_unified()},
          {"speed", w.speed()},
          {"queued_maps", w.queued_maps()},
          {"map_task_rate", w.map_task_rate()},
          {"labels", std::move(labels)}};
}

nlohmann::json QueueUseToJson(const sched::QueueUse& q) {
  auto slots = [](const sched::QueueSlots& s) {
    return nlohmann::json{{"guaranteed", s.guaranteed}, {"max", s.max},    {"in_use", s.in_use},
                          {"lent", s.lent},             {"borrowed", s.borrowed}};
  };
  return {{"name", q.name},
          {"label", q.label},
          {"capacity", q.capacity},
          {"max_capacity", q.max_capacity},
          {"jobs", q.jobs},
          {"map", slots(q.map)},
          {"reduce", slots(q.reduce)}};
}

std::optional<double> CombineRatio(const proto::JobStatus& st) {
  int64_t in = 0, out = 0;
  for (const auto& c : st.counters()) {
    if (c.name() == "combine.records_in") in = c.value();
    if (c.name() == "combine.records_out") out = c.value();
  }
  if (in <= 0) return std::nullopt;
  return static_cast<double>(out) / static_cast<double>(in);
}

}  // namespace mr::master
