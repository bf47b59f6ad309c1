// Dispatch and help for every row of the command table, at every depth.
#include "cli/command.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/scheduler_flags.h"
#include "common/version.h"

namespace mr::cli {
namespace {

const Command* Find(std::span<const Command> table, const char* name) {
  for (const Command& c : table) {
    if (std::strcmp(c.name, name) == 0) return &c;
  }
  return nullptr;
}

bool IsGroup(const Command& c) { return !c.subcommands.empty(); }

bool IsHelpWord(const char* w) {
  return std::strcmp(w, "help") == 0 || std::strcmp(w, "--help") == 0 || std::strcmp(w, "-h") == 0;
}

// "model" + "sweep" -> "model sweep"; the root's path is "".
std::string Join(const std::string& path, const char* word) { return path.empty() ? word : path + " " + word; }

// The error for a word that names no command of the group at `path`: "unknown command
// 'stauts'; did you mean 'status'?" (the nearest names, as for flags: NearestFlags), else
// the group's help to try. Exit kExitUsage.
int UnknownCommand(std::span<const Command> table, const std::string& path, const char* word) {
  std::vector<std::string> names;
  for (const Command& c : table) names.emplace_back(c.name);
  if (path.empty()) names.emplace_back("help");
  const std::vector<std::string> near = NearestFlags(word, names);
  std::string message = "unknown command '" + Join(path, word) + "'";
  if (near.empty()) return UsageError(message + " (try 'mr help" + (path.empty() ? "" : " " + path) + "')");
  message += "; did you mean ";
  for (size_t i = 0; i < near.size(); ++i) {
    message += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + ("'" + Join(path, near[i].c_str()) + "'");
  }
  return UsageError(message + "?");
}

void PrintRootUsage(std::FILE* out) {
  std::fprintf(out,
               "mr — a small MapReduce runtime with research scheduling policies\n\n"
               "usage: mr SUBCOMMAND [options]     (mr help SUBCOMMAND for its options)\n\n");
  for (const Command& c : Commands()) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "  %-10s %s\n", "help", "explain a subcommand");
  std::fprintf(out,
               "\nexamples:\n"
               "  mr run wordcount --input examples/data/sample.txt --output /tmp/wc\n"
               "  mr cluster start --workers 3 && mr run sort --input big.txt --output /tmp/s "
               "--master $(cat mr-cluster/master.addr)\n"
               "\nexit status: 0 success, 1 the job failed or was killed, 2 bad usage or input,\n"
               "3 the cluster could not be reached or refused the request, 130 interrupted\n");
}

// The listing of a group: its usage line and one line per command.
void PrintUsage(std::FILE* out, const std::string& path, std::span<const Command> table) {
  if (path.empty()) return PrintRootUsage(out);
  std::fprintf(out, "usage: mr %s COMMAND [options]   (COMMAND --help for its options)\n", path.c_str());
  // The names' column is as wide as the longest name (at least 9, the width it always had).
  int width = 9;
  for (const Command& c : table) width = std::max(width, static_cast<int>(std::strlen(c.name)));
  for (const Command& c : table) std::fprintf(out, "  %-*s %s\n", width, c.name, c.summary);
}

// `mr [GROUP...] help WORDS...`: the listing of the group WORDS name, or the --help of the
// leaf they name (words after a leaf are ignored).
int Explain(std::span<const Command> table, const std::string& path, int n, char** words) {
  if (n == 0) {
    PrintUsage(stdout, path, table);
    return kExitOk;
  }
  const Command* c = Find(table, words[0]);
  const std::string sub = Join(path, words[0]);
  if (c == nullptr) return UnknownCommand(table, path, words[0]);
  if (IsGroup(*c)) return Explain(c->subcommands, sub, n - 1, words + 1);
  char help[] = "--help";
  std::vector<char*> argv = {words[0], help};
  return c->run(Args{static_cast<int>(argv.size()), argv.data(), sub}) == kExitOk ? kExitOk : kExitUsage;
}

// Runs WORDS (the command line after the group named by path) against the group's table.
int Dispatch(std::span<const Command> table, const std::string& path, int n, char** words) {
  if (n == 0) {
    PrintUsage(stderr, path, table);
    return kExitUsage;
  }
  if (IsHelpWord(words[0])) return Explain(table, path, n - 1, words + 1);
  if (path.empty() && std::strcmp(words[0], "--version") == 0) {
    std::printf("%s\n", kSoftwareVersion);
    return kExitOk;
  }
  const Command* c = Find(table, words[0]);
  const std::string sub = Join(path, words[0]);
  if (c == nullptr) return UnknownCommand(table, path, words[0]);
  if (IsGroup(*c)) return Dispatch(c->subcommands, sub, n - 1, words + 1);
  const Args args{n, words, sub};
  CommandErrorScope errors(ErrorPrefix(args));
  return c->run(args);
}

}  // namespace

int Main(int argc, char** argv) {
  if (auto rc = LoadPolicyPlugins(argc, argv)) return *rc;
  return Dispatch(Commands(), "", argc - 1, argv + 1);
}

}  // namespace mr::cli
