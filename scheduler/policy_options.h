// A policy's options: the declaration of each option in the policy's table row
// (OptionSpec: name, type, default, help, allowed range) and a validated set of
// typed values (PolicyOptions) that reaches the policy's factory. Option names are
// also the command-line flags: option `klps-k` is `--klps-k` on `mr master`,
// `mr cluster start`, an embedded `mr run` and `mr model tasksim`, so an option name
// is unique across all policies (tests/scheduler/policy_table_test.cc checks it).
// Pure values; PolicyOptions is not thread-safe to mutate, safe to share once built.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "common/status.h"

namespace mr::sched {

enum class OptionType {
  kInt,       // decimal integer
  kDouble,    // decimal number
  kString,    // free text
  kPath,      // a file; the CLI makes it absolute before handing it to a child process
  kBytes,     // a byte size ("64MiB", "1000"), stored as an integer
  kDuration,  // seconds with an optional unit ("90s", "12h"), stored as a double
};

// One row of a policy's option list. Numeric types (int, double, bytes, duration) must lie
// in [min, max]; string and path ignore the range. default_text == nullptr: no default
// (the option is absent unless given, e.g. an optional file).
struct OptionSpec {
  const char* name;
  OptionType type;
  const char* default_text;
  const char* help;
  double min = 0;
  double max = 0;
};

// "int", "double", ... as written in help texts and docs.
std::string_view OptionTypeName(OptionType type);
// The allowed values of a numeric option, e.g. "1..1000000" (int) or "[0.1, 60]".
std::string OptionRange(const OptionSpec& spec);

using OptionValue = std::variant<int64_t, double, std::string>;

// `text` parsed as spec's type and checked against its range. InvalidArgument naming the
// option and, for a value out of range, the allowed range.
Result<OptionValue> ParseOptionValue(const OptionSpec& spec, std::string_view text);

// Option values keyed by option name, each already parsed and validated. Getters
// REQUIRE the value to be present and of the option's storage type (int and bytes ->
// Int; double and duration -> Double; string and path -> String).
class PolicyOptions {
 public:
  // Parses and validates `text` (ParseOptionValue), replacing any earlier value.
  Status Set(const OptionSpec& spec, std::string_view text);
  void SetValue(std::string name, OptionValue value) { values_[std::move(name)] = std::move(value); }

  bool Has(std::string_view name) const { return values_.find(name) != values_.end(); }
  int64_t Int(std::string_view name) const;
  double Double(std::string_view name) const;
  const std::string& String(std::string_view name) const;
  const std::map<std::string, OptionValue, std::less<>>& values() const { return values_; }

 private:
  const OptionValue& Get(std::string_view name) const;
  std::map<std::string, OptionValue, std::less<>> values_;
};

// The complete option set of a policy: every option of `specs` with a default, overlaid
// with `given`. An option in `given` that `specs` does not declare is InvalidArgument
// naming `policy`, the option and the policy's options.
Result<PolicyOptions> ResolveOptions(std::string_view policy, std::span<const OptionSpec> specs,
                                     const PolicyOptions& given);

// Reads a `--policy-options` file: `name = value` lines, '#' starts a comment, blank lines
// are ignored; a value may be quoted with "..." to keep '#' or surrounding blanks. Each
// option must be one of `specs` (policy `policy`): an unknown name is InvalidArgument naming
// the option, `path:line` and the policy's options; a bad value names the option, the line
// and the allowed range; an option set twice is an error. Unreadable file -> the read error.
// A relative `path` option is taken relative to the file's directory.
Result<PolicyOptions> LoadPolicyOptionsFile(const std::string& path, std::string_view policy,
                                            std::span<const OptionSpec> specs);
// As LoadPolicyOptionsFile, on text already read; `source` names it in errors.
Result<PolicyOptions> ParsePolicyOptions(std::string_view text, std::string_view source,
                                         std::string_view policy, std::span<const OptionSpec> specs);

}  // namespace mr::sched
