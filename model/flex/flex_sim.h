// The FLEX paper's simulation experiment (section 4.1 of "FLEX: A Slot Allocation Scheduling
// Optimizer for MapReduce Workloads"): for each of N random instances (flex_workload.h) the
// metric under FIFO, FAIR and FLEX divided by the optimum over all priority orders, then the
// average and worst ratio per scheme. Instances whose optimum is not positive (lateness can
// be <= 0) are skipped, as the paper does. `mr model flex` is a thin layer over RunFlexSim;
// bench/flex drives it until then. Single-threaded; deterministic for a seed.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/flex/flex_workload.h"
#include "scheduler/flex/allocator.h"

namespace mr::model {

enum class FlexOptimumMethod {
  kSearch,       // OptimumBySearch seeded with FLEX's order (exact)
  kEnumeration,  // OptimumByEnumeration: all J! orders (J <= 10; slow at 10)
  kNone,         // no optimum: ratios to FLEX instead
};

struct FlexSimOptions {
  FlexWorkloadOptions workload;
  int instances = 100;
  flex::FlexOptions flex;  // the allocator's options for the FLEX scheme
  FlexOptimumMethod optimum = FlexOptimumMethod::kSearch;
  bool csv = false;           // RunFlexSim: one CSV row per scheme instead of a table
  bool per_instance = false;  // RunFlexSim: also one CSV row per instance and scheme
};

struct FlexSchemeStats {
  std::string scheme;     // "fifo", "fair", "flex"
  double mean_ratio = 0;  // over the instances counted
  double worst_ratio = 0;
  double mean_value = 0;  // the metric itself, mean over the instances counted
};

struct FlexInstanceRow {
  int index = 0;
  double optimum = 0;
  std::vector<double> values;  // per scheme, in FlexSimResult::schemes order
  std::string flex_order;      // the order FLEX chose
  int64_t search_nodes = 0;
};

struct FlexSimResult {
  std::vector<FlexSchemeStats> schemes;  // fifo, fair, flex
  int counted = 0;                       // instances with a positive optimum
  int skipped = 0;
  double mean_slack = 0;                   // realised: 1 - sum of (normalised) minima / S
  std::map<std::string, int> flex_orders;  // how often each order won
  int64_t search_nodes = 0;                // total, for the optimum search
  std::vector<FlexInstanceRow> rows;
};

// InvalidArgument for bad options (CheckFlexWorkload; instances >= 1; enumeration with more
// than 10 jobs, search with more than 12).
Result<FlexSimResult> SimulateFlex(const FlexSimOptions& options);

// SimulateFlex, printed: a header line ("# flex model: ..."), then per scheme the mean and
// worst ratio to the optimum (a table, or CSV with options.csv), then the realised slack,
// the skipped instances and the orders FLEX chose. Returns SimulateFlex's status.
Status RunFlexSim(const FlexSimOptions& options, std::ostream& out);

}  // namespace mr::model
