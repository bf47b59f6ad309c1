// `mr ARGS...` in this process, through the command table (cli::Main): what a flag test
// needs without starting a process. Output goes to this process's stdout and stderr.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace mr::cli {

inline int RunMr(std::vector<std::string> args) {
  args.insert(args.begin(), "mr");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return Main(static_cast<int>(argv.size()), argv.data());
}

// `mr model ARGS...`.
inline int RunModel(std::vector<std::string> args) {
  args.insert(args.begin(), "model");
  return RunMr(std::move(args));
}

}  // namespace mr::cli
