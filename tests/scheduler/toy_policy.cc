// The toy policy (toy_policy.h): the newest job first, each takes every free slot it can
// use before the next (fifo reversed); the newest job with shuffle data gets the whole
// shuffle share. Registered for the life of the test binary.
#include "tests/scheduler/toy_policy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "scheduler/policy_table.h"
#include "scheduler/util/policy_util.h"
#include "scheduler/util/slot_filler.h"

namespace mr::sched::testing {
namespace {

class LifoScheduler final : public Scheduler {
 public:
  explicit LifoScheduler(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }

  Decision Schedule(const Snapshot& snap) override {
    Decision d;
    ArrivalOrder(snap, &order_);
    std::reverse(order_.begin(), order_.end());
    SlotFiller filler(snap, &d, &buffers_);
    filler.PlaceReduces(order_);
    filler.FillInOrder(order_);
    const int head = FirstWithShuffleData(snap, order_);
    if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;
    d.note = order_.empty() ? std::string(name_) + ": no jobs"
                            : Format("%s: job %llu first (newest of %zu)", std::string(name_).c_str(),
                                     static_cast<unsigned long long>(snap.jobs[order_[0]].id), snap.jobs.size());
    return d;
  }

 private:
  std::string_view name_;
  std::vector<int> order_;
  SlotFillerBuffers buffers_;
};

Result<std::unique_ptr<Scheduler>> MakeLifo(std::string_view name, const PolicyOptions&) {
  return std::unique_ptr<Scheduler>(std::make_unique<LifoScheduler>(name));
}

const PolicyRow kToyRow = {kToyPolicy, "test-only toy: latest arrival first", {}, MakeLifo};

// Registered before main (gtest evaluates the parameterized tests' generators in main), and
// removed after every test has run.
const ScopedPolicyRegistration kRegistration(kToyRow);
[[maybe_unused]] const bool kRegistered = [] {
  if (!kRegistration.status().ok()) {
    std::fprintf(stderr, "toy policy: %s\n", kRegistration.status().ToString().c_str());
    std::abort();
  }
  return true;
}();

}  // namespace
}  // namespace mr::sched::testing
