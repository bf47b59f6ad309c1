// The policy table seen as command-line flags, for every command that picks a policy
// (`mr master`, `mr cluster start`, an embedded `mr run`, `mr model tasksim`). The rule:
// option NAME of any policy is the flag --NAME, its help is "POLICY: help"; --policy-options
// FILE sets the chosen policy's options from a file (scheduler/policy_options.h), and a flag
// given on the command line wins over the file. Free of any argument parser: callers add
// these flags to theirs and hand back what the user gave. Thread-safe (constant table).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/policy_options.h"

namespace mr::sched {

inline constexpr char kPolicyOptionsFlag[] = "policy-options";

struct PolicyFlag {
  std::string name;                         // without "--"
  std::optional<std::string> default_text;  // shown as (=...) in help
  std::string help;
  bool is_path = false;                     // a file: make it absolute for a child process
};

// "scheduling policy (fifo, fair, ...)": the help of --policy.
std::string PolicyFlagHelp();
// Every option of every policy, in table order, then --policy-options.
std::vector<PolicyFlag> PolicyOptionFlags();
// True if --name is a policy option or --policy-options whose value is a file.
bool IsPolicyPathFlag(std::string_view name);

// The option set for `policy` from the flags the user gave explicitly (`given`: flag name
// without "--" -> text; may hold other flags, which are ignored) and from the file of
// --policy-options, if present in `given`. Every given policy-option flag is checked
// against its own row, even one of another policy (accepted and then ignored, as
// always); the file is strict (unknown option = error naming it, the file and line).
// A bad flag value is InvalidArgument "--NAME must be ...". Unknown policy: the options
// are not checked against a row (CreateScheduler reports the name).
Result<PolicyOptions> PolicyOptionsFromFlags(std::string_view policy,
                                             const std::map<std::string, std::string, std::less<>>& given);

}  // namespace mr::sched
