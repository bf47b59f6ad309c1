// The `mr` command table: every subcommand, at every depth, is a row of name, summary and
// handler (cf. ninja's kTools); a row with subcommands is a group (`mr model ...`,
// `mr experiment ...`), dispatched and explained by the same code as the top level. The
// rows are in cli/command_table.cc.
//
// Adding a subcommand is one new file and one row:
//   1. cli/cmd_batch.cc (or cli/GROUP/cmd_NAME.cc) defines `int BatchMain(const Args& args)`:
//      it parses args with ParseFlags (cli/options.h) into the options struct of the work,
//      calls the work (which lives in its module and takes the struct and an ostream), and
//      returns an exit status of cli/commands.h;
//   2. cli/command_table.cc declares BatchMain beside the table and adds the row
//      {"batch", "one-line summary", BatchMain} to kCommands (or to a group's table).
// `mr help`, `mr help batch`, `mr batch --help` and the table walk of tests/cli then know it.
#pragma once

#include <span>
#include <string_view>

namespace mr::cli {

// The words of one command's command line: argv[0] is the command's own name as the user
// typed it ("run", "sweep"), the rest are its flags. path: the command's whole name as the
// table dispatched it ("run", "model tasksim"; empty when not dispatched by the table),
// which its errors start with (ErrorPrefix, cli/options.h). Not owned; valid for the call.
struct Args {
  int argc = 0;
  char** argv = nullptr;
  std::string_view path = {};
};

struct Command {
  const char* name;
  const char* summary;  // one line, shown in its group's listing
  // A leaf's handler: parses args, does the work, returns the process exit status. Null
  // for a group.
  int (*run)(const Args& args) = nullptr;
  // A group's commands (`mr NAME COMMAND ...`); empty for a leaf.
  std::span<const Command> subcommands = {};
};

// The top-level table (cli/command_table.cc).
std::span<const Command> Commands();

// `mr` itself: argv[0] is the program, argv[1] the subcommand. Returns the exit status.
// `mr help [PATH...]`, `mr GROUP help [PATH...]`, `--help` and `-h` explain any row; a
// group without a command prints its listing on stderr and returns kExitUsage; an unknown
// command prints one line on stderr and returns kExitUsage.
int Main(int argc, char** argv);

}  // namespace mr::cli
