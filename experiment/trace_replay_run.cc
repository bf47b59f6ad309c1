// The recorded run's readers and its adjustments (trace_replay.h): trace files and
// directories to events, and what is done to a RecordedRun once built — its measured
// shuffle rate, the workload's job parameters, the round clock's phase, the jitter. Moved
// out of trace_replay.cc, which builds the run from the events.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "common/file_util.h"
#include "common/job_id.h"
#include "experiment/band.h"
#include "experiment/trace_replay.h"
#include "trace/reader.h"

namespace mr::experiment {

Result<std::vector<std::string>> TraceFiles(const std::string& path) {
  if (!PathExists(path)) return Status::NotFound("no such trace file or directory: " + path);
  if (!IsDirectory(path)) return std::vector<std::string>{path};
  std::vector<std::string> out;
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(path));
  for (const std::string& n : names) {
    if (n.size() > 6 && n.ends_with(".jsonl")) out.push_back(JoinPath(path, n));
  }
  const std::string state_traces = JoinPath(path, "traces");
  if (out.empty() && IsDirectory(state_traces)) return TraceFiles(state_traces);
  if (out.empty()) return Status::NotFound("no *.jsonl traces in " + path);
  return out;
}

Result<std::vector<std::vector<trace::Event>>> ReadTraces(const std::vector<std::string>& paths) {
  std::vector<std::vector<trace::Event>> traces;
  for (const std::string& p : paths) {
    MR_ASSIGN_OR_RETURN(std::vector<std::string> files, TraceFiles(p));
    for (const std::string& f : files) {
      MR_ASSIGN_OR_RETURN(std::vector<trace::Event> events, trace::ReadTraceFile(f));
      if (events.empty()) return Status::InvalidArgument(f + ": empty trace");
      traces.push_back(std::move(events));
    }
  }
  return traces;
}

Result<RecordedRun> ReadRecordedRun(const std::vector<std::string>& paths) {
  MR_ASSIGN_OR_RETURN(auto traces, ReadTraces(paths));
  return RecordedRunFromTraces(traces);
}

double MeasuredShuffleRate(const RecordedRun& run) {
  double sum = 0;
  int n = 0;
  for (const auto& [worker, use] : run.links) {
    if (use.busy_seconds <= 0) continue;
    sum += use.bytes / use.busy_seconds;
    ++n;
  }
  return n > 0 ? sum / n : 0;
}

void AttachJobParams(const std::map<uint64_t, sched::JobParams>& by_id, RecordedRun* run) {
  for (size_t i = 0; i < run->jobs.size() && i < run->measured.size(); ++i) {
    const std::optional<uint64_t> id = ParseJobId(run->measured[i].id);
    const auto it = id ? by_id.find(*id) : by_id.end();
    if (it == by_id.end()) continue;
    sched::JobParams params = it->second;
    const sched::JobParams& traced = run->jobs[i].params;
    params.hint_map_seconds = traced.hint_map_seconds;
    params.hint_shuffle_bytes = traced.hint_shuffle_bytes;
    params.hint_reduce_seconds = traced.hint_reduce_seconds;
    if (!traced.queue.empty()) params.queue = traced.queue;  // a batch plan's queue is in the trace
    run->jobs[i].params = std::move(params);
  }
}

std::optional<double> RoundClockStart(const RecordedRun& run, double round) {
  if (run.rounds.empty() || !(round > 0)) return std::nullopt;
  double start = std::numeric_limits<double>::infinity();
  for (const RoundNote& r : run.rounds) start = std::min(start, r.t - static_cast<double>(r.index) * round);
  if (start > 0) start -= std::ceil(start / round) * round;
  return start;
}

void JitterDurations(double seconds, uint64_t seed, RecordedRun* run) {
  JitterTaskDurations(seconds, seed, /*cluster_map_time_cv=*/0, &run->jobs);
}

}  // namespace mr::experiment
