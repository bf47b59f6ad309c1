#include "tests/web/fake_provider.h"

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "trace/reader.h"
#include "trace/writer.h"

namespace mr::webtest {

using nlohmann::json;

namespace {

constexpr char kJob[] = "job-000001";
double At(double t) { return 1000.0 + t; }

trace::AttemptEnd AttemptEnd(const char* task, int worker, const char* slot, double start, double end,
                             uint64_t out_bytes) {
  return {.t = At(end), .job = kJob, .task = task, .attempt = 1, .worker = worker, .start = At(start),
          .bytes_in = 1000, .bytes_out = out_bytes, .records_in = 10, .records_out = 20, .slot = slot,
          .status = "ok"};
}

trace::FetchEnd FetchEnd(const char* reducer, const char* map, int src, int dst, double start, double end,
                         uint64_t bytes) {
  return {.t = At(end), .job = kJob, .task = reducer, .map = map, .src_worker = src, .worker = dst,
          .start = At(start), .bytes = bytes, .status = "ok"};
}

trace::AttemptStart ReduceStart(double t, const char* task, int attempt, int worker) {
  return {.t = At(t), .job = kJob, .task = task, .attempt = attempt, .worker = worker, .slot = "reduce"};
}

}  // namespace

std::vector<trace::Event> HandBuiltTrace() {
  std::vector<trace::Event> t;
  t.push_back(trace::JobSubmit{.t = At(0), .job = kJob, .name = "wc", .kind = "wordcount", .maps = 4, .reduces = 2,
                               .policy = "fifo", .output = "/tmp/out"});
  t.push_back(trace::JobStart{.t = At(0.1), .job = kJob});
  t.push_back(trace::Share{.t = At(0.1), .job = kJob, .share = 1.0});
  t.push_back(trace::Decision{.t = At(0.1), .job = kJob, .worker = 1, .policy = "fifo", .note = "first",
                              .tasks = std::vector<std::string>{"m-00000"}});
  // w1 has 2 map slots' worth of overlap: m-00000 [0.1,1.1], m-00001 [0.2,1.0], m-00003 [1.1,2.0].
  t.push_back(AttemptEnd("m-00000", 1, "map", 0.1, 1.1, 4000));
  t.push_back(AttemptEnd("m-00001", 1, "map", 0.2, 1.0, 4000));
  t.push_back(AttemptEnd("m-00002", 2, "map", 0.1, 1.5, 4000));
  t.push_back(AttemptEnd("m-00003", 1, "map", 1.1, 2.0, 4000));
  t.push_back(trace::ReducePlace{.t = At(1.0), .job = kJob, .task = "r-00000", .worker = 1, .maps_done = 1});
  t.push_back(trace::ReducePlace{.t = At(1.0), .job = kJob, .task = "r-00001", .worker = 2, .maps_done = 1});
  // Link w1→w1: three fetches, two overlapping. Link w1→w2: two. Link w2→w1: one.
  t.push_back(FetchEnd("r-00000", "m-00001", 1, 1, 1.0, 1.4, 2000));
  t.push_back(FetchEnd("r-00000", "m-00000", 1, 1, 1.2, 1.6, 2000));
  t.push_back(FetchEnd("r-00000", "m-00003", 1, 1, 2.0, 2.2, 2000));
  t.push_back(FetchEnd("r-00001", "m-00001", 1, 2, 1.0, 1.5, 2000));
  t.push_back(FetchEnd("r-00001", "m-00003", 1, 2, 2.0, 2.5, 2000));
  t.push_back(FetchEnd("r-00000", "m-00002", 2, 1, 1.5, 1.5, 1000));  // zero-length
  t.push_back(trace::Share{.t = At(2.0), .job = kJob, .share = 0.5});
  t.push_back(ReduceStart(2.2, "r-00000", 1, 1));
  t.push_back(AttemptEnd("r-00000", 1, "reduce", 2.2, 3.0, 500));
  t.push_back(ReduceStart(2.5, "r-00001", 1, 2));
  trace::AttemptEnd failed = AttemptEnd("r-00001", 2, "reduce", 2.5, 2.8, 0);
  failed.status = "failed";
  failed.error = "disk full";
  t.push_back(failed);
  t.push_back(ReduceStart(2.9, "r-00001", 2, 2));
  trace::AttemptEnd ok2 = AttemptEnd("r-00001", 2, "reduce", 2.9, 3.5, 600);
  ok2.attempt = 2;
  t.push_back(ok2);
  t.push_back(trace::JobEnd{.t = At(3.6), .job = kJob, .status = "ok", .error = "", .response_time = 3.6,
                            .counters = trace::Counters{{"map_output_records", 80}, {"reduce_output_records", 30}}});
  return t;
}

std::vector<trace::Event> RealTrace() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  std::string dir = src != nullptr ? src : MR_WEB_TEST_SOURCE_DIR;
  auto events = trace::ReadTraceFile(dir + "/tests/web/data/wordcount_3workers.jsonl");
  return events.ok() ? *events : std::vector<trace::Event>{};
}

FakeProvider::FakeProvider(std::vector<trace::Event> trace, std::string state) : trace_(std::move(trace)) {
  json job = {{"id", "job-000001"}, {"name", "wordcount"}, {"job", "wordcount"}, {"state", state},
          {"phase", state == "RUNNING" ? "shuffle" : ""},
          {"progress", {{"map", 1.0}, {"shuffle", state == "RUNNING" ? 0.5 : 1.0}, {"reduce", state == "RUNNING" ? 0.0 : 1.0}}},
          {"shuffle_bytes_expected", 16550446.0}, {"maps_total", 16}, {"maps_done", 16},
          {"maps_running", 0}, {"reduces_total", 3}, {"reduces_done", 3}, {"reduces_running", 0},
          {"shuffle_bytes_total", 16550446}, {"shuffle_bytes_fetched", 16550446}, {"submit_time", 1000.0},
          {"start_time", 1000.05}, {"end_time", 1003.51}, {"error", ""}, {"output", "/tmp/wc"}, {"share", 1.0},
          {"policy", "fifo"}, {"sojourn_time", 2.25}, {"estimate", {{"source", "none"}, {"map_seconds", 0.0}, {"shuffle_bytes", 0.0}}},
          {"counters", {{"map.records_in", 186494}, {"reduce.records_out", 276305}}}, {"trace", "/tmp/t.jsonl"}};
  for (const auto& ev : trace_) {
    if (const auto* end = std::get_if<trace::JobEnd>(&ev); end && end->counters) job["counters"] = *end->counters;
  }
  job_ = job.dump();
}

Result<std::string> FakeProvider::Get(std::string_view path) {
  if (path == "/api/cluster") {
    return json{{"policy", "fifo"}, {"placement", "dep"}, {"workers", 3}, {"map_slots", 3}, {"map_busy", 1}, {"reduce_slots", 3},
                {"reduce_busy", 0}, {"unified_slots", 0}, {"unified_busy", 0}, {"shuffle_bytes_sent", 286822},
                {"shuffle_capacity", 6e6}, {"shuffle_rate", 25600.0}}
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
  if (path == "/api/jobs") return "[" + job_ + "]";
  if (path == "/api/jobs/1" || path == "/api/jobs/job-000001") return job_;
  if (path == "/api/jobs/1/trace" || path == "/api/jobs/job-000001/trace") return trace::EventsJsonArray(trace_);
  return Status::NotFound("no such path: " + std::string(path));
}

}  // namespace mr::webtest
