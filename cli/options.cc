#include "cli/options.h"

#include <cstdlib>
#include <iostream>

#include "cli/commands.h"

namespace mr::cli {

int UsageError(const std::string& message) {
  std::cerr << "mr: " << message << "\n";
  return kExitUsage;
}

bool IsClusterUnavailable(const Status& s) {
  switch (s.code()) {
    case StatusCode::kNetworkError:
    case StatusCode::kProtocolError:
    case StatusCode::kPermissionDenied:
    case StatusCode::kUnavailable:
      return true;
    default:
      return false;
  }
}

int ClientError(const Status& s, int otherwise) {
  std::cerr << "mr: " << s.message() << "\n";
  return IsClusterUnavailable(s) ? kExitUnavailable : otherwise;
}

std::optional<int> ParseOrExit(int argc, char** argv, const std::string& usage, po::options_description& desc,
                               const po::positional_options_description* positional, po::variables_map& vm) {
  desc.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(desc);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage << "\n\n" << desc << "\n";
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return UsageError(std::string(argv[0]) + ": " + e.what());
  }
  return std::nullopt;
}

Result<auth::ClusterToken> TokenOption(const po::variables_map& vm) {
  if (!vm.count("token-file")) return auth::ClusterToken();
  std::string warning;
  auto token = auth::ClusterToken::FromFile(vm["token-file"].as<std::string>(), &warning);
  if (!warning.empty()) std::cerr << "mr: warning: " << warning << "\n";
  return token;
}

Result<HostPort> MasterAddress(const po::variables_map& vm) {
  std::string addr;
  if (vm.count("master")) {
    addr = vm["master"].as<std::string>();
  } else if (const char* env = std::getenv("MR_MASTER"); env != nullptr && *env != '\0') {
    addr = env;
  } else {
    return Status::NotFound("no master given: use --master HOST:PORT or set MR_MASTER");
  }
  return ParseHostPort(addr);
}

}  // namespace mr::cli
