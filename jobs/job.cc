#include "jobs/job.h"

#include "jobs/builtin_jobs.h"
#include "jobs/hash_partitioner.h"
#include "jobs/range_partitioner.h"

namespace mr::jobs {

const TaskIdentity& TaskContext::task() const {
  static const TaskIdentity* const none = new TaskIdentity();
  return *none;
}

std::unique_ptr<Partitioner> Job::NewPartitioner() const {
  return std::make_unique<HashPartitioner>();
}

Result<std::vector<std::string>> CutPointsFromParams(const Params& params) {
  auto it = params.find(kCutPointsParam);
  if (it == params.end()) return std::vector<std::string>{};
  auto cuts = DecodeCutPoints(it->second);
  if (!cuts.ok()) return cuts.status().WithContext("parameter " + std::string(kCutPointsParam));
  return cuts;
}

}  // namespace mr::jobs
