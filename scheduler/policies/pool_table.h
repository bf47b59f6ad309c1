// PoolTable: the fair scheduler's pools (minimum shares and weights), parsed
// once from a small text file. Format (docs/policies.md), one pool per line:
//   pool NAME [min_maps=N] [min_reduces=N] [max_maps=N] [max_reduces=N] [weight=W]
// '#' starts a comment; blank lines are ignored. Jobs in a pool not listed (or
// in pool "") use pool "default" (min 0, weight 1 unless the file sets it).
// Immutable after parsing; safe to share between threads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::sched {

struct PoolConfig {
  std::string name;
  int min_maps = 0;
  int min_reduces = 0;
  // At most this many slots for the pool's jobs together (0 = no maximum). Read by the flex
  // policy (its minima and maxima per pool); the fair scheduler ignores them.
  int max_maps = 0;
  int max_reduces = 0;
  double weight = 1.0;
};

class PoolTable {
 public:
  PoolTable();
  // Malformed line -> InvalidArgument naming `source` and the line number.
  static Result<PoolTable> Parse(std::string_view text, std::string_view source = "pools");
  // Unreadable file -> the read error; otherwise as Parse.
  static Result<PoolTable> Load(const std::string& path);

  // The pool a job named `pool` belongs to ("" and unknown names -> default).
  const PoolConfig& Lookup(std::string_view pool) const;
  const std::vector<PoolConfig>& pools() const { return pools_; }

 private:
  std::vector<PoolConfig> pools_;  // sorted by name, unique
  PoolConfig default_;
};

}  // namespace mr::sched
