// Random instances of the slotted model for its tests (bounds and live policies).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "common/rng.h"
#include "model/slotted/slotted_sim.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model::testing {

// Up to 8 jobs arriving over 10 slots on 1-6 machines (set in *machines), 1-6 maps and 0-3
// reduce tasks of 1-5 units each: small enough that queues form and the map-before-reduce
// dependency matters.
inline std::vector<SlottedJob> RandomSlottedInstance(Rng& rng, int* machines) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng.Uniform() * (hi - lo + 1)); };
  *machines = pick(1, 6);
  std::vector<SlottedJob> jobs(static_cast<size_t>(pick(1, 8)));
  for (SlottedJob& j : jobs) {
    j.arrival = pick(1, 10);
    j.maps = pick(1, 6);
    j.reduces.resize(static_cast<size_t>(pick(0, 3)));
    for (int& r : j.reduces) r = pick(1, 5);
  }
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const SlottedJob& a, const SlottedJob& b) { return a.arrival < b.arrival; });
  return jobs;
}

// The hand-worked instance of the slotted tests, N = 2 machines:
// job 1 arrives in slot 1: 2 maps, one reduce task of 2 units;
// job 2 arrives in slot 1: 1 map, one reduce task of 1 unit;
// job 3 arrives in slot 2: 1 map, two reduce tasks of 1 unit.
inline std::vector<SlottedJob> ThreeJobs() { return {{1, 2, {2}}, {1, 1, {1}}, {2, 1, {1, 1}}}; }

// The slotted model under the named policy (a live policy or a paper baseline,
// MakeSlottedPolicy), its schedule recorded; a failure fails the test and returns an empty result.
inline SlottedResult RunSlottedPolicy(const std::string& name, std::span<const SlottedJob> jobs, int machines,
                                      bool preemptive) {
  auto policy = MakeSlottedPolicy(name);
  EXPECT_TRUE(policy.ok()) << policy.status().ToString();
  if (!policy.ok()) return SlottedResult{};
  SlottedOptions o;
  o.machines = machines;
  o.preemptive = preemptive;
  o.record_schedule = true;
  auto r = RunSlotted(jobs, **policy, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : SlottedResult{};
}

}  // namespace mr::model::testing
