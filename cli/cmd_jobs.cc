// `mr submit`, `mr status` and `mr kill`: one request each to a running master.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/job_client.h"
#include "cli/job_options.h"
#include "cli/status_table.h"
#include "common/job_id.h"
#include "master/status_json.h"

namespace mr::cli {

int SubmitMain(const Args& args) {
  po::options_description desc("submit options");
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  desc.add_options()("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  FlagUsage how = UsageLine("mr submit JOB --input PATH... --output DIR [--master ADDR]", &positional);
  how.not_suggested = OtherJobsFlags(args);
  if (auto rc = ParseFlags(args, desc, vm, how)) return *rc;
  auto spec = BuildJobSpec(vm);
  if (!spec.ok()) return UsageError(spec.status().message());
  auto master = MasterAddress(vm);
  if (!master.ok()) return ClientError(master.status());
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  auto id = Submit(**client, *spec, *master, true);
  if (!id.ok()) return ClientError(id.status());
  std::printf("%s\n", JobIdString(*id).c_str());
  return kExitOk;
}

int StatusMain(const Args& args) {
  po::options_description desc("status options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "job to show (default: all)")
      ("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("json", "print JSON for scripts")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr status [JOB_ID] --master ADDR [--json]", &positional))) {
    return *rc;
  }
  uint64_t id = 0;
  if (vm.count("job-id")) {
    auto parsed = ParseJobIdArg(vm["job-id"].as<std::string>());
    if (!parsed.ok()) return UsageError(parsed.status().message());
    id = *parsed;
  }
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  proto::Envelope req;
  req.mutable_status()->set_job_id(id);
  auto reply = (*client)->Call(req);
  if (!reply.ok()) return ClientError(reply.status());
  const auto& r = reply->status_reply();
  if (vm.count("json")) {
    nlohmann::json out;
    if (id != 0 && r.jobs_size() == 1) {
      out = master::JobStatusToJson(r.jobs(0));
    } else {
      out = {{"policy", r.policy()}, {"placement", r.placement()}, {"workers", r.workers()},
             {"worker_rows", nlohmann::json::array()}, {"jobs", nlohmann::json::array()}};
      for (const auto& w : r.worker_rows()) out["worker_rows"].push_back(master::WorkerRowToJson(w));
      for (const auto& st : r.jobs()) out["jobs"].push_back(master::JobStatusToJson(st));
    }
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    PrintStatusTable(r);
    if (id != 0 && r.jobs_size() == 1) PrintJobDetail(r.jobs(0));
  }
  return kExitOk;
}

int KillMain(const Args& args) {
  po::options_description desc("kill options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "the job to kill, e.g. job-000004")
      ("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  const char* usage =
      "mr kill JOB --master ADDR\n\n"
      "Ends a running job as KILLED (\"killed by user\"): its running tasks stop, its output\n"
      "directory is removed. Exit status 0 when killed; 2 for an unknown job or one that has\n"
      "already ended; 3 when the master cannot be reached or refuses the request";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &positional))) return *rc;
  if (!vm.count("job-id")) return UsageError("kill: which job? (mr kill job-000004)");
  auto id = ParseJobIdArg(vm["job-id"].as<std::string>());
  if (!id.ok()) return UsageError(id.status().message());
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  auto st = KillJob(**client, *id);
  if (!st.ok()) return ClientError(st.status());
  std::printf("killed %s\n", JobIdString(*id).c_str());
  return kExitOk;
}

}  // namespace mr::cli
