// TraceWriter: appends one job's events as JSON lines (docs/trace-format.md), each the
// bytes trace::EventJson writes. Events are buffered, typed, and handed on by Flush(), which
// the master calls once per scheduling round. With a TraceQueue (the master's server gives
// one) Flush moves the batch to the queue's writer thread, which formats and writes it
// (master/trace_queue.h: order kept, bounded, flushed at shutdown): the state thread does no
// formatting and no I/O for the trace. Without one (unit tests driving the tracker on one
// thread) Flush formats and appends at once. A fold given at construction (the job's ARIA
// profile, trace/event_fold.h) sees every event flushed, in order, on whichever thread
// writes it. Not thread-safe: owned by the master's single
// state thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "master/trace_queue.h"
#include "trace/event.h"
#include "trace/event_fold.h"

namespace mr::master {

class TraceWriter {
 public:
  // queue: not owned, may be null (write inline); outlives the writer. fold: may be null.
  explicit TraceWriter(std::string path, TraceQueue* queue = nullptr, std::shared_ptr<trace::EventFold> fold = nullptr)
      : path_(std::move(path)), queue_(queue), fold_(std::move(fold)) {}
  // The caller sets the event's job (Trace in job_trace.h).
  void Append(trace::Event event) { pending_.push_back(std::move(event)); }
  // Hands the buffered events on (queued, or appended to the file); the buffer is dropped
  // either way. Queued: Ok at once (a write error is the queue's to log).
  Status Flush();
  // The ticket of everything this writer has flushed so far (0 without a queue, where a
  // flush is written when it returns): TraceQueue::WaitWritten(ticket) before reading.
  uint64_t ticket() const { return ticket_; }
  const std::string& path() const { return path_; }
  // Events flushed from now on reach no fold (the job's seal has read it).
  void DropFold() { fold_.reset(); }

 private:
  std::string path_;
  TraceQueue* queue_;
  std::shared_ptr<trace::EventFold> fold_;
  std::vector<trace::Event> pending_;
  uint64_t ticket_ = 0;
};

}  // namespace mr::master
