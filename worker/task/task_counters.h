// Counters one map or reduce task attempt reports to the master (status page,
// trace). Plain value type.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace mr::worker {

struct TaskCounters {
  uint64_t records_in = 0;    // map: input lines; reduce: values read from runs
  uint64_t bytes_in = 0;      // map: split bytes; reduce: run bytes
  uint64_t records_out = 0;   // map: records in the output file; reduce: output lines
  uint64_t bytes_out = 0;     // map: data file bytes; reduce: output file bytes
  uint64_t spills = 0;        // map: sorted runs written to disk before the final merge
  uint64_t combine_in = 0;    // values fed to the combiner
  uint64_t combine_out = 0;   // records the combiner emitted
  std::map<std::string, int64_t> user;  // TaskContext::IncrementCounter
};

}  // namespace mr::worker
