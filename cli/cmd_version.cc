// `mr version`: the software and protocol versions (as `mr --version`, with the protocol).
#include <cstdio>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/version.h"

namespace mr::cli {

int VersionMain(const Args& args) {
  po::options_description desc("mr version");
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr version"))) return *rc;
  std::printf("%s (protocol %u)\n", kSoftwareVersion, kProtocolVersion);
  return kExitOk;
}

}  // namespace mr::cli
