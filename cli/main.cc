// mr: one binary for the master, the workers, clients, local clusters and the
// model. Subcommands are a table of name, summary and handler (cf. ninja's kTools).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*handler)(int, char**);
};

const Subcommand kSubcommands[] = {
    {"run", "submit a job and wait for it (embedded local cluster without --master)", mr::cli::RunMain},
    {"submit", "submit a job to a running master and print its id", mr::cli::SubmitMain},
    {"status", "show jobs, phases, tasks and shuffle rates", mr::cli::StatusMain},
    {"kill", "kill a running job: its tasks stop, its output directory goes", mr::cli::KillMain},
    {"master", "run the master daemon", mr::cli::MasterMain},
    {"worker", "run a worker daemon", mr::cli::WorkerMain},
    {"cluster", "start or stop a local cluster in the background", mr::cli::ClusterMain},
    {"model", "predictions and simulations of the scheduling models", mr::cli::ModelCommandMain},
    {"trace", "render a job trace as a Gantt chart (SVG or PNG)", mr::cli::TraceMain},
    {"experiment", "run an experiment file live and predicted, compare, report", mr::cli::ExperimentMain},
};

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "mr — a small MapReduce runtime with research scheduling policies\n\n"
               "usage: mr SUBCOMMAND [options]     (mr help SUBCOMMAND for its options)\n\n");
  for (const auto& s : kSubcommands) std::fprintf(out, "  %-10s %s\n", s.name, s.summary);
  std::fprintf(out, "  %-10s %s\n", "help", "explain a subcommand");
  std::fprintf(out,
               "\nexamples:\n"
               "  mr run wordcount --input examples/data/sample.txt --output /tmp/wc\n"
               "  mr cluster start --workers 3 && mr run sort --input big.txt --output /tmp/s "
               "--master $(cat mr-cluster/master.addr)\n"
               "\nexit status: 0 success, 1 the job failed or was killed, 2 bad usage or input,\n"
               "3 the cluster could not be reached or refused the request, 130 interrupted\n");
}

const Subcommand* Find(const char* name) {
  for (const auto& s : kSubcommands) {
    if (std::strcmp(s.name, name) == 0) return &s;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return mr::cli::kExitUsage;
  }
  std::string cmd = argv[1];
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    if (argc >= 3) {
      const Subcommand* s = Find(argv[2]);
      if (s == nullptr) return mr::cli::UsageError("unknown subcommand '" + std::string(argv[2]) + "'");
      char help[] = "--help";
      std::vector<char*> args = {argv[2], help};
      return s->handler(static_cast<int>(args.size()), args.data()) == 0 ? 0 : mr::cli::kExitUsage;
    }
    PrintUsage(stdout);
    return 0;
  }
  if (cmd == "--version") {
    std::printf("mrlab 0.1.0\n");
    return 0;
  }
  const Subcommand* s = Find(argv[1]);
  if (s == nullptr) {
    return mr::cli::UsageError("unknown subcommand '" + cmd + "' (try 'mr help')");
  }
  return s->handler(argc - 1, argv + 1);
}
