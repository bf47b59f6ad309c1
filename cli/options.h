// Shared Boost.Program_options plumbing for the subcommands: the one argv parser (one clear
// error line, --help), comma lists, the token file and the master address default from
// $MR_MASTER.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/command.h"
#include "common/auth.h"
#include "common/status.h"
#include "common/units.h"

namespace mr::cli {

namespace po = boost::program_options;

// How a command presents itself to ParseFlags.
struct FlagUsage {
  // Non-empty: --help prints "usage: USAGE", a blank line, the options and a blank line
  // (the top-level commands). Empty: the options alone, whose caption is the usage line
  // (`mr model` commands).
  std::string usage;
  // A bad flag prints "PREFIX: <what>"; empty: "mr: NAME" (NAME = argv[0]).
  std::string error_prefix;
  const po::positional_options_description* positional = nullptr;
};

// --help prints "usage: USAGE", a blank line and the options; a bad flag "mr: NAME: <what>".
inline FlagUsage UsageLine(std::string usage, const po::positional_options_description* positional = nullptr) {
  return FlagUsage{std::move(usage), "", positional};
}
// --help prints the options, whose caption is the usage; a bad flag "PREFIX: <what>".
inline FlagUsage CaptionedOptions(std::string error_prefix) { return FlagUsage{"", std::move(error_prefix), nullptr}; }

// The argv parser of every command: parses args (after argv[0]) against desc into vm,
// adding --help/-h unless desc has --help. Returns kExitOk after printing the help on
// stdout, kExitUsage after printing a bad, unknown or missing flag on stderr (one line),
// nullopt to go on (vm notified).
std::optional<int> ParseFlags(const Args& args, po::options_description& desc, po::variables_map& vm,
                              const FlagUsage& how = {});

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
std::vector<std::string> SplitCommaList(const std::string& s);

// --token-file, if given: the token, with a one-line warning on stderr for a
// file others can read. Errors name the file. No option: the empty token.
Result<auth::ClusterToken> TokenOption(const po::variables_map& vm);

// --master, else $MR_MASTER, else NotFound.
Result<HostPort> MasterAddress(const po::variables_map& vm);

}  // namespace mr::cli
