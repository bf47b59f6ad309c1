// The scheduler's flag tables (scheduler/policy_flags.h: every policy option and
// --policy-options; scheduler/stages/map_placement.h: --placement and its parameters) on a
// Boost.Program_options parser: the one loop that adds each and the one that reads back what
// the user gave, shared by the daemons' option group (cli/daemon_options.cc), `mr model
// tasksim`, `mr model slotted` and `mr model predict`. The scheduler module itself knows no
// argument parser.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.h"
#include "scheduler/policy_flags.h"
#include "scheduler/stages/map_placement.h"

namespace mr::cli {

inline constexpr char kPolicyPluginFlag[] = "policy-plugin";

// Loads every --policy-plugin LIB of a command line (scheduler/policies/plugin_loader.h)
// before the command builds its flags, so that the plug-in's policy and options are in the
// table its flags and help are made from. nullopt: all loaded (or none given); else the exit
// status after "mr: --policy-plugin PATH: why" on stderr. Called by Main for every command;
// the commands that take a policy declare the flag (AddPolicyOptionFlags).
std::optional<int> LoadPolicyPlugins(int argc, char** argv);

// Adds --policy-plugin, every policy option flag and --policy-options (sched::PolicyOptionFlags()), as
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
