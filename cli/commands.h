// The exit status of `mr` and its subcommands, in one place: the contract of README.md
// ("Exit status"). Every failure prints one line on stderr naming the problem. The
// subcommands themselves are rows of the command table (cli/command.h).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitJobFailed = 1;   // the job failed or was killed; a model's own failure
inline constexpr int kExitUsage = 2;       // bad usage or bad input
inline constexpr int kExitUnavailable = 3; // the cluster could not be reached or refused the request
inline constexpr int kExitInterrupted = 130;  // SIGINT / SIGTERM (128 + SIGINT, as shells report it)

// Prints "PREFIX: <message>" on stderr and returns kExitUsage. PREFIX names the running
// command as ErrorPrefix does ("mr: worker", "mr model tasksim"): the one CommandErrorScope
// the dispatcher opens around the leaf it runs; "mr" outside any (an unknown command).
int UsageError(const std::string& message);
// While alive, UsageError's and ClientError's lines start with `prefix` (the dispatcher's, cli/command.cc: one
// per leaf it runs, so a flag's bad value names the subcommand as ParseFlags' errors do).
// Nests: the previous prefix comes back on destruction. Not thread-safe: commands are
// dispatched from one thread.
class CommandErrorScope {
 public:
  explicit CommandErrorScope(std::string prefix);
  ~CommandErrorScope();
  CommandErrorScope(const CommandErrorScope&) = delete;
  CommandErrorScope& operator=(const CommandErrorScope&) = delete;

 private:
  std::string previous_;
};
// True if s says the cluster could not be reached or refused us (network, cluster token,
// protocol version), rather than that the request itself was bad.
bool IsClusterUnavailable(const Status& s);
// A failed request to the cluster: prints "PREFIX: <message>" (as UsageError) on stderr and returns
// kExitUnavailable if IsClusterUnavailable(s), else `otherwise` (bad input by default).
int ClientError(const Status& s, int otherwise = kExitUsage);

// The exit status of a command whose work (a model, an analysis of traces) failed with s:
// kExitUsage for bad input (InvalidArgument, NotFound, AlreadyExists, IoError: a flag's
// value or a file it names), kExitJobFailed for anything else (the model's own failure).
int ExitCodeFor(const Status& s);
// Prints "<prefix>: <message of s>" on stderr and returns `code`, or ExitCodeFor(s).
int Fail(std::string_view prefix, const Status& s, int code);
int Fail(std::string_view prefix, const Status& s);

}  // namespace mr::cli
