// What the `mr model` commands (cli/model/cmd_*.cc) share: how they parse their flags and
// report a failure. Their help is their options, captioned with the usage line; a bad flag
// or value is "mr model NAME: <what>" (ErrorPrefix: the command's whole name) on stderr,
// exit kExitUsage.
#pragma once

#include <optional>

#include "cli/commands.h"
#include "cli/options.h"

namespace mr::cli {

// ParseFlags in the `mr model` style (desc starts with its own ("help,h", "this help")).
inline std::optional<int> ParseModelFlags(const Args& args, po::options_description& desc, po::variables_map& vm) {
  return ParseFlags(args, desc, vm, CaptionedOptions(ErrorPrefix(args)));
}

// A flag's value was refused: "mr model NAME: <message>", kExitUsage.
inline int BadModelFlag(const Args& args, const Status& s) { return Fail(ErrorPrefix(args), s, kExitUsage); }

// The exit status of a model command's work: kExitOk, or "mr model NAME: <message>" and
// ExitCodeFor(s).
inline int ModelExit(const Args& args, const Status& s) { return s.ok() ? kExitOk : Fail(ErrorPrefix(args), s); }

}  // namespace mr::cli
