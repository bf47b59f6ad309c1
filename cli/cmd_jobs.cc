// `mr submit` and `mr kill`: one request each to a running master (`mr status`: cli/cmd_status.cc).
#include <cstdio>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/job_client.h"
#include "cli/job_options.h"
#include "common/job_id.h"

namespace mr::cli {

int SubmitMain(const Args& args) {
  po::options_description desc("submit options");
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  desc.add_options()("master", po::value<std::string>(), kClientMasterHelp)
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  FlagUsage how = UsageLine("mr submit JOB --input PATH... --output DIR [--master ADDR]", &positional);
  how.not_suggested = OtherJobsFlags(args);
  if (auto rc = ParseFlags(args, desc, vm, how)) return *rc;
  auto spec = BuildJobSpec(vm);
  if (!spec.ok()) return UsageError(spec.status().message());
  auto master = ClientMasterAddress(vm);
  if (!master.ok()) return ClientError(master.status());
  auto token = TokenOption(vm);
  if (!token.ok()) return ClientError(token.status());
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  std::unique_ptr<client::MasterClient> connection = std::move(client).value();
  auto id = Submit(connection, *spec, *master, *token, true);
  if (!id.ok()) return ClientError(id.status());
  std::printf("%s\n", JobIdString(*id).c_str());
  return kExitOk;
}

int KillMain(const Args& args) {
  po::options_description desc("kill options");
  po::positional_options_description positional;
  positional.add("job-id", 1);
  desc.add_options()("job-id", po::value<std::string>(), "the job to kill, e.g. job-000004")
      ("master", po::value<std::string>(), kClientMasterHelp)
      ("token-file", po::value<std::string>(), kTokenFileHelp);
  po::variables_map vm;
  const char* usage =
      "mr kill JOB [--master ADDR]\n\n"
      "Ends a running job as KILLED (\"killed by user\"): its running tasks stop, its output\n"
      "directory is removed. Exit status 0 when killed; 2 for an unknown job or one that has\n"
      "already ended; 3 when the master cannot be reached or refuses the request";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &positional))) return *rc;
  if (!vm.count("job-id")) return UsageError("which job? (mr kill job-000004)");
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
