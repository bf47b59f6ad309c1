// The overlapping-tandem-queue policies of docs/policies.md behind one factory
// (first-come first-served, processor sharing, k-limited processor sharing as the
// Hadoop Fair Scheduler model, Algorithms 1 and 2 of the overlapping-phases paper), plus a fixed-priority order
// used to evaluate hand-made schedules. Policies are immutable after creation and
// safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/fluid/tandem_sim.h"
#include "scheduler/policy_options.h"

namespace mr::model {

// Names accepted by MakeTandemPolicy, in a stable order for help texts and sweeps.
const std::vector<std::string>& TandemPolicyNames();

// A name of TandemPolicyNames() (klps uses k >= 1). NotFound (message lists the known
// names) for anything else; InvalidArgument for k < 1.
Result<std::unique_ptr<TandemPolicy>> MakeTandemPolicy(std::string_view name, int k = 100);

// The fluid policy that models the live policy `live_policy` (e.g. fair -> ps): the one its
// policy table row names (sched::PolicyTraits::fluid), with its parameters taken from the
// live policy's resolved options (klps-k -> k, the fluid table's k_option column). NotFound
// for an unknown live policy or one without a counterpart.
Result<std::unique_ptr<TandemPolicy>> MakeFluidCounterpart(std::string_view live_policy,
                                                           const sched::PolicyOptions& live_options);

// Both stations serve jobs in the order given by rank[id] (smaller first); the
// shuffle is work-conserving in that order. rank must cover every job id.
std::unique_ptr<TandemPolicy> MakeFixedOrderPolicy(std::vector<int> rank);

// Allocation helpers shared by the policies (exposed for tests).
// Gives capacity to idx in order, each up to caps[i]; returns what is left.
double FillInOrder(std::span<const int> idx, double capacity, std::span<const double> caps,
                   std::vector<double>& rates);
// Max-min fair (processor sharing with caps) split of capacity among idx; returns leftover.
double FillFair(std::span<const int> idx, double capacity, std::span<const double> caps,
                std::vector<double>& rates);

}  // namespace mr::model
