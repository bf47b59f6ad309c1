#include "scheduler/policy_options.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "common/file_util.h"
#include "common/units.h"

namespace mr::sched {
namespace {

bool IsNumeric(OptionType t) { return t != OptionType::kString && t != OptionType::kPath; }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

Result<double> ParseNumber(OptionType type, std::string_view text) {
  switch (type) {
    case OptionType::kInt: {
      int64_t v = 0;
      auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
        return Status::InvalidArgument("not an integer");
      }
      return static_cast<double>(v);
    }
    case OptionType::kDouble: {
      double v = 0;
      auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v)) {
        return Status::InvalidArgument("not a number");
      }
      return v;
    }
    case OptionType::kBytes: {
      MR_ASSIGN_OR_RETURN(uint64_t v, ParseBytes(text));
      return static_cast<double>(v);
    }
    case OptionType::kDuration:
      return ParseDuration(text);
    case OptionType::kString:
    case OptionType::kPath:
      break;
  }
  return Status::Internal("not a numeric option type");
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::string OptionList(std::span<const OptionSpec> specs) {
  std::string list;
  for (const OptionSpec& s : specs) list += (list.empty() ? "" : ", ") + std::string(s.name);
  return list.empty() ? "none" : list;
}

const OptionSpec* FindSpec(std::span<const OptionSpec> specs, std::string_view name) {
  for (const OptionSpec& s : specs) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

Status UnknownOption(std::string_view policy, std::string_view name, std::span<const OptionSpec> specs) {
  return Status::InvalidArgument("policy " + std::string(policy) + " has no option '" + std::string(name) +
                                 "' (its options: " + OptionList(specs) + ")");
}

}  // namespace

std::string_view OptionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kInt: return "int";
    case OptionType::kDouble: return "double";
    case OptionType::kString: return "string";
    case OptionType::kPath: return "path";
    case OptionType::kBytes: return "bytes";
    case OptionType::kDuration: return "duration";
  }
  return "?";
}

std::string OptionRange(const OptionSpec& spec) {
  if (!IsNumeric(spec.type)) return "";
  if (spec.type == OptionType::kInt || spec.type == OptionType::kBytes) {
    return Number(spec.min) + ".." + Number(spec.max);
  }
  return "[" + Number(spec.min) + ", " + Number(spec.max) + "]";
}

Result<OptionValue> ParseOptionValue(const OptionSpec& spec, std::string_view text) {
  if (!IsNumeric(spec.type)) return OptionValue(std::string(text));
  auto bad = [&] {
    return Status::InvalidArgument(std::string(spec.name) + " must be " + std::string(OptionTypeName(spec.type)) +
                                   " in " + OptionRange(spec) + ", got '" + std::string(text) + "'");
  };
  Result<double> v = ParseNumber(spec.type, text);
  if (!v.ok() || !(*v >= spec.min && *v <= spec.max)) return bad();
  if (spec.type == OptionType::kInt || spec.type == OptionType::kBytes) {
    return OptionValue(static_cast<int64_t>(*v));
  }
  return OptionValue(*v);
}

Status PolicyOptions::Set(const OptionSpec& spec, std::string_view text) {
  MR_ASSIGN_OR_RETURN(OptionValue v, ParseOptionValue(spec, text));
  values_[spec.name] = std::move(v);
  return Status::Ok();
}

const OptionValue& PolicyOptions::Get(std::string_view name) const {
  auto it = values_.find(name);
  assert(it != values_.end() && "PolicyOptions: option not set");
  return it->second;
}
int64_t PolicyOptions::Int(std::string_view name) const { return std::get<int64_t>(Get(name)); }
double PolicyOptions::Double(std::string_view name) const { return std::get<double>(Get(name)); }
const std::string& PolicyOptions::String(std::string_view name) const { return std::get<std::string>(Get(name)); }

