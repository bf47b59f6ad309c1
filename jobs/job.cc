#include "jobs/job.h"

#include "jobs/builtin_jobs.h"
#include "jobs/hash_partitioner.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {

namespace {
struct JobEntry {
  const char* name;
  Result<std::unique_ptr<Job>> (*factory)(const Params&);
};
constexpr JobEntry kJobs[] = {
    {"wordcount", NewWordCountJob}, {"sort", NewSortJob},           {"grep", NewGrepJob},
    {"synthetic", NewSyntheticJob}, {"streaming", NewStreamingJob},
};
}  // namespace

std::unique_ptr<Partitioner> Job::NewPartitioner() const {
  return std::make_unique<HashPartitioner>();
}

Result<std::unique_ptr<Job>> CreateJob(std::string_view name, const Params& params) {
  for (const auto& e : kJobs) {
    if (name == e.name) return e.factory(params);
  }
  std::string known;
  for (const auto& e : kJobs) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return Status::NotFound("unknown job '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> KnownJobs() {
  std::vector<std::string> out;
  for (const auto& e : kJobs) out.emplace_back(e.name);
  return out;
}

Result<std::vector<std::string>> CutPointsFromParams(const Params& params) {
  auto it = params.find(kCutPointsParam);
  if (it == params.end()) return std::vector<std::string>{};
  auto cuts = DecodeCutPoints(it->second);
  if (!cuts.ok()) return cuts.status().WithContext("parameter " + std::string(kCutPointsParam));
  return cuts;
}

}  // namespace mr::jobs
