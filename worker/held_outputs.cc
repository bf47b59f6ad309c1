#include "worker/held_outputs.h"

#include <set>

#include "common/file_util.h"
#include "common/log.h"
#include "shuffle/map_output.h"

namespace mr::worker {

std::vector<proto::HeldMapOutput> KeepFinishedMapOutputs(const std::string& work_dir) {
  std::vector<proto::HeldMapOutput> held;
  auto jobs = ListDir(work_dir);
  if (!jobs.ok()) return held;
  for (const auto& jn : *jobs) {
    uint64_t job = 0;
    if (!shuffle::ParseMapOutputDirName(jn, &job)) continue;
    const std::string dir = JoinPath(work_dir, jn);
    auto files = ListDir(dir);
    if (!files.ok()) continue;
    std::set<std::string> keep;
    for (const auto& f : *files) {
      uint32_t map = 0, attempt = 0;
      if (!shuffle::ParseMapOutputIndexName(f, &map, &attempt)) continue;
      const std::string data = shuffle::MapOutputDataPath(work_dir, job, map, attempt);
      if (!PathExists(data)) continue;
      // An unreadable index (corrupt, or version 1 without checksums) is not offered: the
      // master runs that map again.
      if (auto index = shuffle::MapOutputIndex::ReadFrom(JoinPath(dir, f)); !index.ok()) {
        MR_LOG_WARN("dropping map output: {}", index.status().ToString());
        continue;
      }
      keep.insert(f);
      keep.insert(data.substr(dir.size() + 1));
      auto& h = held.emplace_back();
      h.set_job_id(job);
      h.set_map(map);
      h.set_attempt(attempt);
    }
    if (keep.empty()) {
      (void)RemoveAll(dir);
      continue;
    }
    for (const auto& f : *files) {
      if (keep.count(f) == 0) (void)RemoveAll(JoinPath(dir, f));
    }
  }
  return held;
}

void DeleteMapOutput(const std::string& work_dir, const proto::HeldMapOutput& d) {
  Status s = shuffle::RemoveMapOutput(work_dir, d.job_id(), d.map(), d.attempt());
  if (!s.ok()) MR_LOG_WARN("deleting superseded output: {}", s.ToString());
}

}  // namespace mr::worker
