#include "cli/scheduler_flags.h"

#include <cstring>

#include "cli/commands.h"
#include "scheduler/policies/plugin_loader.h"

namespace mr::cli {

std::optional<int> LoadPolicyPlugins(int argc, char** argv) {
  const size_t n = std::strlen(kPolicyPluginFlag);
  for (int i = 1; i < argc; ++i) {
    std::string_view word(argv[i]);
    if (word == "--") break;
    std::string path;
    if (word.size() == n + 2 && word.substr(2) == kPolicyPluginFlag && word.substr(0, 2) == "--") {
      if (i + 1 >= argc) return UsageError(std::string("--") + kPolicyPluginFlag + " needs a shared library");
      path = argv[++i];
    } else if (word.size() > n + 3 && word.substr(0, 2) == "--" && word.substr(2, n) == kPolicyPluginFlag &&
               word[n + 2] == '=') {
      path = std::string(word.substr(n + 3));
    } else {
      continue;
    }
    Result<std::string> loaded = sched::LoadPolicyPlugin(path);
    if (!loaded.ok()) return UsageError(std::string("--") + kPolicyPluginFlag + " " + loaded.status().message());
  }
  return std::nullopt;
}

void AddPolicyOptionFlags(po::options_description& desc) {
  desc.add_options()(kPolicyPluginFlag, po::value<std::vector<std::string>>()->composing(),
                     "a plug-in policy to load (a shared library built against mrlab's headers, "
                     "docs/policies.md \"Plug-in policies\"); repeatable; then --policy NAME runs it");
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
