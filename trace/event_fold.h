// EventFold: something that reads a trace's events as they are written, in their order,
// and keeps what it needs of them (a fold), so nobody has to read the file back. The master's
// trace writer (master/trace_queue.h) hands each job's events to the job's fold before
// formatting them; model/makespan/profile_fold.h folds the job's ARIA profile.
#pragma once

#include "trace/event.h"

namespace mr::trace {

class EventFold {
 public:
  virtual ~EventFold() = default;
  // Called once per event, in trace order, from one thread at a time.
  virtual void Add(const Event& event) = 0;
};

}  // namespace mr::trace
