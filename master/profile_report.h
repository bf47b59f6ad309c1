// `mr profile list | show NAME | estimate NAME` (docs/makespan.md, "Job profiles"): the ARIA
// profiles a master stored for its succeeded jobs (StateStore::AriaProfiles), read from its
// state directory. The store is opened read-only, so the commands work beside a running
// master (seeing the store as it was when opened) and after it stopped.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/makespan/aria_profile.h"

namespace mr::master {

struct ProfileReportOptions {
  enum class What { kList, kShow, kEstimate };
  What what = What::kList;
  std::string state_dir;  // the master's --state (the store is STATE/db)
  std::string name;       // show, estimate: the job name
  int map_slots = 1;      // estimate: S_M, S_R >= 1
  int reduce_slots = 1;
};

// list: one line per job name (its runs, the newest run's tasks and stage averages); show:
// every stored run of the name, newest first; estimate: the ARIA bounds of the newest run
// (model::RunEstimate). IoError when the store cannot be opened, NotFound for a name with
// no profile, InvalidArgument for slots < 1 or a stored profile that does not parse.
Status RunProfileReport(const ProfileReportOptions& options, std::ostream& out);

// The newest stored profile of each name, in the order given (`mr batch plan --profiles`).
// IoError when the store cannot be opened, NotFound naming a name with no profile.
Result<std::vector<model::JobProfile>> LoadNewestProfiles(const std::string& state_dir,
                                                          const std::vector<std::string>& names);

}  // namespace mr::master
