#include "model/tasksim/task_sim_receivers.h"

namespace mr::model::tasksim {

void ResumBacklog(SimJob& job, int source) {
  const size_t n = job.backlog.size();
  double sum = 0;
  for (size_t r = 0; r < n; ++r) sum += job.pair_backlog[static_cast<size_t>(source) * n + r];
  job.backlog[static_cast<size_t>(source)] = sum;
}

void AddOutputToReceivers(SimJob& job, int source, double bytes) {
  const size_t n = job.backlog.size();
  for (size_t r = 0; r < n; ++r) {
    const double part = bytes * job.receiver_frac[r];
    if (!(part > 0)) continue;
    if (r == static_cast<size_t>(source)) {
      job.fetched += part;  // the reducers' own worker: no link to cross
    } else {
      job.pair_backlog[static_cast<size_t>(source) * n + r] += part;
    }
  }
  ResumBacklog(job, source);
}

void SplitBacklogToReceivers(SimJob& job) {
  const size_t n = job.backlog.size();
  job.receiver_frac.assign(n, 0.0);
  for (const ReduceTask& r : job.reduces) {
    job.receiver_frac[static_cast<size_t>(r.worker)] += 1.0 / static_cast<double>(job.reduces.size());
  }
  job.pair_backlog.assign(n * n, 0.0);
  for (size_t s = 0; s < n; ++s) AddOutputToReceivers(job, static_cast<int>(s), job.backlog[s]);
}

}  // namespace mr::model::tasksim
