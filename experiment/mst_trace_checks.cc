// The straggling-mappers model's assumptions, each measured on the analysed run
// (docs/mst.md, "A run's trace against the model").
#include <algorithm>
#include <cmath>
#include <map>

#include "common/stats.h"
#include "experiment/mst_trace_measured.h"

namespace mr::experiment::mst {
namespace {

// Pearson correlation; 0 when either side is constant.
double Correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const double ma = Mean(a), mb = Mean(b);
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

}  // namespace

void CheckAssumptions(const Measured& m, MstTraceReport& r) {
  auto add = [&r](std::string name, std::string measured, std::string model, double size,
                  bool violated) {
    r.assumptions.push_back(
        {std::move(name), std::move(measured), std::move(model), size, violated});
  };
  // Poisson job arrivals: the gaps' scv is 1; its sampling s.d. is about 2/sqrt(n).
  std::vector<double> gaps;
  for (size_t i = 1; i < m.jobs.size(); ++i)
    gaps.push_back(m.jobs[i].submit - m.jobs[i - 1].submit);
  const double scv = Scv(gaps);
  const double band = std::max(0.1, 6 / std::sqrt(static_cast<double>(gaps.size())));
  add("poisson-arrivals",
      "job inter-arrival scv " + Num(scv) + " over " + std::to_string(gaps.size()) +
          " gaps (3 s.d. band +-" + Num(band) + ")",
      "scv 1", scv, std::abs(scv - 1) > band);

  // Independent nodes: response times of two nodes within one job are uncorrelated.
  std::map<int64_t, std::map<int, double>> per_node;
  for (const Task& t : m.tasks) {
    double& worst = per_node[t.worker].try_emplace(t.job, 0).first->second;
    worst = std::max(worst, t.end - t.submit);
  }
  double sum = 0, lo = 1, hi = -1;
  int pairs = 0;
  for (auto a = per_node.begin(); a != per_node.end(); ++a) {
    for (auto b = std::next(a); b != per_node.end(); ++b) {
      std::vector<double> x, y;
      for (const auto& [job, rt] : a->second) {
        auto it = b->second.find(job);
        if (it != b->second.end()) x.push_back(rt), y.push_back(it->second);
      }
      if (x.size() < 3) continue;
      const double c = Correlation(x, y);
      sum += c, lo = std::min(lo, c), hi = std::max(hi, c), ++pairs;
    }
  }
  const double corr = pairs > 0 ? sum / pairs : 0;
  const MstTracePrediction& ind = r.predictions.back();
  add("independent-nodes",
      pairs == 0 ? std::string("no two nodes share 3 jobs")
                 : "mean correlation of two nodes' response times within a job " + Num(corr) +
                       " (" + std::to_string(pairs) + " pairs, " + Num(lo) + " to " + Num(hi) +
                       "); independent draws from the measured responses give MST " + Num(ind.mst) +
                       " (" + Percent(ind.mst / r.mean_sojourn - 1) + " vs measured)",
      "correlation 0", corr, corr > 0.1);

  // One FIFO server per node.
  int slots = 0;
  double inversions = 0;
  std::string slot_list, inversion_list;
  for (const MstTraceNode& n : r.nodes) {
    slots = std::max(slots, n.slots);
    inversions = std::max(inversions, n.fifo_inversions);
    slot_list +=
        (slot_list.empty() ? "" : ", ") + std::to_string(n.worker) + ":" + std::to_string(n.slots);
    inversion_list += (inversion_list.empty() ? "" : ", ") + std::to_string(n.worker) + ":" +
                      Share(n.fifo_inversions);
  }
  add("single-server", "most map attempts at once per worker (worker:count) " + slot_list,
      "1 per node", slots, slots > 1);
  add("fifo", "tasks started before a task of an earlier job on the same worker " + inversion_list,
      "0", inversions, inversions > 0);

  // Service times: a DTD (offset + exponential tail) for dtd; scv 1 for mm1.
  double worst_ks = 0, worst_excess = 0, scv_lo = 1e300, scv_hi = 0, share_lo = 1, share_hi = 0;
  bool ks_bad = false;
  std::string ks_list;
  for (const MstTraceNode& n : r.nodes) {
    if (n.service.n < 2 || n.service.ks == 0) continue;
    const double critical = 1.36 / std::sqrt(static_cast<double>(n.service.n));
    worst_ks = std::max(worst_ks, n.service.ks);
    worst_excess = std::max(worst_excess, n.service.ks / critical);
    ks_bad |= n.service.ks > critical;
    ks_list += (ks_list.empty() ? "" : ", ") + std::to_string(n.worker) + ":" + Num(n.service.ks) +
               "/" + Num(critical);
    scv_lo = std::min(scv_lo, n.service.scv), scv_hi = std::max(scv_hi, n.service.scv);
    share_lo = std::min(share_lo, n.service.share), share_hi = std::max(share_hi, n.service.share);
  }
  add("service-dtd-fit", "KS distance / 5% critical value 1.36/sqrt(n) per worker " + ks_list,
      "KS below critical", worst_ks, ks_bad);
  add("exponential-service",
      "service scv " + Num(scv_lo) + " to " + Num(scv_hi) + ", deterministic share T/mean " +
          Num(share_lo) + " to " + Num(share_hi),
      "scv 1, share 0 (mm1 only)", scv_hi > 1 ? scv_hi : scv_lo,
      std::abs(scv_lo - 1) > 0.25 || std::abs(scv_hi - 1) > 0.25);

  // One task per node per job.
  std::map<int, std::map<int64_t, int>> job_nodes;
  for (const Task& t : m.tasks) ++job_nodes[t.job][t.worker];
  int off = 0;
  double per_used = 0;
  for (const auto& [job, nodes] : job_nodes) {
    bool one_each = nodes.size() == r.nodes.size();
    int tasks = 0;
    for (const auto& [w, c] : nodes) one_each &= c == 1, tasks += c;
    off += !one_each;
    per_used += static_cast<double>(tasks) / static_cast<double>(nodes.size());
  }
  const double off_share = static_cast<double>(off) / r.jobs;
  add("one-task-per-node",
      Share(off_share) + " of jobs not exactly one task on each of the " +
          std::to_string(r.nodes.size()) + " nodes; " + Num(per_used / r.jobs) +
          " tasks per job per node used",
      "one task on every node", off_share, off > 0);

  // Dispatch: a task whose worker ran no map at its job's submission still waits for the
  // next heartbeat and the assignment.
  // Per worker: map attempts by start and the latest end so far, to ask "busy at s?" in log time.
  std::map<int64_t, std::pair<std::vector<double>, std::vector<double>>> busy_until;
  for (const auto& [worker, intervals] : m.map_intervals) {
    std::vector<std::pair<double, double>> sorted = intervals;
    std::sort(sorted.begin(), sorted.end());
    auto& [starts, latest_end] = busy_until[worker];
    for (const auto& [s, e] : sorted) {
      starts.push_back(s);
      latest_end.push_back(latest_end.empty() ? e : std::max(latest_end.back(), e));
    }
  }
  std::vector<double> delays;
  for (const Task& t : m.tasks) {
    const auto& [starts, latest_end] = busy_until.at(t.worker);
    const size_t k = std::upper_bound(starts.begin(), starts.end(), t.submit) - starts.begin();
    if (k == 0 || latest_end[k - 1] <= t.submit) delays.push_back(t.start - t.submit);
  }
  double service_sum = 0;
  for (const Task& t : m.tasks) service_sum += t.end - t.start;
  const double mean_service = service_sum / static_cast<double>(m.tasks.size());
  std::sort(delays.begin(), delays.end());
  const double delay = Mean(delays);
  add("no-dispatch-delay",
      delays.empty() ? std::string("no task found its worker idle")
                     : "submit to start on an idle worker: mean " + Num(delay) + " s, p90 " +
                           Num(QuantileNearestRank(delays, 0.9)) + " s (" + std::to_string(delays.size()) +
                           " tasks), " + Share(delay / mean_service) + " of the mean service time",
      "0", delay / mean_service, delay > 0.05 * mean_service);

  double rho = 0;
  for (const MstTraceNode& n : r.nodes) rho = std::max(rho, n.rho);
  add("stable-nodes", "largest lambda_i / mu_i " + Num(rho), "< 1", rho, rho >= 1);
}

}  // namespace mr::experiment::mst
