#include "scheduler/flex/problem.h"

#include <string>

#include "scheduler/flex/mps.h"

namespace mr::flex {

Status CheckProblem(const FlexProblem& problem) {
  std::vector<PackJob> pack;
  pack.reserve(problem.jobs.size());
  for (const FlexJob& j : problem.jobs) pack.push_back({j.work, j.min_slots, j.max_slots});
  MR_RETURN_IF_ERROR(CheckPackJobs(problem.slots, pack));
  for (size_t j = 0; j < problem.jobs.size(); ++j) {
    Status st = CheckTerms(problem.jobs[j].metric, problem.jobs[j].terms);
    if (!st.ok()) return Status::InvalidArgument("job " + std::to_string(j) + ": " + st.message());
  }
  return Status::Ok();
}

}  // namespace mr::flex
