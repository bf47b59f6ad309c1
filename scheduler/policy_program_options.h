// The policy table's flags on a Boost.Program_options parser: the one loop that adds them
// and the one that reads back what the user gave, shared by the daemons' option group
// (cli/daemon_options.cc) and `mr model tasksim` (model/model_cli.cc). Header-only, so the
// scheduler library itself does not depend on Boost.Program_options; includers link it.
#pragma once

#include <map>
#include <string>

#include <boost/program_options.hpp>

#include "scheduler/policy_flags.h"

namespace mr::sched {

// Adds every policy option flag and --policy-options (PolicyOptionFlags()), as strings:
// the table's types are parsed and checked by PolicyOptionsFromFlags.
inline void AddPolicyOptionFlags(boost::program_options::options_description& desc) {
  for (const PolicyFlag& f : PolicyOptionFlags()) {
    auto* value = boost::program_options::value<std::string>();
    if (f.default_text) value->default_value(*f.default_text);
    desc.add_options()(f.name.c_str(), value, f.help.c_str());
  }
}

// The policy flags the user gave explicitly (not defaulted), for PolicyOptionsFromFlags.
// REQUIRES: vm was parsed with AddPolicyOptionFlags' flags.
inline std::map<std::string, std::string, std::less<>> GivenPolicyFlags(
    const boost::program_options::variables_map& vm) {
  std::map<std::string, std::string, std::less<>> given;
  for (const PolicyFlag& f : PolicyOptionFlags()) {
    if (vm.count(f.name) && !vm[f.name].defaulted()) given[f.name] = vm[f.name].as<std::string>();
  }
  return given;
}

}  // namespace mr::sched
