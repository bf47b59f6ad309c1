// Test helpers shared by the replay and trace-analysis tests: a trace written inline as JSON
// lines, and the one-worker, one-unified-slot cluster the slot-level replay tests run on.
#ifndef MR_TESTS_EXPERIMENT_TRACE_TEXT_H_
#define MR_TESTS_EXPERIMENT_TRACE_TEXT_H_

#include <gtest/gtest.h>

#include <vector>

#include "model/tasksim/task_sim.h"
#include "trace/reader.h"

namespace mr::experiment::trace_text {

// The events of a trace given as text; a malformed line fails the calling test.
inline std::vector<trace::Event> Parse(const char* text) {
  auto events = trace::ParseTraceLines(text);
  EXPECT_TRUE(events.ok()) << events.status().ToString();
  return events.ok() ? *events : std::vector<trace::Event>{};
}

// One worker with one unified slot, reduces start once every map is done, a shuffle fast
// enough to cost nothing.
inline model::ClusterSpec OneUnifiedSlot() {
  model::ClusterSpec c;
  c.workers = 1;
  c.map_slots = c.reduce_slots = 0;
  c.unified_slots = 1;
  c.slow_start = 1;
  c.shuffle_bandwidth = 1000;
  return c;
}

}  // namespace mr::experiment::trace_text

#endif  // MR_TESTS_EXPERIMENT_TRACE_TEXT_H_
