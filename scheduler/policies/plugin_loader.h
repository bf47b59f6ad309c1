// Loading plug-in policies (scheduler/policy_plugin.h): a shared library's descriptor checked
// and its policy registered in the policy table (RegisterPolicy), so that CreateScheduler,
// the daemons' flags, `mr help`, the task-level simulator and the generic policy tests see it
// like a built-in row. Thread-safe. A loaded library stays loaded until exit (the table's
// rows and the policies point into it).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::sched {

// Loads `path` (dlopen, every symbol bound now) and registers its policy; returns the
// policy's name. The same file loaded again (same descriptor): its name, nothing registered
// twice. Errors, each one line beginning with the path:
//   NotFound        the file does not exist
//   InvalidArgument not a shared library dlopen can load (its reason, e.g. an undefined
//                   symbol), no mr_policy_plugin_v1 entry point, a descriptor of another ABI
//                   version, size or layout (it names both mrlab versions), a bad name, a
//                   factory that throws or a policy that throws on an empty snapshot, and
//                   RegisterPolicy's refusals (a name or option already taken)
Result<std::string> LoadPolicyPlugin(const std::string& path);

// The absolute paths of the plug-ins loaded so far, in load order: what a command passes on
// (--policy-plugin) to the master processes it starts (the experiment runner's clusters).
std::vector<std::string> LoadedPolicyPlugins();

}  // namespace mr::sched
