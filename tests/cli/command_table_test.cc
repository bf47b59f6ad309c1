// The command table as a user meets it: every command and group, at every depth, has a
// name and a one-line summary, is listed by its group's help, answers --help (and `mr help
// PATH`) with exit 0 and its usage on stdout; an unknown command inside any group exits 2
// with one line on stderr. The table is walked in this process; each command line runs as
// the real binary ($MR_BIN).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include "cli/command.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::cli {
namespace {

using mr::testing::MrBin;
using mr::testing::Sh;

struct Row {
  std::string path;  // "model sweep"
  const Command* command;
};

void Walk(std::span<const Command> table, const std::string& prefix, std::vector<Row>& out) {
  for (const Command& c : table) {
    const std::string path = prefix.empty() ? c.name : prefix + " " + c.name;
    out.push_back({path, &c});
    Walk(c.subcommands, path, out);
  }
}

std::vector<Row> AllRows() {
  std::vector<Row> rows;
  Walk(Commands(), "", rows);
  return rows;
}

size_t Lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(CommandTableTest, EveryRowIsALeafOrAGroupWithASummary) {
  const std::vector<Row> rows = AllRows();
  ASSERT_GT(rows.size(), 20u);  // the top level, mr model's, mr experiment's, mr trace's
  for (const Row& r : rows) {
    SCOPED_TRACE(r.path);
    const Command& c = *r.command;
    ASSERT_NE(c.name, nullptr);
    ASSERT_NE(c.summary, nullptr);
    EXPECT_FALSE(std::string(c.summary).empty());
    EXPECT_EQ(std::string(c.summary).find('\n'), std::string::npos);
    EXPECT_NE(c.run == nullptr, c.subcommands.empty()) << "a row is a leaf (run) or a group (subcommands)";
  }
  std::set<std::string> paths;
  for (const Row& r : rows) EXPECT_TRUE(paths.insert(r.path).second) << "twice: " << r.path;
  for (const char* group : {"model", "experiment", "trace"}) EXPECT_TRUE(paths.count(group)) << group;
}

TEST(CommandTableTest, EveryCommandAnswersHelp) {
  for (const Row& r : AllRows()) {
    SCOPED_TRACE(r.path);
    for (const std::string& line : {MrBin() + " " + r.path + " --help", MrBin() + " help " + r.path}) {
      auto help = Sh(line);
      EXPECT_EQ(help.exit_code, 0) << line << "\n" << help.err;
      EXPECT_TRUE(help.err.empty()) << line << "\n" << help.err;
      EXPECT_NE(help.out.find("mr " + r.path), std::string::npos) << line << " does not name the command:\n"
                                                                  << help.out;
    }
  }
}

TEST(CommandTableTest, EveryGroupListsItsCommands) {
  std::vector<std::pair<std::string, std::span<const Command>>> groups = {{"", Commands()}};
  for (const Row& r : AllRows()) {
    if (!r.command->subcommands.empty()) groups.emplace_back(r.path, r.command->subcommands);
  }
  for (const auto& [path, table] : groups) {
    SCOPED_TRACE(path);
    auto help = Sh(MrBin() + (path.empty() ? "" : " " + path) + " help");
    ASSERT_EQ(help.exit_code, 0) << help.err;
    for (const Command& c : table) {
      EXPECT_NE(help.out.find("\n  " + std::string(c.name) + " "), std::string::npos) << c.name << " in\n" << help.out;
      EXPECT_NE(help.out.find(c.summary), std::string::npos) << c.summary << " in\n" << help.out;
    }
    // Without a command: the same listing, as a usage error.
    auto bare = Sh(MrBin() + (path.empty() ? "" : " " + path));
    EXPECT_EQ(bare.exit_code, 2);
    EXPECT_TRUE(bare.out.empty()) << bare.out;
    EXPECT_NE(bare.err.find(table.front().summary), std::string::npos) << bare.err;
  }
}

TEST(CommandTableTest, UnknownCommandInAnyGroupIsOneLineAndExitTwo) {
  std::vector<std::string> groups = {""};
  for (const Row& r : AllRows()) {
    if (!r.command->subcommands.empty()) groups.push_back(r.path);
  }
  for (const std::string& group : groups) {
    const std::string path = group.empty() ? "nosuch" : group + " nosuch";
    for (const std::string& line : {MrBin() + " " + path + " --flag", MrBin() + " help " + path}) {
      auto r = Sh(line);
      EXPECT_EQ(r.exit_code, 2) << line;
      EXPECT_EQ(Lines(r.err), 1u) << line << "\n" << r.err;
      EXPECT_NE(r.err.find("unknown command '" + path + "'"), std::string::npos) << line << "\n" << r.err;
      EXPECT_TRUE(r.out.empty()) << line << "\n" << r.out;
    }
  }
}

// A mistyped command gets the nearest names of its group, as a mistyped flag does; a word
// near nothing gets the group's help to try. Exit 2, one line, nothing on stdout.
TEST(CommandTableTest, AMistypedCommandGetsTheNearestNames) {
  struct Case {
    std::string args, says;
  } cases[] = {
      {"stauts", "mr: unknown command 'stauts'; did you mean 'status'?\n"},
      {"sttaus --json", "mr: unknown command 'sttaus'; did you mean 'status'?\n"},
      {"model flexx", "mr: unknown command 'model flexx'; did you mean 'model flex'?\n"},
      {"help model tasksin", "mr: unknown command 'model tasksin'; did you mean 'model tasksim'?\n"},
      {"lgos job-000001", "mr: unknown command 'lgos'; did you mean 'logs'?\n"},
      {"hepl", "mr: unknown command 'hepl'; did you mean 'help'?\n"},
      {"experiment rn", "mr: unknown command 'experiment rn'; did you mean 'experiment run'?\n"},
      {"zzzzzz", "mr: unknown command 'zzzzzz' (try 'mr help')\n"},
  };
  for (const Case& c : cases) {
    auto r = Sh(MrBin() + " " + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(r.err, c.says) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(CommandTableTest, UnknownFlagOfAnyLeafIsOneLineAndExitTwo) {
  for (const Row& r : AllRows()) {
    if (r.command->run == nullptr) continue;
    SCOPED_TRACE(r.path);
    auto bad = Sh(MrBin() + " " + r.path + " --no-such-flag");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_EQ(Lines(bad.err), 1u) << bad.err;
    EXPECT_NE(bad.err.find("no-such-flag"), std::string::npos) << bad.err;
  }
}

// A command's errors name it whole, as the user typed it: "mr: cat: ..." at the top level,
// "mr model tasksim: ..." inside a group (not "mr model: ..." nor "mr: tasksim: ..."), for
// a bad flag and for a bad value alike.
std::string ErrorPrefixOf(const std::string& path) {
  return (path.find(' ') == std::string::npos ? "mr: " : "mr ") + path + ": ";
}

TEST(CommandTableTest, ErrorsNameTheWholeCommand) {
  for (const Row& r : AllRows()) {
    if (r.command->run == nullptr) continue;
    SCOPED_TRACE(r.path);
    auto bad = Sh(MrBin() + " " + r.path + " --no-such-flag");
    // `mr hadoop` reads Hadoop's command line, whose first word is a command, not a flag.
    const std::string want = r.path == "hadoop" ? "mr: hadoop: '--no-such-flag' is not supported"
                                                : ErrorPrefixOf(r.path) + "unknown flag --no-such-flag";
    EXPECT_EQ(bad.err.rfind(want, 0), 0u) << bad.err;
  }
  const std::string sim = " --workload no-such.json --policy fifo --workers 1 --map-slots 1 --reduce-slots 1";
  for (const auto& [path, rest] : std::vector<std::pair<std::string, std::string>>{
           {"model tasksim", sim},
           {"model tasksim", sim + " --shuffle-bandwidth fast"},
           {"model slotted-gen", " --out x.json"},
           {"experiment run", " no-such.yaml"},
           {"experiment report", " no-such-dir"},
           {"trace render", " no-such.jsonl --out x.svg"},
           {"trace render", " no-such.jsonl --out x.gif"},
           {"batch plan", " --out x.json"},
           {"profile list", " --state no-such-dir"},
           // A bad value found after parsing (UsageError) names the top-level command too.
           {"worker", " --work-dir wd --master bad"},
           {"worker", " --work-dir wd --master 127.0.0.1:1 --shuffle-link-rate fast"},
           {"worker", " --work-dir wd --master 127.0.0.1:1 --label =x"},
           {"master", " --state st --listen bad"},
           {"data-server", ""},
           {"run", " wordcount --input no-such --output out"},
           {"run", " wordcount --input no-such --output out --reducers 0"},
           {"cluster", " start --workers 0"},
           {"logs", ""},
           {"kill", ""},
           {"cat", ""}}) {
    SCOPED_TRACE(path + rest);
    auto bad = Sh(MrBin() + " " + path + rest);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_EQ(Lines(bad.err), 1u) << bad.err;
    EXPECT_EQ(bad.err.rfind(ErrorPrefixOf(path), 0), 0u) << bad.err;
  }
}

// The long flags (without "--") a leaf's --help lists, "help" excepted.
std::vector<std::string> HelpFlags(const std::string& path) {
  auto help = Sh(MrBin() + " " + path + " --help");
  EXPECT_EQ(help.exit_code, 0) << path;
  std::vector<std::string> out;
  static const std::regex kFlag(R"(\n  (?:-[a-zA-Z0-9] \[ )?--([a-z][a-z0-9-]+))");
  for (std::sregex_iterator it(help.out.begin(), help.out.end(), kFlag), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (name != "help" && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

// "reducers" -> "reudcers": the two letters after the first swapped (else the second
// dropped, for names like "seed" where a swap may change nothing).
std::string Typo(const std::string& name) {
  std::string t = name;
  std::swap(t[1], t[2]);
  if (t == name) t.erase(1, 1);
  return t;
}

// Whether "... (did you mean --a, --b or --c?)" names --flag.
bool Suggested(const std::string& err, const std::string& flag) {
  const size_t at = err.find("did you mean ");
  if (at == std::string::npos) return false;
  static const std::regex kItem("--([a-z][a-z0-9-]*)");
  const std::string list = err.substr(at);
  for (std::sregex_iterator it(list.begin(), list.end(), kItem), end; it != end; ++it) {
    if ((*it)[1] == flag) return true;
  }
  return false;
}

TEST(CommandTableTest, ATypoInAnyFlagOfAnyLeafGetsASuggestion) {
  size_t tried = 0;
  for (const Row& r : AllRows()) {
    if (r.command->run == nullptr) continue;
    const std::vector<std::string> flags = HelpFlags(r.path);
    for (const std::string& flag : flags) {
      if (flag.size() < 4) continue;
      const std::string typo = Typo(flag);
      if (std::find(flags.begin(), flags.end(), typo) != flags.end()) continue;
      SCOPED_TRACE(r.path + " --" + typo);
      auto bad = Sh(MrBin() + " " + r.path + " --" + typo);
      ++tried;
      EXPECT_EQ(bad.exit_code, 2);
      EXPECT_EQ(Lines(bad.err), 1u) << bad.err;
      EXPECT_NE(bad.err.find("unknown flag --" + typo), std::string::npos) << bad.err;
      EXPECT_NE(bad.err.find("did you mean"), std::string::npos) << bad.err;
      EXPECT_TRUE(Suggested(bad.err, flag)) << bad.err;
    }
  }
  EXPECT_GT(tried, 100u);  // every leaf's flags, not a few
}

// A positional argument is parsed as an option of its own name (`mr cat OUTPUT` as
// "output"), but it is no flag: a typo near that name suggests real flags only.
TEST(CommandTableTest, APositionalArgumentIsNeverSuggestedAsAFlag) {
  size_t tried = 0;
  static const std::regex kArgument(R"(\n  ([A-Z][A-Z_]*) )");
  for (const Row& r : AllRows()) {
    if (r.command->run == nullptr) continue;
    auto help = Sh(MrBin() + " " + r.path + " --help");
    const size_t at = help.out.find("arguments:");
    if (at == std::string::npos) continue;
    const std::string section = help.out.substr(at, help.out.find("\n\n", at) - at);
    for (std::sregex_iterator it(section.begin(), section.end(), kArgument), end; it != end; ++it) {
      std::string option = (*it)[1];
      for (char& c : option) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::string typo = option.size() < 4 ? option + "x" : Typo(option);
      SCOPED_TRACE(r.path + " --" + typo);
      auto bad = Sh(MrBin() + " " + r.path + " --" + typo);
      ++tried;
      EXPECT_EQ(bad.exit_code, 2);
      EXPECT_NE(bad.err.find("unknown flag --" + typo), std::string::npos) << bad.err;
      EXPECT_FALSE(Suggested(bad.err, option)) << bad.err;
    }
  }
  EXPECT_GE(tried, 10u);  // run, cluster, status, kill, logs (two), cat, trace render, ...
  auto cat = Sh(MrBin() + " cat --outptu /tmp/x");
  EXPECT_EQ(cat.err, "mr: cat: unknown flag --outptu\n");
}

TEST(CommandTableTest, NoPrefixOfAFlagIsTakenForIt) {
  size_t tried = 0;
  for (const Row& r : AllRows()) {
    if (r.command->run == nullptr) continue;
    const std::vector<std::string> flags = HelpFlags(r.path);
    for (const std::string& flag : flags) {
      if (flag.size() < 6) continue;
      const std::string prefix = flag.substr(0, 4);
      if (std::find(flags.begin(), flags.end(), prefix) != flags.end()) continue;
      SCOPED_TRACE(r.path + " --" + prefix);
      auto bad = Sh(MrBin() + " " + r.path + " --" + prefix + " 1");
      ++tried;
      EXPECT_EQ(bad.exit_code, 2);
      EXPECT_NE(bad.err.find("unknown flag --" + prefix), std::string::npos) << bad.err;
      break;  // one per leaf: the parser is shared
    }
  }
  EXPECT_GT(tried, 15u);  // every leaf with a flag of six letters or more
}

TEST(CommandTableTest, HelpShowsPositionalArgumentsAsPositional) {
  for (const auto& [path, name, option] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"run", "JOB", "--job arg"}, {"cluster", "ACTION", "--action arg"}, {"status", "JOB_ID", "--job-id arg"}}) {
    SCOPED_TRACE(path);
    auto help = Sh(MrBin() + " help " + path);
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("arguments:\n  " + name + " "), std::string::npos) << help.out;
    EXPECT_EQ(help.out.find(option), std::string::npos) << help.out;
  }
}

TEST(CommandTableTest, VersionIsACommand) {
  auto v = Sh(MrBin() + " version");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  auto dashed = Sh(MrBin() + " --version");
  EXPECT_EQ(dashed.exit_code, 0) << dashed.err;
  EXPECT_EQ(v.out.rfind(dashed.out.substr(0, dashed.out.find('\n')), 0), 0u) << v.out << " vs " << dashed.out;
}

}  // namespace
}  // namespace mr::cli
