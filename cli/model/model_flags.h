// What the `mr model` commands (cli/model/cmd_*.cc) share: how they parse their flags and
// report a failure. Their help is their options, captioned with the usage line; a bad flag
// or value is "mr model: <what>" on stderr, exit kExitUsage.
#pragma once

#include <optional>

#include "cli/commands.h"
#include "cli/options.h"

namespace mr::cli {

inline constexpr char kModelPrefix[] = "mr model";

// ParseFlags in the `mr model` style (desc starts with its own ("help,h", "this help")).
inline std::optional<int> ParseModelFlags(const Args& args, po::options_description& desc, po::variables_map& vm) {
  return ParseFlags(args, desc, vm, CaptionedOptions(kModelPrefix));
}

// A flag's value was refused: "mr model: <message>", kExitUsage.
inline int BadModelFlag(const Status& s) { return Fail(kModelPrefix, s, kExitUsage); }

// The exit status of a model command's work: kExitOk, or "mr model: <message>" and
// ExitCodeFor(s).
inline int ModelExit(const Status& s) { return s.ok() ? kExitOk : Fail(kModelPrefix, s); }

}  // namespace mr::cli
