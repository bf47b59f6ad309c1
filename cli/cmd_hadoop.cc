// `mr hadoop`: Hadoop's command line on mrlab (docs/streaming.md). `jar ANY-streaming.jar
// ARGS` and `streaming ARGS` (as `mapred streaming`) run a Hadoop Streaming job through
// `mr run` (on $MR_MASTER, or an embedded local cluster), then name its output and print its
// counters as Hadoop does; `version` answers as a Hadoop would; `fs` / `dfs` are the file
// commands of hadoop/fs_shell.h. A `hadoop` on the PATH may be a script that runs
// `mr hadoop "$@"` (scripts/hadoop-shims/).
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "hadoop/fs_shell.h"
#include "hadoop/job_output.h"
#include "hadoop/streaming_args.h"

namespace mr::cli {

int RunMain(const Args& args);

namespace {

constexpr const char* kUsage =
    "usage: mr hadoop jar HADOOP-STREAMING.jar [GENERIC OPTIONS] STREAMING OPTIONS\n"
    "       mr hadoop streaming [GENERIC OPTIONS] STREAMING OPTIONS   (as mapred streaming)\n"
    "       mr hadoop mapred streaming ...\n"
    "       mr hadoop version\n"
    "       mr hadoop fs -ls|-mkdir|-put|-cat|-du|-rm|-touchz|-get|-test ...\n"
    "Hadoop Streaming's options, Hadoop's properties and the hdfs:// root: docs/streaming.md\n";

int Streaming(const std::vector<std::string>& args) {
  auto inv = hadoop::ParseStreamingArgs(args);
  if (!inv.ok()) return UsageError(inv.status().message());
  if (inv->help) {
    std::cout << kUsage;
    return kExitOk;
  }
  std::vector<std::string> words = {"run"};
  words.insert(words.end(), inv->run_args.begin(), inv->run_args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int rc = RunMain(Args{static_cast<int>(words.size()), argv.data()});
  if (rc != kExitOk) {
    std::cerr << "Streaming Command Failed!\n";
    return rc;
  }
  if (Status s = hadoop::FinishOutput(inv->output); !s.ok()) {
    std::cerr << "mr: naming the output as Hadoop does: " << s.message() << "\n";
    return kExitJobFailed;
  }
  const std::time_t now = std::time(nullptr);
  if (auto counters = hadoop::JobCounters(inv->output); counters.ok()) {
    hadoop::PrintCounters(*counters, now, std::cerr);
  } else {
    std::cerr << "mr: no counters: " << counters.status().message() << "\n";
  }
  std::cerr << hadoop::Log4jLine(now, "streaming.StreamJob", "Output directory: " + inv->output_as_given);
  return kExitOk;
}

}  // namespace

int HadoopMain(const Args& args) {
  std::vector<std::string> a(args.argv + 1, args.argv + args.argc);
  if (a.empty() || a[0] == "--help" || a[0] == "-h" || a[0] == "help") {
    (a.empty() ? std::cerr : std::cout) << kUsage;
    return a.empty() ? kExitUsage : kExitOk;
  }
  const std::string cmd = a[0];
  a.erase(a.begin());
  if (cmd == "version") {
    std::cout << "Hadoop 3.3.6\n"
                 "Source: mrlab's Hadoop-compatible front end (mr hadoop): Hadoop Streaming jobs run on mrlab\n";
    return kExitOk;
  }
  if (cmd == "fs" || cmd == "dfs") return hadoop::RunFs(a, std::cout, std::cerr);
  if (cmd == "mapred" && !a.empty() && a[0] == "streaming") return Streaming({a.begin() + 1, a.end()});
  if (cmd == "streaming") return Streaming(a);
  if (cmd == "jar") {
    if (a.empty()) return UsageError("jar: which jar?");
    const std::string jar = a[0];
    const std::string base = jar.substr(jar.rfind('/') + 1);
    if (base.find("streaming") == std::string::npos) {
      return UsageError("hadoop jar " + jar + ": mrlab runs Hadoop Streaming jobs only (a jar named *streaming*)");
    }
    a.erase(a.begin());
    // `hadoop jar hadoop-streaming.jar org.apache.hadoop.streaming.HadoopStreaming ARGS` names its main class.
    if (!a.empty() && a[0].find("HadoopStreaming") != std::string::npos) a.erase(a.begin());
    return Streaming(a);
  }
  return UsageError("'" + cmd + "' is not supported by mrlab (jar, streaming, version, fs)");
}

}  // namespace mr::cli
