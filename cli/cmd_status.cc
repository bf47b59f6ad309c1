// `mr status [JOB] [--state running|ended|all] [--limit N] [--watch]`: the master's view of
// the cluster and its jobs, once or refreshed until interrupted (or until the job ends).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/job_client.h"
#include "cli/status_table.h"
#include "common/job_id.h"
#include "master/status_json.h"

namespace mr::cli {

namespace {

// The table shows the newest 20 jobs unless --limit says otherwise; --json all of them.
constexpr int kDefaultTableLimit = 20;

struct StatusFlags {
  uint64_t job = 0;  // 0: every job
  JobFilter filter;
  bool json = false;
  bool watch = false;
  double interval = 2;
};

const char* kStatusUsage =
    "mr status [JOB_ID] [--state running|ended|all] [--limit N] [--watch] [--json] [--master ADDR]\n\n"
    "The workers and the jobs: the newest 20 of the state asked for (--limit 0: all; --json\n"
    "prints all unless --limit is given). --watch redraws every --interval seconds until\n"
    "interrupted, or until JOB_ID has ended";

void PrintOnce(const StatusFlags& f, proto::StatusReply r) {
  const bool one = f.job != 0 && r.jobs_size() == 1;
  const int dropped = one ? 0 : FilterJobs(f.filter, &r);
  if (f.json) {
    nlohmann::json out;
    if (one) {
      out = master::JobStatusToJson(r.jobs(0));
    } else {
      out = {{"policy", r.policy()}, {"placement", r.placement()}, {"workers", r.workers()},
             {"worker_rows", nlohmann::json::array()}, {"jobs", nlohmann::json::array()}, {"jobs_not_shown", dropped}};
      for (const auto& w : r.worker_rows()) out["worker_rows"].push_back(master::WorkerRowToJson(w));
      for (const auto& st : r.jobs()) out["jobs"].push_back(master::JobStatusToJson(st));
    }
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  PrintStatusTable(r);
  if (dropped > 0) {
    std::printf("(%d more job%s not shown: --state all --limit 0 shows every job)\n", dropped, dropped == 1 ? "" : "s");
  }
  if (one) PrintJobDetail(r.jobs(0));
}

bool JobEnded(const proto::StatusReply& r) {
  if (r.jobs_size() != 1) return false;
  const std::string& s = r.jobs(0).state();
  return s == "SUCCEEDED" || s == "FAILED" || s == "KILLED";
}

// Sleeps `seconds` in short steps; false if interrupted meanwhile.
bool Pause(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (Interrupted()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !Interrupted();
}

}  // namespace

int StatusMain(const Args& args) {
  po::options_description desc("status options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "job to show (default: all)")
      ("state", po::value<std::string>()->default_value("all"), "jobs to list: running, ended or all")
      ("limit", po::value<int>(), "list only the newest N jobs (0: all; default 20, all with --json)")
      ("watch", po::bool_switch(), "redraw every --interval seconds until interrupted (or JOB_ID ends)")
      ("interval", po::value<double>()->default_value(2), "seconds between redraws with --watch, 0.1..3600")
      ("master", po::value<std::string>(), kClientMasterHelp)
      ("json", "print JSON for scripts")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kStatusUsage, &positional))) return *rc;
  StatusFlags f;
  if (vm.count("job-id")) {
    auto parsed = ParseJobIdArg(vm["job-id"].as<std::string>());
    if (!parsed.ok()) return UsageError(parsed.status().message());
    f.job = *parsed;
  }
  auto state = ParseJobState(vm["state"].as<std::string>());
  if (!state.ok()) return UsageError(state.status().message());
  f.filter.state = *state;
  f.json = vm.count("json") > 0;
  f.filter.limit = vm.count("limit") ? vm["limit"].as<int>() : f.json ? 0 : kDefaultTableLimit;
  if (f.filter.limit < 0) return UsageError("--limit must be 0 (all) or more");
  f.watch = vm["watch"].as<bool>();
  f.interval = vm["interval"].as<double>();
  if (!(f.interval >= 0.1 && f.interval <= 3600)) return UsageError("--interval must be in 0.1..3600 seconds");
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  if (f.watch) CatchInterrupts();
  const bool tty = f.watch && !f.json && isatty(STDOUT_FILENO) == 1;
  for (bool first = true;; first = false) {
    proto::Envelope req;
    req.mutable_status()->set_job_id(f.job);
    auto reply = (*client)->Call(req);
    if (!reply.ok()) return Interrupted() ? kExitOk : ClientError(reply.status());
    if (tty) std::printf("\033[H\033[2J");
    if (!first && !tty) std::printf("\n");
    PrintOnce(f, reply->status_reply());
    std::fflush(stdout);
    if (!f.watch || (f.job != 0 && JobEnded(reply->status_reply())) || !Pause(f.interval)) return kExitOk;
  }
}

}  // namespace mr::cli
