// Plug-ins the loader must refuse (tests/cluster/plugin_test.cc), one library per define:
//   MR_TEST_WRONG_VERSION  a descriptor of ABI version 999
//   MR_TEST_WRONG_LAYOUT   compiled against "other headers": the layout fingerprint differs
//   MR_TEST_THROWS         a factory that throws
//   MR_TEST_NOT_A_PLUGIN   no entry point at all (just a shared library)
#include <stdexcept>

#include "scheduler/policy_plugin.h"

#ifndef MR_TEST_NOT_A_PLUGIN
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
