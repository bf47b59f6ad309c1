#include "cli/scheduler_flags.h"

namespace mr::cli {

void AddPolicyOptionFlags(po::options_description& desc) {
  for (const sched::PolicyFlag& f : sched::PolicyOptionFlags()) {
    auto* value = po::value<std::string>();
    if (f.default_text) value->default_value(*f.default_text);
    desc.add_options()(f.name.c_str(), value, f.help.c_str());
  }
}

std::map<std::string, std::string, std::less<>> GivenPolicyFlags(const po::variables_map& vm) {
  std::map<std::string, std::string, std::less<>> given;
  for (const sched::PolicyFlag& f : sched::PolicyOptionFlags()) {
    if (vm.count(f.name) && !vm[f.name].defaulted()) given[f.name] = vm[f.name].as<std::string>();
  }
  return given;
}

void AddPlacementFlags(po::options_description& desc) {
  for (const sched::PlacementFlag& f : sched::PlacementFlags()) {
    auto* value = po::value<std::string>();
    if (f.default_text != nullptr) value->default_value(f.default_text);
    desc.add_options()(f.name, value, f.help);
  }
}

Result<sched::PlacementConfig> PlacementConfigFromVm(const po::variables_map& vm) {
  std::map<std::string, std::string, std::less<>> given;
  for (const sched::PlacementFlag& f : sched::PlacementFlags()) {
    if (vm.count(f.name) && !vm[f.name].defaulted()) given[f.name] = vm[f.name].as<std::string>();
  }
  return sched::PlacementConfigFromFlags(given);
}

}  // namespace mr::cli
