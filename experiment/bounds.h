// The lower bounds the experiment report may set each policy's measured total flow time
// against (docs/experiments.md, "SRPT bound"): one row per bound. The runner picks an
// experiment's bound (SelectBound): the first row that one of the experiment's policies
// declares (its policy-table row's PolicyTraits::bound) and whose parameters the experiment
// gives (the slotted SRPT bound needs unified slots). The choice is stored in report.json
// and the report computes it on every run with the row's function. Constant table;
// thread-safe; `compute` reads a run's files.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/job_results.h"
#include "scheduler/policy_table.h"

namespace mr::experiment {

// What a bound is computed on. machines == 0: no bound.
struct BoundSpec {
  int machines = 0;  // the unified slots (the slotted model's N machines)
  double round = 1;  // seconds of one slot
  sched::Bound kind = sched::Bound::kSlottedSrpt;
};

struct BoundRow {
  sched::Bound kind;  // the policy trait value that selects it
  const char* name;   // in report.json
  const char* summary;
  // Its parameters on experiment `e`, or nullopt when e's cluster cannot have it.
  std::optional<BoundSpec> (*parameters)(const Experiment& e);
  // The bound of one finished run (RUN_DIR, and that run's rows of jobs.csv), in seconds.
  Result<double> (*compute)(const std::string& run_dir, const std::vector<JobResult>& rows, const BoundSpec& spec);
};

std::span<const BoundRow> BoundTable();
// The row of `kind` / named `name`, or nullptr.
const BoundRow* FindBound(sched::Bound kind);
const BoundRow* FindBound(std::string_view name);

// The bound of `e`'s summary (machines == 0: none), as described above. The slotted SRPT
// bound: over the unified slots, in rounds of the first policy entry whose row has a round
// option (PolicyTraits::round_option): its value as given, else its default; 1 s when no
// entry has one.
BoundSpec SelectBound(const Experiment& e);

}  // namespace mr::experiment
