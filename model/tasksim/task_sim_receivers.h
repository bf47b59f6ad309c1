// The task-level simulator's split of a job's map output among its receivers, with
// ClusterSpec::receiver_links (internal; docs/model.md, "Receivers' links"). Every reducer
// takes an equal partition of every map output (the synthetic jobs' partitions are equal), so
// the output at a source goes to each worker holding reducers in proportion to how many of
// the job's reducers it holds. The part for a reducer on the source's own worker crosses no
// link (on the namespace cluster a same-host fetch is a file link or loopback, unshaped) and
// counts as fetched at once; the rest waits in SimJob::pair_backlog for the links.
#pragma once

#include "model/tasksim/task_sim_state.h"

namespace mr::model::tasksim {

// At slow start, once every reducer has its worker: sets receiver_frac and splits the
// backlog already waiting at every source.
void SplitBacklogToReceivers(SimJob& job);
// After slow start: `bytes` of new map output at `source`, split the same way.
void AddOutputToReceivers(SimJob& job, int source, double bytes);
// backlog[source] as the sum of its pairs (exactly 0 once every pair has drained).
void ResumBacklog(SimJob& job, int source);

}  // namespace mr::model::tasksim
