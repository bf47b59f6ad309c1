// Argument helpers shared by the `mr model ...` commands (model_cli.cc, model_commands.cc,
// slotted_cli.cc): one way to parse a command's flags and one way to read a comma list.
#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace mr::model {

// Parses args into vm. On --help prints `desc` and returns false with exit_code 0; on a bad
// flag prints "mr model: <message>" to stderr and returns false with exit_code 2.
bool ParseModelArgs(const std::vector<std::string>& args, const boost::program_options::options_description& desc,
                    boost::program_options::variables_map& vm, int& exit_code);

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
std::vector<std::string> SplitCommaList(const std::string& s);

}  // namespace mr::model
