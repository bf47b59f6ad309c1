// Hadoop Streaming's command line (`hadoop jar hadoop-streaming.jar ARGS`, `mapred streaming
// ARGS`) read into the command line of `mr run streaming` with the Hadoop dialect: every
// streaming and generic option Hadoop documents is either applied, accepted with no effect,
// or refused by name (docs/streaming.md lists each; kStreamingOptions below is the table).
// Pure functions of their arguments and the environment (hdfs_paths.h); thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/status.h"

namespace mr::hadoop {

enum class OptionUse { kApplied, kNoEffect, kRefused };
struct StreamingOption {
  const char* name;  // without the leading '-'
  bool takes_value;
  OptionUse use;
  const char* what;  // one line for docs/streaming.md
};
std::span<const StreamingOption> StreamingOptions();

struct StreamingInvocation {
  std::vector<std::string> run_args;  // `mr run` arguments after "run": streaming, its flags
  std::string output;                 // the local output directory
  std::string output_as_given;        // as the user named it (hdfs:///...)
  bool help = false;                  // -help / -info: print the usage, run nothing
};

// Reads Hadoop Streaming's arguments (after the jar name). InvalidArgument naming the option
// for an unknown or refused option, a missing value or -input/-output/-mapper, or a value
// Hadoop would reject.
Result<StreamingInvocation> ParseStreamingArgs(const std::vector<std::string>& args);

}  // namespace mr::hadoop
