#include "cli/options.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "cli/commands.h"
#include "common/file_util.h"

namespace mr::cli {

namespace {
std::string& CommandErrorPrefix() {
  static std::string prefix = "mr";
  return prefix;
}
}  // namespace

CommandErrorScope::CommandErrorScope(std::string prefix) : previous_(std::move(prefix)) {
  std::swap(previous_, CommandErrorPrefix());
}

CommandErrorScope::~CommandErrorScope() { std::swap(previous_, CommandErrorPrefix()); }

int UsageError(const std::string& message) {
  std::cerr << CommandErrorPrefix() << ": " << message << "\n";
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
  std::cerr << CommandErrorPrefix() << ": " << s.message() << "\n";
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

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// neighbours, each 1 (the typos a keyboard makes).
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string_view WithoutDashes(std::string_view s) {
  while (!s.empty() && s.front() == '-') s.remove_prefix(1);
  if (auto eq = s.find('='); eq != std::string_view::npos) s = s.substr(0, eq);
  return s;
}

// "job-id" -> "JOB_ID": how a positional argument is named in usage lines.
std::string PositionalName(const std::string& option) {
  std::string out;
  for (char c : option) out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The positional arguments' option names, in order, each once.
std::vector<std::string> PositionalOptions(const po::positional_options_description* positional) {
  std::vector<std::string> names;
  if (positional == nullptr) return names;
  const unsigned n = std::min(positional->max_total_count(), 16u);
  for (unsigned i = 0; i < n; ++i) {
    const std::string& name = positional->name_for_position(i);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

// desc as Boost prints it, without the lines of the positional arguments (an option line
// starts with two spaces and its name; its wrapped help lines with more spaces), and
// before it an "arguments:" section naming them as the usage line does.
std::string HelpText(const po::options_description& desc, const po::positional_options_description* positional) {
  std::ostringstream printed;
  printed << desc;
  const std::vector<std::string> names = PositionalOptions(positional);
  std::vector<std::string> heads;
  std::string arguments;
  for (const std::string& name : names) {
    const po::option_description* opt = desc.find_nothrow(name, false);
    if (opt == nullptr) continue;
    heads.push_back("  " + opt->format_name() + " ");
    char line[64];
    std::snprintf(line, sizeof line, "  %-14s ", PositionalName(name).c_str());
    arguments += line + opt->description() + "\n";
  }
  std::istringstream in(printed.str());
  std::string out, line;
  bool skipping = false;
  while (std::getline(in, line)) {
    bool head = false;
    for (const std::string& h : heads) head = head || line.rfind(h, 0) == 0;
    if (head) {
      skipping = true;
      continue;
    }
    if (skipping && line.rfind("   ", 0) == 0) continue;
    skipping = false;
    out += line + "\n";
  }
  return arguments.empty() ? out : "arguments:\n" + arguments + "\n" + out;
}

}  // namespace

std::vector<std::string> KnownFlags(const po::options_description& desc) {
  std::vector<std::string> out;
  for (const auto& opt : desc.options()) {
    const auto [names, count] = opt->long_names();
    for (size_t i = 0; i < count; ++i) {
      if (!names[i].empty()) out.push_back("--" + names[i]);
    }
    const std::string shrt = opt->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (shrt.size() == 2 && shrt[0] == '-' && shrt[1] != '-') out.push_back(shrt);
  }
  return out;
}

std::vector<std::string> NearestFlags(std::string_view typed, const std::vector<std::string>& known, size_t limit) {
  const std::string_view word = WithoutDashes(typed);
  // "-z": one letter is too little to guess from; "--in": a long flag was meant.
  if (word.size() < 2) return {};
  const bool long_form = typed.rfind("--", 0) == 0;
  const size_t allowed = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  struct Candidate {
    size_t rank;  // edit distance; beyond `allowed` for a prefix match
    std::string flag;
  };
  std::vector<Candidate> found;
  for (const std::string& flag : known) {
    const std::string_view name = WithoutDashes(flag);
    if (long_form && flag.rfind("--", 0) != 0) continue;
    const size_t d = EditDistance(word, name);
    if (d == 0) continue;
    if (d <= allowed) {
      found.push_back({d, flag});
    } else if (word.size() >= 2 && name.rfind(word, 0) == 0) {
      found.push_back({allowed + 1 + name.size() - word.size(), flag});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.flag < b.flag;
  });
  std::vector<std::string> out;
  for (const Candidate& c : found) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), c.flag) == out.end()) out.push_back(c.flag);
  }
  return out;
}

std::string DidYouMean(const std::vector<std::string>& flags) {
  if (flags.empty()) return "";
  std::string list;
  for (size_t i = 0; i < flags.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == flags.size() ? " or " : ", ") + flags[i];
  }
  return " (did you mean " + list + "?)";
}

std::string ErrorPrefix(const Args& args) {
  if (args.path.empty()) return "mr: " + std::string(args.argc > 0 ? args.argv[0] : "");
  return (args.path.find(' ') == std::string_view::npos ? "mr: " : "mr ") + std::string(args.path);
}

std::optional<int> ParseFlags(const Args& args, po::options_description& desc, po::variables_map& vm,
                              const FlagUsage& how) {
  if (desc.find_nothrow("help", false) == nullptr) desc.add_options()("help,h", "show this help");
  const std::string prefix = how.error_prefix.empty() ? ErrorPrefix(args) : how.error_prefix;
  try {
    po::command_line_parser parser(args.argc, args.argv);
    parser.options(desc);
    parser.style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
    if (how.positional != nullptr) parser.positional(*how.positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      if (how.usage.empty()) {
        std::cout << HelpText(desc, how.positional);
      } else {
        std::cout << "usage: " << how.usage << "\n\n" << HelpText(desc, how.positional) << "\n";
      }
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> known = KnownFlags(desc);
    // A positional argument is registered as an option only to be parsed: it is no flag.
    std::vector<std::string> hidden = how.not_suggested;
    for (const std::string& name : PositionalOptions(how.positional)) hidden.push_back("--" + name);
    std::erase_if(known, [&](const std::string& f) { return std::find(hidden.begin(), hidden.end(), f) != hidden.end(); });
    std::cerr << prefix << ": unknown flag " << e.get_option_name()
              << DidYouMean(NearestFlags(e.get_option_name(), known)) << "\n";
    return kExitUsage;
  } catch (const po::error& e) {
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

Result<HostPort> ClientMasterAddress(const po::variables_map& vm) {
  auto given = MasterAddress(vm);
  if (given.ok() || given.status().code() != StatusCode::kNotFound) return given;
  const std::string file = JoinPath(kDefaultClusterDir, "master.addr");
  auto text = ReadFileToString(file);
  if (!text.ok()) {
    return Status::NotFound("no master given: use --master HOST:PORT, set MR_MASTER, or run where `mr cluster "
                            "start` left " + file);
  }
  std::string addr = *text;
  while (!addr.empty() && std::isspace(static_cast<unsigned char>(addr.back()))) addr.pop_back();
  auto parsed = ParseHostPort(addr);
  if (!parsed.ok()) return parsed.status().WithContext(file);
  return parsed;
}

}  // namespace mr::cli
