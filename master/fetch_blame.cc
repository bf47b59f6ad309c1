#include "master/fetch_blame.h"

#include "master/job_trace.h"

namespace mr::master {

using sched::TaskKind;

void FetchBlame::BlameFetchFailure(WorkerRecord& w, JobRecord& job, const proto::FetchEvent& f) {
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

void FetchBlame::ReexecuteUnserved(JobRecord& job, int index, const std::string& error) {
  MapTask& m = job.maps[index];
  if (++m.unserved >= state_.options.max_attempts) {
    // Superseded outputs of a failed job go with its directory (finished_jobs).
    lifecycle_.FinishJob(job, JobState::kFailed,
                         "map " + TaskIdString(TaskKind::kMap, index) + "'s output could not be served " +
                             std::to_string(m.unserved) + " times; last error: " + error);
    return;
  }
  lifecycle_.ReexecuteMap(job, index, "fetch failed: " + error);
}

void FetchBlame::FailFetchingReduce(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  const int index = static_cast<int>(r.index());
  ReduceTask& t = job.reduces[index];
  t.failures++;
  t.last_failed_worker = w.id;
  job.counters[kFailedReducesCounter]++;
  registry_.CountFailure(job, w.id);
  Trace(job, trace::ReduceFetchFailed{.t = state_.Now(),
                                      .task = TaskIdString(TaskKind::kReduce, index),
                                      .worker = w.id,
                                      .failures = t.failures,
                                      .error = r.error()});
  if (t.failures >= state_.options.max_attempts) {
    lifecycle_.FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, index) + " failed " +
                                                     std::to_string(t.failures) +
                                                     " times fetching its input; last error: " + r.error());
    return;
  }
  lifecycle_.ResetReduce(job, index);
  placer_.PlaceReduces(job);
}

}  // namespace mr::master
