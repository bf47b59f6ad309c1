// The plug-in policy ABI: a scheduling policy compiled apart from mrlab, in a shared library,
// that `mr master --policy-plugin LIB.so` (and every command that takes --policy) loads and
// runs like a built-in (docs/policies.md, "Plug-in policies"; an example in
// examples/plugin/). This is the one header a plug-in includes.
//
// A plug-in defines one C entry point, found by name with dlsym:
//
//   extern "C" const MrPolicyPluginV1* mr_policy_plugin_v1();
//
// returning a descriptor with static storage: the ABI version and the layout tag it was
// compiled with (MR_POLICY_PLUGIN_DESCRIPTOR fills both), the policy's name, summary, options
// and traits (as a built-in row of scheduler/policy_table.h declares them) and its factory.
// The loader (scheduler/policies/plugin_loader.h) refuses, with one line naming the file, a
// library without the entry point, a descriptor of another ABI version or layout (compiled
// against other mrlab headers), a name already taken, and a factory that throws; what the
// policy throws later is caught by the loader's wrapper (the round gets no decision), so a
// plug-in's exception never ends the master. A plug-in that crashes (a bad pointer) still
// takes the process with it: it runs in the master's address space.
//
// The policy itself is a sched::Scheduler: it sees a Snapshot and returns a Decision exactly
// as the built-ins do (scheduler/scheduler.h, scheduler/snapshot.h). It may call what mrlab
// itself links (the `mr` binary exports its symbols: scheduler/util's SlotFiller, orders, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scheduler/job_params.h"
#include "scheduler/policy_options.h"
#include "scheduler/policy_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"

// Changes whenever MrPolicyPluginV1 or the meaning of its fields changes.
#define MR_POLICY_PLUGIN_ABI_VERSION 1u

namespace mr::sched {

// A fingerprint of the types a policy shares with mrlab, as this header's includer compiles
// them: a plug-in compiled against other headers (a field added to the snapshot, ...) or by
// an incompatible C++ ABI gets another value and is refused.
constexpr uint64_t PolicyPluginLayout() {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the sizes
  for (uint64_t v : {uint64_t{sizeof(Snapshot)}, uint64_t{sizeof(JobView)}, uint64_t{sizeof(WorkerView)},
                     uint64_t{sizeof(Decision)}, uint64_t{sizeof(JobParams)}, uint64_t{sizeof(PolicyOptions)},
                     uint64_t{sizeof(OptionSpec)}, uint64_t{sizeof(PolicyTraits)}, uint64_t{sizeof(std::string)},
                     uint64_t{__GXX_ABI_VERSION}}) {
    h = (h ^ v) * 1099511628211ull;
  }
  return h;
}

}  // namespace mr::sched

extern "C" {

struct MrPolicyPluginV1 {
  uint32_t abi_version;  // MR_POLICY_PLUGIN_ABI_VERSION when compiled
  uint32_t struct_size;  // sizeof(MrPolicyPluginV1) when compiled
  uint64_t layout;       // mr::sched::PolicyPluginLayout() when compiled
  const char* mrlab_version;  // the headers' mrlab version ("mrlab 0.1.0"), for messages
  const char* name;      // --policy NAME: 1..63 of [a-z0-9_-]
  const char* summary;   // one line
  const mr::sched::OptionSpec* options;  // option names are flags: unique across policies
  size_t option_count;
  mr::sched::PolicyTraits traits;
  // Builds the policy from a complete option set (the row's defaults overlaid with what the
  // user gave, checked against the specs). On a bad option: nullptr and a message in
  // `error` (at most error_size bytes with its NUL). The caller owns the result (delete).
  mr::sched::Scheduler* (*create)(const mr::sched::PolicyOptions* options, char* error, size_t error_size);
};

// Marks the entry point visible in a library built with hidden visibility:
//   extern "C" MR_POLICY_PLUGIN_EXPORT const MrPolicyPluginV1* mr_policy_plugin_v1() { ... }
#define MR_POLICY_PLUGIN_EXPORT __attribute__((visibility("default")))

// The entry point's name and type.
#define MR_POLICY_PLUGIN_ENTRY "mr_policy_plugin_v1"
typedef const MrPolicyPluginV1* (*MrPolicyPluginEntryV1)();

}  // extern "C"

// The descriptor's head: MR_POLICY_PLUGIN_DESCRIPTOR, "name", "summary", options, count,
// traits, create.
#define MR_POLICY_PLUGIN_DESCRIPTOR \
  MR_POLICY_PLUGIN_ABI_VERSION, static_cast<uint32_t>(sizeof(MrPolicyPluginV1)), mr::sched::PolicyPluginLayout(), MR_PLUGIN_MRLAB_VERSION

// The mrlab version the headers are (common/version.h's, as a literal for the descriptor).
#include "common/version.h"
#define MR_PLUGIN_MRLAB_VERSION ::mr::kSoftwareVersion
