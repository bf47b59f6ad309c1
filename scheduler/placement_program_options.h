// The --placement flags (scheduler/map_placement.h, PlacementFlags()) on a
// Boost.Program_options parser: the one loop that adds them and the one that reads back the
// config from what the user gave, shared by the daemons' option group
// (cli/daemon_options.cc), `mr model tasksim` (model/model_cli.cc) and `mr model predict`
// (experiment/predict_command.cc). Header-only, as policy_program_options.h.
#pragma once

#include <map>
#include <string>

#include <boost/program_options.hpp>

#include "scheduler/stages/map_placement.h"

namespace mr::sched {

// Adds --placement, --placement-model, -d, -scv, -ca2, -rates as strings, with the
// defaults shown in the help.
inline void AddPlacementFlags(boost::program_options::options_description& desc) {
  for (const PlacementFlag& f : PlacementFlags()) {
    auto* value = boost::program_options::value<std::string>();
    if (f.default_text != nullptr) value->default_value(f.default_text);
    desc.add_options()(f.name, value, f.help);
  }
}

// The config from the placement flags the user gave explicitly (not defaulted).
// REQUIRES: vm was parsed with AddPlacementFlags' flags.
inline Result<PlacementConfig> PlacementConfigFromVm(const boost::program_options::variables_map& vm) {
  std::map<std::string, std::string, std::less<>> given;
  for (const PlacementFlag& f : PlacementFlags()) {
    if (vm.count(f.name) && !vm[f.name].defaulted()) given[f.name] = vm[f.name].as<std::string>();
  }
  return PlacementConfigFromFlags(given);
}

}  // namespace mr::sched
