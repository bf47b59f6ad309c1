// Shared Boost.Program_options plumbing for the subcommands: parsing with one
// clear error line, --help, and the master address default from $MR_MASTER.
#pragma once

#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "common/auth.h"
#include "common/status.h"
#include "common/units.h"

namespace mr::cli {

namespace po = boost::program_options;

// Parses argv into vm. Returns an exit status to return immediately (help was
// printed, or a usage error was reported), or nullopt to continue.
std::optional<int> ParseOrExit(int argc, char** argv, const std::string& usage, po::options_description& desc,
                               const po::positional_options_description* positional, po::variables_map& vm);

// --token-file, if given: the token, with a one-line warning on stderr for a
// file others can read. Errors name the file. No option: the empty token.
Result<auth::ClusterToken> TokenOption(const po::variables_map& vm);

// --master, else $MR_MASTER, else NotFound.
Result<HostPort> MasterAddress(const po::variables_map& vm);

}  // namespace mr::cli
