// Plug-ins the loader must refuse (tests/cluster/plugin_test.cc), one library per define:
//   MR_TEST_WRONG_VERSION  a descriptor of ABI version 999
//   MR_TEST_WRONG_LAYOUT   compiled against "other headers": the layout fingerprint differs
//   MR_TEST_THROWS         a factory that throws
//   MR_TEST_NOT_A_PLUGIN   no entry point at all (just a shared library)
//   MR_TEST_THROWS_SOMETIMES  loads, but every other Schedule() with a job in it throws;
//                          the rounds between place every pending map and ready reduce
#include <stdexcept>
#include <string>

#include "scheduler/policy_plugin.h"

#ifdef MR_TEST_THROWS_SOMETIMES
namespace {

class Sometimes final : public mr::sched::Scheduler {
 public:
  std::string_view name() const override { return "sometimes"; }
  mr::sched::Decision Schedule(const mr::sched::Snapshot& snap) override {
    mr::sched::Decision d;
    if (snap.jobs.empty()) return d;
    if (++calls_ % 2 == 1) throw std::runtime_error("round " + std::to_string(calls_) + " went wrong");
    for (const mr::sched::WorkerView& w : snap.workers) {
      int free_map = w.free_map, free_reduce = w.free_reduce;
      for (const mr::sched::JobView& job : snap.jobs) {
        for (int m : job.pending_maps) {
          if (free_map-- <= 0) break;
          d.assignments.push_back({job.id, mr::sched::TaskKind::kMap, m, w.id, mr::sched::SlotKind::kMap});
        }
        for (const mr::sched::ReadyReduce& r : job.ready_reduces) {
          if (r.worker != w.id || free_reduce-- <= 0) continue;
          d.assignments.push_back({job.id, mr::sched::TaskKind::kReduce, r.index, w.id, mr::sched::SlotKind::kReduce});
        }
      }
    }
    return d;
  }

 private:
  int calls_ = 0;
};

mr::sched::Scheduler* Create(const mr::sched::PolicyOptions*, char*, size_t) { return new Sometimes(); }

const MrPolicyPluginV1 kPlugin = {MR_POLICY_PLUGIN_DESCRIPTOR, "sometimes", "throws in every other round", nullptr,
                                  0, {.work_conserving = false}, Create};

}  // namespace

extern "C" MR_POLICY_PLUGIN_EXPORT const MrPolicyPluginV1* mr_policy_plugin_v1() { return &kPlugin; }
#elif !defined(MR_TEST_NOT_A_PLUGIN)
namespace {

mr::sched::Scheduler* Create(const mr::sched::PolicyOptions*, char*, size_t) {
#ifdef MR_TEST_THROWS
  throw std::runtime_error("the student's constructor threw");
#else
  return nullptr;
#endif
}

MrPolicyPluginV1 Descriptor() {
  MrPolicyPluginV1 d = {MR_POLICY_PLUGIN_DESCRIPTOR, "broken", "a plug-in the loader refuses", nullptr, 0, {}, Create};
#ifdef MR_TEST_WRONG_VERSION
  d.abi_version = 999;
#endif
#ifdef MR_TEST_WRONG_LAYOUT
  d.layout ^= 1;
  d.mrlab_version = "mrlab 0.0.9";
#endif
  return d;
}

const MrPolicyPluginV1 kPlugin = Descriptor();

}  // namespace

extern "C" MR_POLICY_PLUGIN_EXPORT const MrPolicyPluginV1* mr_policy_plugin_v1() { return &kPlugin; }
#else
extern "C" __attribute__((visibility("default"))) int not_a_policy() { return 42; }
#endif