Result<PolicyOptions> ResolveOptions(std::string_view policy, std::span<const OptionSpec> specs,
                                     const PolicyOptions& given) {
  PolicyOptions out;
  for (const OptionSpec& s : specs) {
    if (s.default_text != nullptr) MR_RETURN_IF_ERROR(out.Set(s, s.default_text));
  }
  for (const auto& [name, value] : given.values()) {
    const OptionSpec* s = FindSpec(specs, name);
    if (s == nullptr) return UnknownOption(policy, name, specs);
    // A value set without parsing (SetValue) is checked as its text would be.
    bool numeric = IsNumeric(s->type);
    bool integral = s->type == OptionType::kInt || s->type == OptionType::kBytes;
    if (numeric != !std::holds_alternative<std::string>(value) ||
        (numeric && integral != std::holds_alternative<int64_t>(value))) {
      return Status::InvalidArgument(std::string(name) + " must be " + std::string(OptionTypeName(s->type)));
    }
    if (numeric) {
      double v = integral ? static_cast<double>(std::get<int64_t>(value)) : std::get<double>(value);
      if (!(v >= s->min && v <= s->max)) {
        return Status::InvalidArgument(std::string(name) + " must be " + std::string(OptionTypeName(s->type)) +
                                       " in " + OptionRange(*s) + ", got " + Number(v));
      }
    }
    out.SetValue(name, value);
  }
  return out;
}

Result<PolicyOptions> ParsePolicyOptions(std::string_view text, std::string_view source,
                                         std::string_view policy, std::span<const OptionSpec> specs) {
  PolicyOptions out;
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    std::string where = std::string(source) + ":" + std::to_string(line_no) + ": ";
    // A '#' before the '=' starts a comment; after it, the value decides (it may be quoted).
    size_t eq = line.find('=');
    size_t hash = line.find('#');
    if (hash != std::string_view::npos && (eq == std::string_view::npos || hash < eq)) {
      line = line.substr(0, hash);
      eq = std::string_view::npos;
    }
    if (Trim(line).empty()) continue;
    if (eq == std::string_view::npos) return Status::InvalidArgument(where + "expected 'name = value'");
    std::string name = Trim(line.substr(0, eq));
    std::string value = Trim(line.substr(eq + 1));
    if (!value.empty() && value[0] == '"') {
      size_t close = value.find('"', 1);
      if (close == std::string::npos) return Status::InvalidArgument(where + "unterminated quote");
      std::string rest = Trim(std::string_view(value).substr(close + 1));
      if (!rest.empty() && rest[0] != '#') return Status::InvalidArgument(where + "text after the closing quote");
      value = value.substr(1, close - 1);
    } else if (size_t h = value.find('#'); h != std::string::npos) {
      value = Trim(std::string_view(value).substr(0, h));
    }
    const OptionSpec* spec = FindSpec(specs, name);
    if (spec == nullptr) return UnknownOption(policy, name, specs).WithContext(where.substr(0, where.size() - 2));
    if (out.Has(name)) return Status::InvalidArgument(where + name + " is set twice");
    if (Status s = out.Set(*spec, value); !s.ok()) return Status::InvalidArgument(where + s.message());
  }
  return out;
}

Result<PolicyOptions> LoadPolicyOptionsFile(const std::string& path, std::string_view policy,
                                            std::span<const OptionSpec> specs) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  MR_ASSIGN_OR_RETURN(PolicyOptions options, ParsePolicyOptions(text, path, policy, specs));
  // A relative file named in the file is relative to the file, wherever the reader runs.
  std::string absolute = AbsolutePath(path);
  std::string dir = absolute.substr(0, absolute.find_last_of('/') + 1);
  for (const OptionSpec& s : specs) {
    if (s.type != OptionType::kPath || !options.Has(s.name)) continue;
    const std::string& value = options.String(s.name);
    if (!value.empty() && value[0] != '/') options.SetValue(s.name, dir + value);
  }
  return options;
}

}  // namespace mr::sched
