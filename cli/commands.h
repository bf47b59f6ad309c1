// The `mr` subcommands. Each handler parses its own options (argv[0] is the
// subcommand name) and returns the process exit status: 0 success, 1 the job
// failed, 2 bad usage or bad input (one line on stderr naming the problem).
#pragma once

#include <string>

namespace mr::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitJobFailed = 1;
inline constexpr int kExitUsage = 2;

int MasterMain(int argc, char** argv);
int WorkerMain(int argc, char** argv);
int RunMain(int argc, char** argv);
int SubmitMain(int argc, char** argv);
int StatusMain(int argc, char** argv);
int ClusterMain(int argc, char** argv);
int ModelCommandMain(int argc, char** argv);
int TraceMain(int argc, char** argv);  // cli/cmd_trace.cc

// Prints "mr: <message>" on stderr and returns kExitUsage.
int UsageError(const std::string& message);

}  // namespace mr::cli
