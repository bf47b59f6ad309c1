#include "cli/options.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

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

int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kIoError:
      return kExitUsage;
    default:
      return kExitJobFailed;
  }
}

int Fail(std::string_view prefix, const Status& s, int code) {
  std::cerr << prefix << ": " << s.message() << "\n";
  return code;
}

int Fail(std::string_view prefix, const Status& s) { return Fail(prefix, s, ExitCodeFor(s)); }

std::optional<int> ParseFlags(const Args& args, po::options_description& desc, po::variables_map& vm,
                              const FlagUsage& how) {
  if (desc.find_nothrow("help", false) == nullptr) desc.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(args.argc, args.argv);
    parser.options(desc);
    if (how.positional != nullptr) parser.positional(*how.positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      if (how.usage.empty()) {
        std::cout << desc;
      } else {
        std::cout << "usage: " << how.usage << "\n\n" << desc << "\n";
      }
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    const std::string prefix = how.error_prefix.empty() ? "mr: " + std::string(args.argv[0]) : how.error_prefix;
    std::cerr << prefix << ": " << e.what() << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

std::vector<std::string> SplitCommaList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
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
