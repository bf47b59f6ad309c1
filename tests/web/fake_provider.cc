#include "tests/web/fake_provider.h"

#include <cstdlib>

#include "web/trace_reader.h"

namespace mr::webtest {

using nlohmann::json;

namespace {

json Ev(const char* event, double t, json fields = json::object()) {
  fields["event"] = event;
  fields["t"] = 1000.0 + t;
  fields["job"] = "job-000001";
  return fields;
}

json AttemptEnd(const char* task, int worker, const char* slot, double start, double end, uint64_t out_bytes) {
  return Ev("attempt_end", end,
            {{"task", task}, {"attempt", 1}, {"worker", worker}, {"slot", slot}, {"start", 1000.0 + start},
             {"bytes_in", 1000}, {"bytes_out", out_bytes}, {"records_in", 10}, {"records_out", 20},
             {"status", "ok"}});
}

json FetchEnd(const char* reducer, const char* map, int src, int dst, double start, double end, uint64_t bytes) {
  return Ev("fetch_end", end,
            {{"task", reducer}, {"map", map}, {"src_worker", src}, {"worker", dst}, {"start", 1000.0 + start},
             {"bytes", bytes}, {"status", "ok"}});
}

}  // namespace

std::vector<json> HandBuiltTrace() {
  std::vector<json> t;
  t.push_back(Ev("job_submit", 0, {{"name", "wc"}, {"kind", "wordcount"}, {"maps", 4}, {"reduces", 2},
                                   {"policy", "fifo"}, {"output", "/tmp/out"}}));
  t.push_back(Ev("job_start", 0.1));
  t.push_back(Ev("share", 0.1, {{"share", 1.0}}));
  t.push_back(Ev("decision", 0.1, {{"worker", 1}, {"policy", "fifo"}, {"note", "first"}, {"tasks", {"m-00000"}}}));
  // w1 has 2 map slots' worth of overlap: m-00000 [0.1,1.1], m-00001 [0.2,1.0], m-00003 [1.1,2.0].
  t.push_back(AttemptEnd("m-00000", 1, "map", 0.1, 1.1, 4000));
  t.push_back(AttemptEnd("m-00001", 1, "map", 0.2, 1.0, 4000));
  t.push_back(AttemptEnd("m-00002", 2, "map", 0.1, 1.5, 4000));
  t.push_back(AttemptEnd("m-00003", 1, "map", 1.1, 2.0, 4000));
  t.push_back(Ev("reduce_place", 1.0, {{"task", "r-00000"}, {"worker", 1}, {"maps_done", 1}}));
  t.push_back(Ev("reduce_place", 1.0, {{"task", "r-00001"}, {"worker", 2}, {"maps_done", 1}}));
  // Link w1→w1: three fetches, two overlapping. Link w1→w2: two. Link w2→w1: one.
  t.push_back(FetchEnd("r-00000", "m-00001", 1, 1, 1.0, 1.4, 2000));
  t.push_back(FetchEnd("r-00000", "m-00000", 1, 1, 1.2, 1.6, 2000));
  t.push_back(FetchEnd("r-00000", "m-00003", 1, 1, 2.0, 2.2, 2000));
  t.push_back(FetchEnd("r-00001", "m-00001", 1, 2, 1.0, 1.5, 2000));
  t.push_back(FetchEnd("r-00001", "m-00003", 1, 2, 2.0, 2.5, 2000));
  t.push_back(FetchEnd("r-00000", "m-00002", 2, 1, 1.5, 1.5, 1000));  // zero-length
  t.push_back(Ev("share", 2.0, {{"share", 0.5}}));
  t.push_back(Ev("attempt_start", 2.2, {{"task", "r-00000"}, {"attempt", 1}, {"worker", 1}, {"slot", "reduce"}}));
  t.push_back(AttemptEnd("r-00000", 1, "reduce", 2.2, 3.0, 500));
  t.push_back(Ev("attempt_start", 2.5, {{"task", "r-00001"}, {"attempt", 1}, {"worker", 2}, {"slot", "reduce"}}));
  json failed = AttemptEnd("r-00001", 2, "reduce", 2.5, 2.8, 0);
  failed["status"] = "failed";
  failed["error"] = "disk full";
  t.push_back(failed);
  t.push_back(Ev("attempt_start", 2.9, {{"task", "r-00001"}, {"attempt", 2}, {"worker", 2}, {"slot", "reduce"}}));
  json ok2 = AttemptEnd("r-00001", 2, "reduce", 2.9, 3.5, 600);
  ok2["attempt"] = 2;
  t.push_back(ok2);
  t.push_back(Ev("job_end", 3.6, {{"status", "ok"}, {"error", ""}, {"response_time", 3.6},
                                  {"counters", {{"map_output_records", 80}, {"reduce_output_records", 30}}}}));
  return t;
}

std::vector<json> RealTrace() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  std::string dir = src != nullptr ? src : MR_WEB_TEST_SOURCE_DIR;
  auto events = web::ReadTraceFile(dir + "/tests/web/data/wordcount_3workers.jsonl");
  return events.ok() ? *events : std::vector<json>{};
}

