// The scheduler's flag tables (scheduler/policy_flags.h: every policy option and
// --policy-options; scheduler/stages/map_placement.h: --placement and its parameters) on a
// Boost.Program_options parser: the one loop that adds each and the one that reads back what
// the user gave, shared by the daemons' option group (cli/daemon_options.cc), `mr model
// tasksim`, `mr model slotted` and `mr model predict`. The scheduler module itself knows no
// argument parser.
#pragma once

#include <map>
#include <string>

#include "cli/options.h"
#include "scheduler/policy_flags.h"
#include "scheduler/stages/map_placement.h"

namespace mr::cli {

// Adds every policy option flag and --policy-options (sched::PolicyOptionFlags()), as
// strings: the table's types are parsed and checked by sched::PolicyOptionsFromFlags.
void AddPolicyOptionFlags(po::options_description& desc);

// The policy flags the user gave explicitly (not defaulted), for PolicyOptionsFromFlags.
// REQUIRES: vm was parsed with AddPolicyOptionFlags' flags.
std::map<std::string, std::string, std::less<>> GivenPolicyFlags(const po::variables_map& vm);

// Adds --placement, --placement-model, -d, -scv, -ca2, -rates as strings, with the
// defaults shown in the help.
void AddPlacementFlags(po::options_description& desc);

// The config from the placement flags the user gave explicitly (not defaulted); errors
// name the flag. REQUIRES: vm was parsed with AddPlacementFlags' flags.
Result<sched::PlacementConfig> PlacementConfigFromVm(const po::variables_map& vm);

}  // namespace mr::cli
