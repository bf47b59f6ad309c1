// `mr profile list | show NAME | estimate NAME --map-slots S --reduce-slots S'`: the ARIA
// profiles a master stored under its state directory. The work is master/profile_report.h.
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "master/profile_report.h"

namespace mr::cli {
namespace {

int RunReport(const Args& args, master::ProfileReportOptions::What what, const char* usage) {
  po::options_description desc("profile options");
  master::ProfileReportOptions o;
  o.what = what;
  desc.add_options()("state", po::value(&o.state_dir)->required(), "the master's state directory (mr master --state)");
  po::positional_options_description pos;
  if (what != master::ProfileReportOptions::What::kList) {
    desc.add_options()("name", po::value(&o.name)->required(), "the job name (mr run/submit --name)");
    pos.add("name", 1);
  }
  if (what == master::ProfileReportOptions::What::kEstimate) {
    desc.add_options()
        ("map-slots", po::value(&o.map_slots)->required(), "S_M: map slots the job would get")
        ("reduce-slots", po::value(&o.reduce_slots)->required(), "S_R: reduce slots the job would get");
  }
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &pos))) return *rc;
  const Status st = master::RunProfileReport(o, std::cout);
  return st.ok() ? kExitOk : Fail(ErrorPrefix(args), st);
}

}  // namespace

int ProfileListMain(const Args& args) {
  return RunReport(args, master::ProfileReportOptions::What::kList, "mr profile list --state DIR");
}

int ProfileShowMain(const Args& args) {
  return RunReport(args, master::ProfileReportOptions::What::kShow, "mr profile show NAME --state DIR");
}

int ProfileEstimateMain(const Args& args) {
  return RunReport(args, master::ProfileReportOptions::What::kEstimate,
                   "mr profile estimate NAME --state DIR --map-slots S --reduce-slots S'");
}

}  // namespace mr::cli
