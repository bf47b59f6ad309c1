#include "experiment/bounds.h"

#include "experiment/prediction.h"
#include "experiment/srpt_bound.h"

namespace mr::experiment {

namespace {

// The slot's length: the first entry whose policy has a round option (asrpt's
// asrpt-round), as resolved for that entry; 1 s when none has one.
double RoundOf(const Experiment& e) {
  for (const PolicyRun& p : e.policies) {
    const sched::PolicyRow* row = sched::FindPolicy(p.policy);
    if (row == nullptr || row->traits.round_option == nullptr) continue;
    Result<sched::PolicyOptions> given = OptionsOf(p);
    if (!given.ok()) return 1;
    Result<sched::PolicyOptions> resolved = sched::ResolvePolicyOptions(p.policy, *given);
    if (!resolved.ok() || !resolved->Has(row->traits.round_option)) return 1;
    return resolved->Double(row->traits.round_option);
  }
  return 1;
}

std::optional<BoundSpec> SlottedParameters(const Experiment& e) {
  BoundSpec b;
  for (const WorkerGroup& g : e.cluster.groups) b.machines += g.count * g.unified_slots;
  if (b.machines == 0) return std::nullopt;
  b.round = RoundOf(e);
  b.kind = sched::Bound::kSlottedSrpt;
  return b;
}

Result<double> SlottedCompute(const std::string& run_dir, const std::vector<JobResult>& rows, const BoundSpec& spec) {
  return RunSrptBound(run_dir, rows, spec.machines, spec.round);
}

constexpr BoundRow kBounds[] = {
    {sched::Bound::kSlottedSrpt, "slotted-srpt",
     "the slotted model's SRPT lower bound on the work each run measured, over the unified slots",
     SlottedParameters, SlottedCompute},
};

}  // namespace

std::span<const BoundRow> BoundTable() { return kBounds; }

const BoundRow* FindBound(sched::Bound kind) {
  for (const BoundRow& b : kBounds) {
    if (b.kind == kind) return &b;
  }
  return nullptr;
}

const BoundRow* FindBound(std::string_view name) {
  for (const BoundRow& b : kBounds) {
    if (name == b.name) return &b;
  }
  return nullptr;
}

BoundSpec SelectBound(const Experiment& e) {
  for (const BoundRow& row : kBounds) {
    bool declared = false;
    for (const PolicyRun& p : e.policies) {
      const sched::PolicyRow* policy = sched::FindPolicy(p.policy);
      declared = declared || (policy != nullptr && policy->traits.bound == row.kind);
    }
    if (!declared) continue;
    if (std::optional<BoundSpec> spec = row.parameters(e)) return *spec;
  }
  return BoundSpec{};
}

}  // namespace mr::experiment