FakeProvider::FakeProvider(std::vector<json> trace, std::string state) : trace_(std::move(trace)) {
  job_ = {{"id", "job-000001"}, {"name", "wordcount"}, {"job", "wordcount"}, {"state", state},
          {"phase", state == "RUNNING" ? "shuffle" : ""},
          {"progress", {{"map", 1.0}, {"shuffle", state == "RUNNING" ? 0.5 : 1.0}, {"reduce", state == "RUNNING" ? 0.0 : 1.0}}},
          {"shuffle_bytes_expected", 16550446.0}, {"maps_total", 16}, {"maps_done", 16},
          {"maps_running", 0}, {"reduces_total", 3}, {"reduces_done", 3}, {"reduces_running", 0},
          {"shuffle_bytes_total", 16550446}, {"shuffle_bytes_fetched", 16550446}, {"submit_time", 1000.0},
          {"start_time", 1000.05}, {"end_time", 1003.51}, {"error", ""}, {"output", "/tmp/wc"}, {"share", 1.0},
          {"policy", "fifo"}, {"sojourn_time", 2.25}, {"estimate", {{"source", "none"}, {"map_seconds", 0.0}, {"shuffle_bytes", 0.0}}},
          {"counters", {{"map.records_in", 186494}, {"reduce.records_out", 276305}}}, {"trace", "/tmp/t.jsonl"}};
  for (const auto& ev : trace_) {
    if (ev.value("event", "") == "job_end" && ev.contains("counters")) job_["counters"] = ev["counters"];
  }
}

Result<std::string> FakeProvider::Get(std::string_view path) {
  if (path == "/api/cluster") {
    return json{{"policy", "fifo"}, {"placement", "dep"}, {"workers", 3}, {"map_slots", 3}, {"map_busy", 1}, {"reduce_slots", 3},
                {"reduce_busy", 0}, {"unified_slots", 0}, {"unified_busy", 0}, {"shuffle_bytes_sent", 286822},
                {"shuffle_capacity", 6e6}}
        .dump();
  }
  if (path == "/api/workers") {
    json ws = json::array();
    for (int i = 1; i <= 3; ++i) {
      ws.push_back({{"id", i}, {"host", "127.0.0.1"}, {"shuffle_port", 40000 + i}, {"map_slots", 1},
                    {"reduce_slots", 1}, {"unified_slots", 0}, {"running_map", i == 1 ? 1 : 0},
                    {"running_reduce", 0}, {"running_unified", 0}, {"speed", 1.0}, {"shuffle_bandwidth", 2e6},
                    {"shuffle_bytes_sent", 95000 + i}, {"last_heartbeat", 1000.0},
                    {"queued_maps", 10 * i + 7}});
    }
    return ws.dump();
  }
  if (path == "/api/jobs") return json::array({job_}).dump();
  if (path == "/api/jobs/1" || path == "/api/jobs/job-000001") return job_.dump();
  if (path == "/api/jobs/1/trace" || path == "/api/jobs/job-000001/trace") return json(trace_).dump();
  return Status::NotFound("no such path: " + std::string(path));
}

}  // namespace mr::webtest
