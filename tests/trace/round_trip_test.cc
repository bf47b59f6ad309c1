// Writer -> reader -> writer gives the same bytes for every event type, with every field
// set and with only the common ones; and the writer's bytes are the master's (sorted keys,
// integers as integers, 2.0 for a floating-point field that happens to be whole).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "trace/reader.h"
#include "trace/writer.h"

namespace mr::trace {
namespace {

// One event of every type with every field set; whole numbers in floating-point fields on
// purpose (their bytes are the trap: 2.0, not 2).
std::vector<Event> EveryEventFull() {
  const std::string j = "job-000007";
  return {
      Unknown{.t = 1, .job = j, .name = "from_the_future"},
      JobSubmit{.t = 1.5, .job = j, .name = "wc", .kind = "wordcount", .maps = 16, .reduces = 3, .policy = "fifo",
                .output = "/tmp/out"},
      JobStart{.t = 2, .job = j},
      Estimate{.t = 2.25, .job = j, .source = "hint", .map_seconds = 4, .map_seconds_remaining = 3.5,
               .shuffle_bytes = 2000, .shuffle_bytes_remaining = 1000, .reduce_source = "none",
               .reduce_seconds = 0, .reduce_seconds_remaining = 0},
      Decision{.t = 3, .job = j, .worker = 2, .policy = "fifo", .note = "fifo: job 7 first",
               .tasks = std::vector<std::string>{"m-00000", "r-00001"}},
      Share{.t = 3, .job = j, .share = 0.0},
      AttemptStart{.t = 3, .job = j, .task = "m-00000", .attempt = 1, .worker = 2, .slot = "unified", .backup = true},
      AttemptEnd{.t = 4.75, .job = j, .task = "m-00000", .attempt = 1, .worker = 2, .start = 3.0, .bytes_in = 1048603,
                 .bytes_out = 0, .records_in = 11656, .records_out = 107336, .slot = "map", .status = "failed",
                 .error = "exit 3 \"quoted\" é", .stderr_tail = "oops\n",
                 .counters = Counters{{"map.spills", 0}, {"user.words", -4}}},
      ReducePlace{.t = 5, .job = j, .task = "r-00001", .worker = 1, .maps_done = 3, .backup = true},
      ReduceBackupDropped{.t = 5, .job = j, .task = "r-00001", .worker = 1, .maps_fetched = 2, .reason = "committed"},
      FetchStart{.t = 5.5, .job = j, .task = "r-00001", .map = "m-00000", .src_worker = 2},
      FetchEnd{.t = 6, .job = j, .task = "r-00001", .map = "m-00000", .src_worker = 2, .worker = 1, .start = 5.5,
               .bytes = 4096, .status = "failed", .error = "connection refused", .cause = "unreachable"},
      ReduceFetchFailed{.t = 6, .job = j, .task = "r-00001", .worker = 1, .failures = 1, .error = "disk full"},
      Served{.t = 6.25, .job = j, .worker = 2, .start = 6, .bytes = 18446744073709551615ull},
      Commit{.t = 7, .job = j, .task = "r-00001", .attempt = 4, .file = "/tmp/out/part-r-00001"},
      Reexecute{.t = 7, .job = j, .task = "m-00000", .attempt = 1, .reason = "worker 2 lost"},
      WorkerLost{.t = 7, .job = j, .worker = 2, .reason = "no heartbeat for 10s"},
      Blacklist{.t = 7, .job = j, .worker = 2, .in_force = false},
      MasterRestart{.t = 8, .job = j, .reduces_committed = 1, .maps_awaiting = 0},
      MapRecovered{.t = 8.5, .job = j, .task = "m-00002", .attempt = 3, .worker = 5, .bytes_out = 77},
      MapsDone{.t = 9, .job = j, .sojourn = 7.5},
      JobEnd{.t = 10, .job = j, .status = "ok", .error = "", .response_time = 8.5, .sojourn = 7.5,
             .counters = Counters{}},
      Allocation{.t = 10, .job = j, .policy = "flex", .slot = "map", .slots = 4, .min_slots = 1, .max_slots = 6,
                 .rank = 0, .order = "generic-rap", .metric = "tardiness", .predicted = 12.0, .completion = 20.5,
                 .reason = "restart"},
  };
}

// The same types with no optional field set.
std::vector<Event> EveryEventBare() {
  std::vector<Event> out;
  for (const Event& full : EveryEventFull()) {
    Event e = full;
    std::visit([](auto& ev) { ev = std::remove_reference_t<decltype(ev)>{.t = ev.t, .job = ev.job}; }, e);
    if (auto* u = std::get_if<Unknown>(&e)) u->name = "from_the_future";
    out.push_back(std::move(e));
  }
  return out;
}

TEST(RoundTripTest, CoversEveryType) {
  std::vector<bool> seen(kEventTypes, false);
  for (const Event& e : EveryEventFull()) seen[e.index()] = true;
  for (int i = 0; i < kEventTypes; ++i) EXPECT_TRUE(seen[i]) << EventTypeName(static_cast<EventType>(i));
}

TEST(RoundTripTest, WriterReaderWriterKeepsTheBytes) {
  for (const auto& events : {EveryEventFull(), EveryEventBare()}) {
    std::string text;
    for (const Event& e : events) text += EventJson(e) + "\n";
    Result<std::vector<Event>> read = ParseTraceLines(text);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_EQ(read->size(), events.size());
    std::string again;
    for (size_t i = 0; i < read->size(); ++i) {
      EXPECT_EQ((*read)[i].index(), events[i].index()) << i;
      again += EventJson((*read)[i]) + "\n";
    }
    EXPECT_EQ(again, text);
  }
}

TEST(RoundTripTest, ArrayRoundTrip) {
  const std::vector<Event> events = EveryEventFull();
  Result<std::vector<Event>> read = ParseTraceArray(EventsJsonArray(events));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(EventsJsonArray(*read), EventsJsonArray(events));
}

// The exact bytes, as the master wrote them before the module (sorted keys; a whole
// double keeps its ".0"; an absent field is not written, an empty string is).
TEST(RoundTripTest, BytesAreTheMasters) {
  EXPECT_EQ(EventJson(Share{.t = 1795312633.1657953, .job = "job-000001", .share = 0.0}),
            R"({"event":"share","job":"job-000001","share":0.0,"t":1795312633.1657953})");
  EXPECT_EQ(EventJson(AttemptStart{.t = 1795312633.1656463, .job = "job-000001", .task = "m-00000", .attempt = 1,
                                   .worker = 1, .slot = "map"}),
            R"({"attempt":1,"event":"attempt_start","job":"job-000001","slot":"map","t":1795312633.1656463,)"
            R"("task":"m-00000","worker":1})");
  EXPECT_EQ(EventJson(JobEnd{.t = 10, .job = "job-000001", .status = "ok", .error = "", .response_time = 3,
                             .counters = Counters{}}),
            R"({"counters":{},"error":"","event":"job_end","job":"job-000001","response_time":3.0,"status":"ok",)"
            R"("t":10.0})");
  EXPECT_EQ(EventJson(Decision{.t = 2, .job = "job-000001", .worker = 3, .policy = "fifo",
                               .tasks = std::vector<std::string>{"m-00001"}}),
            R"({"event":"decision","job":"job-000001","policy":"fifo","t":2.0,"tasks":["m-00001"],"worker":3})");
}

}  // namespace
}  // namespace mr::trace
