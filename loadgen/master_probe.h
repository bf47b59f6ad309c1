// What `mr loadgen` reads of the master it drives, beside what its simulated workers see:
// the master's own counters and heartbeat timings from its status page (`/api/cluster`:
// "heartbeats" and the cumulative "timings" histograms, docs/web.md), and its CPU time and
// memory from /proc (Linux). Each reading is cumulative; a phase is the difference of two.
// Blocking; thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/log_histogram.h"
#include "common/status.h"
#include "common/units.h"

namespace mr::loadgen {

struct MasterReading {
  bool has_api = false;
  uint64_t heartbeats = 0;            // handled since the master started
  uint64_t workers = 0;               // registered now
  LogHistogram heartbeat_us;          // handling of one heartbeat
  LogHistogram round_us;              // one scheduling round
  LogHistogram round_per_free_slot_us;
  bool has_proc = false;
  int pid = 0;
  double cpu_seconds = 0;             // utime + stime
  double rss_mib = 0, hwm_mib = 0;    // VmRSS, VmHWM
};

struct ProbeTarget {
  std::optional<HostPort> http;  // the status page; none: no /api numbers
  std::string pid_file;          // read at each probe (a restarted master has a new pid)
  int pid = 0;                   // used when pid_file is empty; 0: no /proc numbers
};

// Never fails: what it cannot read stays unset (has_api / has_proc false).
MasterReading ProbeMaster(const ProbeTarget& target);

// GET path from host:port over HTTP/1.0; the body on status 200.
Result<std::string> HttpGet(const HostPort& where, const std::string& path, double timeout_seconds = 5);

}  // namespace mr::loadgen
