// JobTracker: blame and bounds for failed fetches (docs/reliability.md, "Blame and
// bounds"). A failed fetch is charged to whom it proves at fault: the fetching reducer's
// own disk fails the reduce attempt (which moves), a proven-bad source copy re-executes
// the map at once, an unproven one only when corroborated or repeated. Every loop this
// can start is bounded by max_attempts, and superseded map outputs are deleted at once.
#include <string>

#include "master/job_tracker.h"

namespace mr::master {

using nlohmann::json;
using sched::TaskKind;

void JobTracker::BlameFetchFailure(WorkerRecord& w, JobRecord& job, const proto::FetchEvent& f) {
  const int index = static_cast<int>(f.map_index());
  MapTask& m = job.maps[index];
  // Only the done attempt where it is served can be blamed; reports about a superseded
  // attempt (its reducer learns the new location) or a running map are history.
  if (m.state != MapTask::State::kDone || m.attempt != f.map_attempt() || m.worker != f.src_worker()) return;
  switch (f.cause()) {
    case proto::FETCH_LOCAL:
      return;  // the reducer's own failure: its FAILED report fails and moves it
    case proto::FETCH_SOURCE_CORRUPT:
      ReexecuteUnserved(job, index, f.error());
      return;
    default: {  // UNREACHABLE (or unset, from an older worker): unproven
      // A report from a placement that has since moved away is not this reducer's.
      if (job.reduces[f.reduce_index()].worker != w.id) return;
      const uint32_t n = ++m.unreachable_reports[f.reduce_index()];
      if (n >= kUnreachableReportsOfOneReducer || m.unreachable_reports.size() >= kUnreachableReducers) {
        ReexecuteUnserved(job, index, f.error());
      }
      return;
    }
  }
}

void JobTracker::ReexecuteUnserved(JobRecord& job, int index, const std::string& error) {
  MapTask& m = job.maps[index];
  if (++m.unserved >= options_.max_attempts) {
    // Superseded outputs of a failed job go with its directory (finished_jobs).
    FinishJob(job, JobState::kFailed,
              "map " + TaskIdString(TaskKind::kMap, index) + "'s output could not be served " +
                  std::to_string(m.unserved) + " times; last error: " + error);
    return;
  }
  ReexecuteMap(job, index, "fetch failed: " + error);
}

void JobTracker::FailFetchingReduce(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  const int index = static_cast<int>(r.index());
  ReduceTask& t = job.reduces[index];
  t.failures++;
  t.last_failed_worker = w.id;
  job.counters[kFailedReducesCounter]++;
  CountFailure(job, w.id);
  Trace(job, {{"event", "reduce_fetch_failed"}, {"t", clock_->Now()}, {"task", TaskIdString(TaskKind::kReduce, index)},
              {"worker", w.id}, {"failures", t.failures}, {"error", r.error()}});
  if (t.failures >= options_.max_attempts) {
    FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, index) + " failed " +
                                          std::to_string(t.failures) + " times fetching its input; last error: " +
                                          r.error());
    return;
  }
  ResetReduce(job, index);
  PlaceReduces(job);
}

void JobTracker::DeleteOutput(WorkerId w, uint64_t job, uint32_t map, uint32_t attempt) {
  auto it = workers_.find(w);
  if (it == workers_.end()) return;  // lost: a worker registering again offers it, and is told then
  proto::HeldMapOutput& d = it->second.outbox_delete_outputs.emplace_back();
  d.set_job_id(job);
  d.set_map(map);
  d.set_attempt(attempt);
}

void JobTracker::DeleteIfSuperseded(WorkerRecord& w, const JobRecord& job, const proto::TaskReport& r) {
  if (r.state() != proto::SUCCEEDED) return;
  const MapTask& m = job.maps[r.index()];
  const bool counts = m.state == MapTask::State::kDone && m.worker == w.id && m.attempt == r.attempt();
  const bool awaited = m.awaiting && m.awaiting->map_done().attempt() == r.attempt();
  if (!counts && !awaited) DeleteOutput(w.id, job.id, r.index(), r.attempt());
}

}  // namespace mr::master
