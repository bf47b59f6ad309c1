// The overlapping-tandem-queue policies of docs/policies.md behind one factory:
// fifo, ps, klps (k-limited processor sharing, the Hadoop Fair Scheduler model),
// maxsrpt (Algorithm 1), splitsrpt (Algorithm 2), plus a fixed-priority order
// used to evaluate hand-made schedules. Policies are immutable after creation and
// safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/tandem_sim.h"

namespace mr::model {

// Names accepted by MakeTandemPolicy, in a stable order for help texts and sweeps.
const std::vector<std::string>& TandemPolicyNames();

// "fifo" | "ps" | "klps" (uses k >= 1) | "maxsrpt" | "splitsrpt".
// NotFound (message lists the known names) for anything else; InvalidArgument for k < 1.
Result<std::unique_ptr<TandemPolicy>> MakeTandemPolicy(std::string_view name, int k = 100);

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
