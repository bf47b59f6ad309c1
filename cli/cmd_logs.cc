// `mr logs JOB [TASK] [--attempt N] [--tail N] [--follow]`: a job's task attempts' logs, from the
// workers that ran them (cli/task_logs.h).
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/job_client.h"
#include "cli/task_logs.h"

namespace mr::cli {

int LogsMain(const Args& args) {
  po::options_description desc("logs options");
  po::positional_options_description positional;
  positional.add("job-id", 1).add("task", 1);
  desc.add_options()("job-id", po::value<std::string>(), "the job, e.g. job-000004")
      ("task", po::value<std::string>(), "one task: a map m-00003 or a reduce r-00000 (default: every task)")
      ("attempt", po::value<uint32_t>(), "only attempts with this number (as the headers show it)")
      ("tail", po::value<uint64_t>(), "only the last N lines of each log")
      ("follow,f", po::bool_switch(), "keep printing a running attempt's log as it grows, until the attempt ends")
      ("master", po::value<std::string>(), kClientMasterHelp)
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  const char* usage =
      "mr logs JOB [TASK] [--attempt N] [--tail N] [--follow] [--master ADDR]\n\n"
      "Prints the logs of a job's task attempts (all, or TASK's), each after a header line\n"
      "naming the attempt and its worker: what the task's programs wrote to stderr and the\n"
      "worker's own lines about the attempt, read from the worker that ran it. A worker keeps\n"
      "up to 1 MiB per attempt, for its 64 most recent jobs (256 MiB in all). Exit status 0\n"
      "when every log was printed; 2 for an unknown job or task; 3 when the master cannot be\n"
      "reached, or some log could not be read (its worker is gone or did not answer: a line\n"
      "in place of that log says which). --follow streams a running attempt's log as it\n"
      "grows (as tail -f does) and returns when the attempt ends (or on Ctrl-C); attempts that\n"
      "start later are not picked up";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &positional))) return *rc;
  if (!vm.count("job-id")) return UsageError("which job? (mr logs job-000004 m-00000)");
  auto id = ParseJobIdArg(vm["job-id"].as<std::string>());
  if (!id.ok()) return UsageError(id.status().message());
  TaskLogsOptions o;
  o.job = *id;
  if (vm.count("task")) o.task = vm["task"].as<std::string>();
  if (vm.count("attempt")) o.attempt = vm["attempt"].as<uint32_t>();
  if (vm.count("tail")) o.tail = vm["tail"].as<uint64_t>();
  o.follow = vm["follow"].as<bool>();
  auto token = TokenOption(vm);
  if (!token.ok()) return UsageError(token.status().message());
  o.token = *token;
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  auto r = PrintTaskLogs(**client, o, std::cout);
  std::cout.flush();
  if (!r.ok()) return ClientError(r.status());
  if (r->unreadable > 0) {
    std::fprintf(stderr, "mr: logs: %d of %d attempt logs could not be read\n", r->unreadable, r->attempts);
    return kExitUnavailable;
  }
  return kExitOk;
}

}  // namespace mr::cli
