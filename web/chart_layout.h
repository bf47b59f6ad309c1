// ChartLayout: the Gantt model of one job's trace, ready to draw. Attempts get
// one lane per (worker, slot kind, slot number) — slot numbers are not traced,
// so attempts of one worker and slot kind are packed greedily into the fewest
// lanes —, fetches get one lane per shuffle link (src worker → reducer's
// worker), overlapping fetches on a link packed into sub-lanes. All times are
// seconds relative to the job's job_submit. Reads typed events (trace/event.h) and the
// attempts trace::CollectAttempts finds in them. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trace/event.h"

namespace mr::web {

// kFailed: an attempt that failed or was lost, a fetch that failed. kKilled: an attempt the
// master killed (a speculative backup's loser, either side; a killed job's), which is no
// failure: it is drawn apart.
enum class BarKind { kMap, kReduce, kFetch, kFailed, kKilled };
std::string_view BarKindName(BarKind kind);  // "map", "reduce", "fetch", "failed", "killed"

struct Lane {
  std::string id;     // stable DOM id: "w1-map-0", "w2-w3-shuffle-0"
  std::string label;  // "w1 map 0", "w2→w3 shuffle"
  std::string slot;   // "map" | "reduce" | "unified" | "shuffle"
  int worker = 0;     // the slot's worker; for a shuffle lane the reducer's worker
  int src_worker = 0; // shuffle lanes only: the map output's worker
  int index = 0;      // slot number, or sub-lane number on a shuffle link
};

struct Bar {
  int lane = 0;  // index into ChartLayout::lanes
  double start = 0;
  double end = 0;
  BarKind kind = BarKind::kMap;
  std::string label;    // "m-00003", "r-00001 ← m-00002"
  std::string tooltip;  // one line per fact, for <title>
  uint64_t bytes = 0;   // bytes out of an attempt, bytes moved by a fetch
  bool running = false; // no end event yet: drawn up to the trace's last event
};

struct Decision {
  double t = 0;
  int worker = 0;
  std::string policy;
  std::string note;
  std::vector<std::string> tasks;
};

struct ChartLayout {
  std::string job;     // "job-000001"
  std::string name;    // job name
  std::string kind;    // job kind
  std::string policy;
  std::string status;  // job_end status, or "running"
  std::string error;
  double origin = 0;         // absolute time of job_submit (epoch seconds)
  double duration = 0;       // last event, relative to origin
  double response_time = -1; // from job_end; -1 while running
  std::vector<Lane> lanes;
  std::vector<Bar> bars;
  // Shuffle rate: the bytes of each `served` report (bytes a source sent for the job over
  // [start, t], fetches in flight included) spread uniformly over its interval, summed into
  // buckets of width bucket_seconds covering [0, duration]; a trace without `served`
  // reports uses its finished fetches' bytes over their spans instead.
  double bucket_seconds = 0;
  std::vector<double> rate_bytes;  // bytes per bucket; rate = bytes / bucket_seconds
  std::vector<std::pair<double, double>> shares;  // (t, share in [0,1])
  std::vector<Decision> decisions;
  trace::Counters counters;  // job_end's
};

// Builds the layout. Missing fields get defaults (an attempt's worker 0, its slot from its
// task, status ok; a job_end's response time its t), so a partial (live) trace still
// draws. Open bars and the time axis run to the last event, or to `until` (absolute, e.g.
// now for a live job's page) when that is later.
ChartLayout BuildChartLayout(const std::vector<trace::Event>& events, int rate_buckets = 100, double until = 0);

// Interval partitioning: assigns each [start, end) interval a lane so that
// intervals in one lane do not overlap, using the fewest lanes (the maximum
// overlap). Touching intervals share a lane; the lowest free lane is reused.
// Returns the lane of each interval, in input order.
std::vector<int> PackIntervals(const std::vector<std::pair<double, double>>& intervals);

}  // namespace mr::web
