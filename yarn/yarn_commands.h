// The work of `mr export yarn-fair|yarn-capacity` and `mr import yarn-fair|yarn-capacity`
// (docs/yarn.md): each takes its options struct and the stream the result is printed on
// (or `out`, a file).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "yarn/fair_allocation.h"

namespace mr::yarn {

// `mr export yarn-fair`: the pools from a fair scheduler pools file (--pools), a FLEX pools
// file (--flex-pools: the same format, its minima and maxima) and/or pools given one by one
// (--pool "NAME min_maps=2 weight=2", a pools file's line without its "pool").
struct FairExportOptions {
  std::string pools_file;
  std::string flex_pools_file;
  std::vector<std::string> pool_specs;
  FairExport format;
  std::string out;  // file to write; empty: the stream
};
// InvalidArgument for no pools at all, a pool defined twice, or FairAllocationXml's errors;
// the pools files' own errors (NotFound, IoError, InvalidArgument).
Status RunFairExport(const FairExportOptions& options, std::ostream& out);

// `mr export yarn-capacity`: the queues of a queues file (--queues) or of a batch plan's
// BalancedPools (--plan). --map-slots/--reduce-slots: the cluster's slots, needed by queues
// given in slots (a plan carries its own).
struct CapacityExportOptions {
  std::string queues_file;
  std::string plan_file;
  int map_slots = 0;
  int reduce_slots = 0;
  std::string out;
};
Status RunCapacityExport(const CapacityExportOptions& options, std::ostream& out);

// `mr import yarn-fair FILE` prints the pools file; `mr import yarn-capacity FILE` the
// queues file. What YARN reads but mrlab has no counterpart for is listed in '#' lines.
struct ImportOptions {
  std::string file;
  YarnContainers containers;  // yarn-fair only
  std::string out;
};
Status RunFairImport(const ImportOptions& options, std::ostream& out);
Status RunCapacityImport(const ImportOptions& options, std::ostream& out);

}  // namespace mr::yarn
