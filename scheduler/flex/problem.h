// The input of one FLEX decision: S slots of one pool (a phase's map or reduce slots, or a
// cluster's unified slots) and the active jobs of that pool, each with its remaining work
// (slot-seconds under linear speedup), its minimum and maximum slots and the metric it
// chose. The caller runs one decision per pool. Values only; thread-compatible.
#pragma once

#include <vector>

#include "common/status.h"
#include "scheduler/flex/metrics.h"

namespace mr::flex {

struct FlexJob {
  double work = 0;    // remaining work, slot-seconds (0: the job is complete and gets nothing)
  int min_slots = 0;  // m_j: the fair-share guarantee
  int max_slots = 0;  // M_j: e.g. the job's remaining tasks; >= 1 when work > 0
  Metric metric = Metric::kResponseTime;
  JobTerms terms;
};

struct FlexProblem {
  int slots = 0;   // S >= 1
  double now = 0;  // the epoch's start, on the clock of the jobs' terms
  std::vector<FlexJob> jobs;
};

// Ok, or InvalidArgument naming the first bad job ("job 3: metric tardiness needs a
// deadline", "job 1: maximum slots 2 below minimum 5", ...). Minima summing above S are
// allowed: the allocator normalises them.
Status CheckProblem(const FlexProblem& problem);

}  // namespace mr::flex
