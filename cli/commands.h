// The `mr` subcommands. Each handler parses its own options (argv[0] is the
// subcommand name) and returns the process exit status, the contract of README.md
// ("Exit status"): 0 success, 1 the job failed or was killed, 2 bad usage or bad input,
// 3 the cluster could not be reached or refused the request, 130 interrupted. Every
// failure prints one line on stderr naming the problem.
#pragma once

#include <string>

#include "common/status.h"

namespace mr::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitJobFailed = 1;   // the job failed or was killed
inline constexpr int kExitUsage = 2;       // bad usage or bad input
inline constexpr int kExitUnavailable = 3; // the cluster could not be reached or refused the request
inline constexpr int kExitInterrupted = 130;  // SIGINT / SIGTERM (128 + SIGINT, as shells report it)

int MasterMain(int argc, char** argv);
int WorkerMain(int argc, char** argv);
int RunMain(int argc, char** argv);
int SubmitMain(int argc, char** argv);
int StatusMain(int argc, char** argv);
int ClusterMain(int argc, char** argv);
int ModelCommandMain(int argc, char** argv);
int TraceMain(int argc, char** argv);  // cli/cmd_trace.cc
int KillMain(int argc, char** argv);   // cli/cmd_jobs.cc
int ExperimentMain(int argc, char** argv);  // cli/cmd_experiment.cc

// Prints "mr: <message>" on stderr and returns kExitUsage.
int UsageError(const std::string& message);
// True if s says the cluster could not be reached or refused us (network, cluster token,
// protocol version), rather than that the request itself was bad.
bool IsClusterUnavailable(const Status& s);
// A failed request to the cluster: prints "mr: <message>" on stderr and returns
// kExitUnavailable if IsClusterUnavailable(s), else `otherwise` (bad input by default).
int ClientError(const Status& s, int otherwise = kExitUsage);

}  // namespace mr::cli
