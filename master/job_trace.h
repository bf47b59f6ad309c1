// A job's trace (docs/trace-format.md): appending typed events (trace/event.h) to its
// JSON-lines file, flushing, and the events more than one part of the tracker writes
// (attempt ends, estimates). State-thread only, like the tracker.
#pragma once

#include <functional>

#include "master/job.h"
#include "master/tracker_state.h"
#include "mr.pb.h"
#include "trace/event.h"

namespace mr::master {

// Appends event to job's trace, tagged with the job's id (buffered until a flush).
void Trace(JobRecord& job, trace::Event event);
// Writes every job's buffered events; a failure is logged, never fatal.
void FlushTraces(TrackerState& state);
// For a reader of job's trace file off the state thread: a function that blocks until every
// event of the job flushed so far is in the file (TraceQueue::WaitWritten). Without a trace
// queue a flush is written when it returns, and the function does nothing.
std::function<void()> TraceWrittenWait(const TrackerState& state, const JobRecord& job);
// An `estimate` event with the job's size estimate now, if it has one.
void TraceEstimate(JobRecord& job, double now);
// The `attempt_end` event for a finished attempt; the caller sets status and error. Its
// counters are those the fields above do not already carry (spills, combine.*, user.*).
// reported: the master's clock now, when the report reached it (the event's `reported`).
trace::AttemptEnd AttemptEndEvent(const proto::TaskReport& r, WorkerId worker, const char* slot, double reported);
// fetch_end's `cause`.
const char* FetchCauseName(proto::FetchCause c);

}  // namespace mr::master
