// Shared Boost.Program_options plumbing for the subcommands: the one argv parser (one clear
// error line, --help with positional arguments shown as such, no prefix guessing, the
// nearest known flags for a typo), comma lists, the token file and the master address
// default from $MR_MASTER (and ./mr-cluster/master.addr for clients).
#pragma once

#include <optional>
#include <string>
#include <string_view>
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
  // A bad flag prints "PREFIX: <what>"; empty: ErrorPrefix(args).
  std::string error_prefix;
  const po::positional_options_description* positional = nullptr;
  // Flags of desc that do not apply to this command line and are never suggested for a
  // typo ("--maps" of synthetic when the job is wordcount): "--name" forms.
  std::vector<std::string> not_suggested;
};

// How a command's errors start: "mr: run" for a top-level command, "mr model tasksim" for
// one inside a group (its whole name, as typed), "mr: NAME" (argv[0]) when args.path is empty.
std::string ErrorPrefix(const Args& args);

// --help prints "usage: USAGE", a blank line and the options; a bad flag "ErrorPrefix: <what>".
inline FlagUsage UsageLine(std::string usage, const po::positional_options_description* positional = nullptr) {
  return FlagUsage{std::move(usage), "", positional, {}};
}
// --help prints the options, whose caption is the usage; a bad flag "PREFIX: <what>".
inline FlagUsage CaptionedOptions(std::string error_prefix) { return FlagUsage{"", std::move(error_prefix), nullptr, {}}; }

// The argv parser of every command: parses args (after argv[0]) against desc into vm,
// adding --help/-h unless desc has --help. A flag must be spelled whole: no prefix is taken
// for the flag it begins (Boost's allow_guessing is off), so adding a flag never changes
// what an existing command line means. An unknown flag's error names the nearest known
// flags of desc (NearestFlags; not those in how.not_suggested, nor the positional
// arguments' internal names: `mr cat OUTPUT` has no flag --output): "unknown flag --inptu
// (did you mean --input?)". --help prints the positional arguments under "arguments:" by their
// upper-case names (JOB), not as "--job arg". Returns kExitOk after printing the help on
// stdout, kExitUsage after printing a bad, unknown or missing flag on stderr (one line),
// nullopt to go on (vm notified).
std::optional<int> ParseFlags(const Args& args, po::options_description& desc, po::variables_map& vm,
                              const FlagUsage& how = {});

// Every flag desc knows, as "--name" (its long names) and "-x" (its short ones).
std::vector<std::string> KnownFlags(const po::options_description& desc);
// The known flags a user who typed `typed` ("--inptu", "--red") most likely meant, best
// first, at most `limit`: those within a small edit distance (optimal string alignment:
// one insertion, deletion, substitution or swap of neighbours each; at most 1 for names up
// to 4 letters, 2 up to 8, 3 beyond), then those that begin with what was typed. Empty
// when none is near.
std::vector<std::string> NearestFlags(std::string_view typed, const std::vector<std::string>& known,
                                      size_t limit = 3);
// " (did you mean --input?)", " (did you mean --reducers or --reduce-slots?)", "" for none.
std::string DidYouMean(const std::vector<std::string>& flags);

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
std::vector<std::string> SplitCommaList(const std::string& s);

// --token-file, if given: the token, with a one-line warning on stderr for a
// file others can read. Errors name the file. No option: the empty token.
Result<auth::ClusterToken> TokenOption(const po::variables_map& vm);

// --master, else $MR_MASTER, else NotFound.
Result<HostPort> MasterAddress(const po::variables_map& vm);
// Where a client (mr submit, status, kill, logs) finds the master: MasterAddress, else the
// address `mr cluster start` left in ./mr-cluster/master.addr, else NotFound naming all three.
Result<HostPort> ClientMasterAddress(const po::variables_map& vm);
inline constexpr const char* kDefaultClusterDir = "mr-cluster";
inline constexpr const char* kClientMasterHelp = "master address (default $MR_MASTER, else ./mr-cluster/master.addr)";

}  // namespace mr::cli
