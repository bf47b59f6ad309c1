#include "scheduler/policy_flags.h"

#include "scheduler/policy_table.h"

namespace mr::sched {

std::string PolicyFlagHelp() { return "scheduling policy (" + PolicyNameList() + ")"; }

std::vector<PolicyFlag> PolicyOptionFlags() {
  std::vector<PolicyFlag> flags;
  for (const PolicyRow& row : PolicyTable()) {
    for (const OptionSpec& o : row.options) {
      PolicyFlag f;
      f.name = o.name;
      if (o.default_text != nullptr) f.default_text = o.default_text;
      f.help = std::string(row.name) + ": " + o.help;
      f.is_path = o.type == OptionType::kPath;
      flags.push_back(std::move(f));
    }
  }
  flags.push_back({kPolicyOptionsFlag, std::nullopt,
                   "file of NAME = VALUE lines setting the policy's options (docs/policies.md); "
                   "flags given here win over it",
                   true});
  return flags;
}

bool IsPolicyPathFlag(std::string_view name) {
  for (const PolicyFlag& f : PolicyOptionFlags()) {
    if (f.name == name) return f.is_path;
  }
  return false;
}

Result<PolicyOptions> PolicyOptionsFromFlags(std::string_view policy,
                                             const std::map<std::string, std::string, std::less<>>& given) {
  const PolicyRow* chosen = FindPolicy(policy);
  PolicyOptions out;
  if (auto file = given.find(kPolicyOptionsFlag); file != given.end() && chosen != nullptr) {
    MR_ASSIGN_OR_RETURN(out, LoadPolicyOptionsFile(file->second, chosen->name, chosen->options));
  }
  for (const PolicyRow& row : PolicyTable()) {
    for (const OptionSpec& o : row.options) {
      auto flag = given.find(o.name);
      if (flag == given.end()) continue;
      Result<OptionValue> v = ParseOptionValue(o, flag->second);
      if (!v.ok()) return Status::InvalidArgument("--" + v.status().message());
      if (&row == chosen) out.SetValue(o.name, std::move(*v));
    }
  }
  return out;
}

}  // namespace mr::sched
