// The policy table: one row per scheduling policy, the only place a policy's name,
// summary, options and factory are written. CreateScheduler(), `mr help`, the daemons'
// --policy flags, `mr model tasksim`, --policy-options files and docs/policies.md's
// policy list (checked by a test) all read it. Adding a policy is one file (its class)
// plus one row in scheduler/registry.cc (docs/policies.md, "Adding a policy").
// The table is constant; every function here is thread-safe.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "scheduler/policy_options.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

struct PolicyRow {
  // The policy's name: `--policy NAME`. The factory hands it to the class, whose name()
  // returns it, so the name is spelled once.
  const char* name;
  const char* summary;  // one line, for `mr help` and the status page
  std::span<const OptionSpec> options;
  // Builds the policy from a complete, validated option set (every option with a default is
  // present; one without a default only when given). Errors a value cannot be checked for
  // by its range alone (e.g. an unreadable pools file) are returned here.
  Result<std::unique_ptr<Scheduler>> (*create)(std::string_view name, const PolicyOptions& options);
};

// Every policy, in the order help texts list them.
std::span<const PolicyRow> PolicyTable();
// The row named `name`, or nullptr.
const PolicyRow* FindPolicy(std::string_view name);
// The option set CreateScheduler(name, given) hands to the factory: the row's defaults
// overlaid with `given` (ResolveOptions). Unknown name -> UnknownPolicy(name).
Result<PolicyOptions> ResolvePolicyOptions(std::string_view name, const PolicyOptions& given);
// NotFound "unknown policy 'x' (known: fifo, fair, ...)".
Status UnknownPolicy(std::string_view name);
// Every policy's name, comma-separated in table order: "fifo, fair, klps, ...".
std::string PolicyNameList(std::string_view separator = ", ");

}  // namespace mr::sched
