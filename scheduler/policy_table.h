// The policy table: one row per scheduling policy, the only place a policy's name,
// summary, options, factory and traits are written. CreateScheduler(), `mr help`, the
// daemons' --policy flags, `mr model tasksim`, --policy-options files, docs/policies.md's
// policy list (checked by a test), the generic policy tests and the experiment's bounds
// all read it. Adding a policy is one file (its class), one row in
// scheduler/policies/registry.cc and its docs line (docs/policies.md, "Adding a policy").
//
// The built-in rows are constant. Rows may also be registered at run time
// (RegisterPolicy, ScopedPolicyRegistration: a test's toy policy now, plug-in policies
// later); they follow the built-ins in every listing. Every function here is thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/policy_options.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

// What a policy keeps between Schedule() calls that can change a later decision.
enum class RoundMemory {
  kNone,          // nothing: a long-lived object decides exactly as a fresh one
  kServiceTurns,  // whom it served last, so jobs tied for a slot take turns (fair, klps)
  kOther,         // other state (a plan held for a round, a rotation over workers)
};

// The lower bound the experiment report may set a policy's measured total flow time
// against (experiment/bounds.h).
enum class Bound {
  kNone,
  kSlottedSrpt,  // the slotted model's SRPT bound on the work a run measured (unified slots)
};

// What tests and tools need to know about a policy without naming it (docs/policies.md,
// "Adding a policy", says who reads each trait). The defaults describe a plain policy:
// work-conserving, reduces placed as they become ready, nothing kept between rounds, no
// fluid counterpart, no time slot, no bound.
struct PolicyTraits {
  // True: no free slot stays idle while a task that may run on it waits (a reduce: once
  // its job's maps are done when reduces_wait_for_maps). False: the policy may hold maps
  // back with a map slot free (k-LPS admits only k jobs); ready reduces are still placed.
  bool work_conserving = true;
  // True: a job's reduces start only once all of its maps are done (the ASRPT paper's
  // dependency); a reduce that slow start made ready earlier may wait beside a free slot.
  bool reduces_wait_for_maps = false;
  RoundMemory memory = RoundMemory::kNone;
  // The fluid-model policy that models this one: a name in model/fluid's policy table
  // (MakeFluidCounterpart), or nullptr when it has none.
  const char* fluid = nullptr;
  // The option (one of the row's, a duration) that sets the length of the policy's time
  // slot, or nullptr: the slotted model sets it to one slot, the experiment's slotted
  // bound takes its round from it.
  const char* round_option = nullptr;
  Bound bound = Bound::kNone;
  // False: the policy never reads a job's size estimate (it orders by arrival, weights or
  // pools), so the status views say "n/a under POLICY" for the estimate (docs/web.md).
  bool uses_size_estimates = true;
};

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
  PolicyTraits traits = {};
};

// The built-in rows, in the order help texts list them: the policies docs/policies.md lists
// and the golden test pins. Constant storage.
std::span<const PolicyRow> BuiltinPolicies();

// Every policy: the built-ins, then the registered rows in the order they were registered,
// as they are at the call. A row's storage lives until exit, also after UnregisterPolicy,
// so the references and FindPolicy's pointer never dangle.
using PolicyRowRef = std::reference_wrapper<const PolicyRow>;
std::vector<PolicyRowRef> PolicyTable();
// The row named `name`, or nullptr.
const PolicyRow* FindPolicy(std::string_view name);

// Adds `row` after the built-in and earlier registered rows. InvalidArgument when the row
// has no name, summary or factory, a trait names an option the row does not declare, or
// one of its options is named like another row's (option names are flags, unique across
// policies); AlreadyExists when its name is taken. The row is copied; REQUIRES: the
// strings and options it points to have static storage (schedulers keep the name).
Status RegisterPolicy(const PolicyRow& row);
// Takes the registered row `name` out of the table (its storage stays, see PolicyTable).
// NotFound when no registered row has that name; a built-in row cannot be removed.
Status UnregisterPolicy(std::string_view name);

// Registers a row for the lifetime of the object (RegisterPolicy) and removes it at the
// end; status() says whether the registration took. For tests and plug-ins.
class ScopedPolicyRegistration {
 public:
  explicit ScopedPolicyRegistration(const PolicyRow& row);
  ~ScopedPolicyRegistration();
  ScopedPolicyRegistration(const ScopedPolicyRegistration&) = delete;
  ScopedPolicyRegistration& operator=(const ScopedPolicyRegistration&) = delete;
  const Status& status() const { return status_; }

 private:
  std::string name_;
  Status status_;
};

// The option set CreateScheduler(name, given) hands to the factory: the row's defaults
// overlaid with `given` (ResolveOptions). Unknown name -> UnknownPolicy(name).
Result<PolicyOptions> ResolvePolicyOptions(std::string_view name, const PolicyOptions& given);
// NotFound "unknown policy 'x' (known: fifo, fair, ...)".
Status UnknownPolicy(std::string_view name);
// Every policy's name, comma-separated in table order: "fifo, fair, klps, ...".
std::string PolicyNameList(std::string_view separator = ", ");

}  // namespace mr::sched
