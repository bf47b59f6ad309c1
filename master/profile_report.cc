#include "master/profile_report.h"

#include <cstdio>

#include "common/file_util.h"
#include "master/state_store.h"
#include "model/makespan/aria_profile.h"

namespace mr::master {

namespace {

Result<std::vector<std::pair<uint64_t, model::JobProfile>>> Runs(StateStore& store, const std::string& name) {
  MR_ASSIGN_OR_RETURN(auto stored, store.AriaProfiles(name));
  if (stored.empty()) return Status::NotFound("no profile for job name '" + name + "'");
  std::vector<std::pair<uint64_t, model::JobProfile>> out;
  for (const auto& [id, json] : stored) {
    Result<model::JobProfile> p = model::ProfileFromJson(json);
    if (!p.ok()) return Status::InvalidArgument("stored profile of job " + std::to_string(id) + ": " + p.status().message());
    out.emplace_back(id, std::move(*p));
  }
  return out;
}

Status List(StateStore& store, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(auto names, store.AriaProfileNames());
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %5s %10s %7s %7s %10s %10s %12s\n", "name", "runs", "newest_job", "maps",
                "reduces", "map_avg_s", "reduce_avg_s", "measured_s");
  out << line;
  for (const auto& [name, count] : names) {
    MR_ASSIGN_OR_RETURN(auto runs, Runs(store, name));
    const model::JobProfile& p = runs.front().second;
    std::snprintf(line, sizeof line, "%-24s %5d %10llu %7d %7d %10.3f %10.3f %12.3f\n", name.c_str(), count,
                  static_cast<unsigned long long>(runs.front().first), p.maps, p.reduces, p.map.avg, p.reduce.avg,
                  p.measured_map_stage + p.measured_reduce_stage);
    out << line;
  }
  if (names.empty()) out << "(no profiles: a job's profile is stored when it succeeds)\n";
  return Status::Ok();
}

}  // namespace

Result<std::vector<model::JobProfile>> LoadNewestProfiles(const std::string& state_dir,
                                                          const std::vector<std::string>& names) {
  MR_ASSIGN_OR_RETURN(auto store, StateStore::OpenReadOnly(JoinPath(state_dir, "db")));
  std::vector<model::JobProfile> out;
  for (const std::string& name : names) {
    MR_ASSIGN_OR_RETURN(auto runs, Runs(*store, name));
    out.push_back(std::move(runs.front().second));
  }
  return out;
}

Status RunProfileReport(const ProfileReportOptions& o, std::ostream& out) {
  using What = ProfileReportOptions::What;
  if (o.what == What::kEstimate && (o.map_slots < 1 || o.reduce_slots < 1)) {
    return Status::InvalidArgument("--map-slots and --reduce-slots must be >= 1");
  }
  MR_ASSIGN_OR_RETURN(auto store, StateStore::OpenReadOnly(JoinPath(o.state_dir, "db")));
  if (o.what == What::kList) return List(*store, out);
  MR_ASSIGN_OR_RETURN(auto runs, Runs(*store, o.name));
  if (o.what == What::kShow) {
    for (size_t i = 0; i < runs.size(); ++i) {
      out << (i ? "\n" : "") << "# run " << i + 1 << " of " << runs.size() << ": job " << runs[i].first << "\n";
      model::PrintProfile(runs[i].second, out);
    }
    return Status::Ok();
  }
  model::EstimateOptions e;
  e.profile = runs.front().second;
  e.map_slots = o.map_slots;
  e.reduce_slots = o.reduce_slots;
  out << "# the newest of " << runs.size() << " run(s): job " << runs.front().first << "\n";
  return model::RunEstimate(e, out);
}

}  // namespace mr::master
