#include "experiment/mst_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <utility>

#include "common/stats.h"
#include "common/units.h"
#include "model/mst/mst.h"
#include "web/trace_reader.h"

namespace mr::experiment {
namespace {

using nlohmann::json;

// One map attempt_end.
struct MapAttempt {
  int task = 0;
  int64_t worker = 0;
  double start = 0, end = 0;
  bool ok = false;
};

struct JobMaps {
  std::string id;
  double submit = std::numeric_limits<double>::quiet_NaN();
  int maps = 0;
  std::vector<MapAttempt> attempts;
};

// A successful map task of an analysed job: its last successful attempt.
struct Task {
  int job = 0;  // index into the analysed jobs (by submission)
  double submit = 0;
  int64_t worker = 0;
  double start = 0, end = 0;
};

Result<JobMaps> ParseJob(const std::vector<json>& events) {
  JobMaps job;
  for (const json& e : events) {
    if (job.id.empty()) job.id = EventText(e, "job");
  }
  if (job.id.empty()) job.id = "a trace";
  for (const json& e : events) {
    const std::string ev = EventText(e, "event");
    if (ev == "job_submit") {
      if (job.submit == job.submit)
        return Status::InvalidArgument(job.id + ": two job_submit events");
      MR_ASSIGN_OR_RETURN(job.submit, EventNumber(e, "t", job.id));
      MR_ASSIGN_OR_RETURN(double maps, EventNumber(e, "maps", job.id));
      if (maps < 1 || maps > 1e6)
        return Status::InvalidArgument(job.id + ": job_submit with bad maps");
      job.maps = static_cast<int>(maps);
    } else if (ev == "attempt_end") {
      const std::string task = EventText(e, "task");
      if (task.size() < 3 || task[0] != 'm' || task[1] != '-')
        continue;  // reduces: not the map phase
      char* end = nullptr;
      const long index = std::strtol(task.c_str() + 2, &end, 10);
      if (*end != '\0' || index < 0 || index > 1'000'000) {
        return Status::InvalidArgument(job.id + ": bad task id '" + task + "'");
      }
      MapAttempt a;
      a.task = static_cast<int>(index);
      MR_ASSIGN_OR_RETURN(double worker, EventNumber(e, "worker", job.id));
      a.worker = static_cast<int64_t>(worker);
      MR_ASSIGN_OR_RETURN(a.start, EventNumber(e, "start", job.id));
      MR_ASSIGN_OR_RETURN(a.end, EventNumber(e, "t", job.id));
      a.ok = EventText(e, "status") == "ok";
      job.attempts.push_back(a);
    }
  }
  if (job.submit != job.submit) return Status::InvalidArgument(job.id + ": no job_submit event");
  return job;
}

// Sample variance (n - 1) / mean^2; 0 for fewer than 2 values or a zero mean.
double Scv(const std::vector<double>& v) {
  const double m = Mean(v);
  if (v.size() < 2 || m == 0) return 0;
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return ss / static_cast<double>(v.size() - 1) / (m * m);
}

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

// E[max_i R_i] for independent R_i drawn from the samples' empirical laws: the integral of
// 1 - prod_i F_i(t), exact for step functions.
double IndependentMaxMean(const std::vector<std::vector<double>>& samples) {
  std::vector<std::pair<double, size_t>> points;
  for (size_t i = 0; i < samples.size(); ++i) {
    for (double v : samples[i]) points.emplace_back(v, i);
  }
  std::sort(points.begin(), points.end());
  std::vector<double> seen(samples.size(), 0);
  double integral = 0, prev = 0;
  for (const auto& [t, i] : points) {
    double product = 1;
    for (size_t k = 0; k < samples.size(); ++k)
      product *= seen[k] / static_cast<double>(samples[k].size());
    integral += (t - prev) * (1 - product);
    prev = t;
    seen[i] += 1;
  }
  return integral;
}

// Most intervals [start, end) open at once.
int MaxConcurrent(std::vector<std::pair<double, double>> intervals) {
  std::vector<std::pair<double, int>> edges;
  for (const auto& [s, e] : intervals) {
    edges.emplace_back(s, +1);
    edges.emplace_back(e, -1);
  }
  std::sort(edges.begin(), edges.end());  // an end (-1) sorts before a start at the same time
  int open = 0, most = 0;
  for (const auto& [t, d] : edges) most = std::max(most, open += d);
  return most;
}

std::string Num(double v) { return FormatNumber(v, "%.4g"); }
std::string Percent(double v) { return FormatNumber(100 * v, "%+.1f") + "%"; }
std::string Share(double v) { return FormatNumber(100 * v, "%.1f") + "%"; }

// The analysed jobs' tasks and the per-node measurements, before the model.
struct Measured {
  std::vector<JobMaps> jobs;  // analysed, by (submit, id)
  std::vector<Task> tasks;
  std::map<int64_t, std::vector<std::pair<double, double>>> map_intervals;  // every map attempt
};

void MeasureNodes(const Measured& m, MstTraceReport& r) {
  std::map<int64_t, std::vector<const Task*>> by_worker;
  for (const Task& t : m.tasks) by_worker[t.worker].push_back(&t);
  const double jobs = static_cast<double>(m.jobs.size());
  for (auto& [worker, tasks] : by_worker) {
    MstTraceNode n;
    n.worker = worker;
    n.tasks = static_cast<int>(tasks.size());
    std::vector<double> service;
    std::map<int, double> response;  // job -> its slowest task here
    std::vector<double> submits;
    for (const Task* t : tasks) {
      service.push_back(t->end - t->start);
      double& worst = response.try_emplace(t->job, 0).first->second;
      worst = std::max(worst, t->end - t->submit);
    }
    n.jobs = static_cast<int>(response.size());
    for (const auto& [job, rt] : response) submits.push_back(m.jobs[job].submit);
    std::vector<double> gaps;
    for (size_t i = 1; i < submits.size(); ++i) gaps.push_back(submits[i] - submits[i - 1]);
    n.arrival_scv = gaps.size() >= 2 ? Scv(gaps) : 0;
    n.lambda = n.tasks / jobs * r.job_rate;
    const double mean_service = Mean(service);
    n.mu = mean_service > 0 ? 1 / mean_service : std::numeric_limits<double>::infinity();
    n.rho = n.lambda / n.mu;
    Result<model::DtdFit> fit = model::FitDelayedExp(service);
    if (fit.ok()) {
      n.service = *fit;
    } else {  // one task, or all of zero length: no fit, the mean only (scv 1: the M/M/1 guess)
      n.service.n = n.tasks;
      n.service.mean = mean_service;
      n.service.scv = 1;
    }
    n.paper_d = n.lambda > 0 ? n.service.offset * n.mu / n.lambda : 0;
    n.slots = MaxConcurrent(m.map_intervals.at(worker));
    // FIFO: in submission order, a task that started before some task of an earlier job here.
    double latest = -std::numeric_limits<double>::infinity();
    int inversions = 0;
    for (size_t i = 0; i < tasks.size();) {
      size_t j = i;
      while (j < tasks.size() && tasks[j]->job == tasks[i]->job) ++j;
      for (size_t k = i; k < j; ++k) inversions += tasks[k]->start < latest;
      for (size_t k = i; k < j; ++k) latest = std::max(latest, tasks[k]->start);
      i = j;
    }
    n.fifo_inversions = static_cast<double>(inversions) / n.tasks;
    std::vector<double> rts;
    for (const auto& [job, rt] : response) rts.push_back(rt);
    n.response_measured = Mean(rts);
    if (n.lambda < n.mu) {
      n.response_mm1 = 1 / (n.mu - n.lambda);
      n.response_dtd = 1 / n.mu + n.lambda * (1 + n.service.scv) / (2 * n.mu * (n.mu - n.lambda));
    }
    r.nodes.push_back(n);
  }
}

// The node response laws and the MST each predicts.
void Predict(const Measured& m, MstTraceReport& r) {
  std::string unstable;
  for (const MstTraceNode& n : r.nodes) {
    if (!(n.lambda < n.mu) && unstable.empty()) {
      unstable = "worker " + std::to_string(n.worker) + " is unstable: lambda " + Num(n.lambda) +
                 " >= mu " + Num(n.mu);
    }
  }
  MstTracePrediction dtd, mm1, paper;
  dtd.law = "dtd";
  dtd.note =
      "R_i ~ T_i + Exp: offset the fitted service offset, mean the M/G/1 (Pollaczek-Khinchine) "
      "mean from mu_i, "
      "lambda_i and the service scv";
  mm1.law = "mm1";
  mm1.note = "R_i ~ Exp(mu_i - lambda_i): the M/M/1 node (D = 0), Lemma 3";
  paper.law = "dtd-paper";
  paper.note =
      "R_i ~ D lambda_i / mu_i + Exp(mu_i - lambda_i): the paper's DTD node, D per node putting "
      "the offset at T_i";
  if (unstable.empty()) {
    std::vector<model::Dtd> dtd_laws, mm1_laws, paper_laws;
    for (const MstTraceNode& n : r.nodes) {
      const double tail = std::max(n.response_dtd - n.service.offset, 1e-12 * n.response_dtd);
      dtd_laws.push_back(model::Dtd{.offset = n.service.offset, .rate = 1 / tail});
      mm1_laws.push_back(model::Dtd{.offset = 0, .rate = n.mu - n.lambda});
      paper_laws.push_back(model::Dtd{.offset = n.service.offset, .rate = n.mu - n.lambda});
    }
    for (auto& [prediction, laws] :
         {std::pair{&dtd, &dtd_laws}, std::pair{&mm1, &mm1_laws}, std::pair{&paper, &paper_laws}}) {
      Result<double> mst = model::Mst(*laws);
      prediction->ok = mst.ok();
      if (mst.ok())
        prediction->mst = *mst;
      else
        prediction->note = mst.status().message();
    }
  } else {
    dtd.note = mm1.note = paper.note = unstable;
  }
  // Independent draws from each node's measured responses: the model's max without its
  // queueing law, so its gap to the measured MST is the nodes' dependence alone.
  std::map<int64_t, std::map<int, double>> per_node;
  for (const Task& t : m.tasks) {
    double& worst = per_node[t.worker].try_emplace(t.job, 0).first->second;
    worst = std::max(worst, t.end - t.submit);
  }
  std::vector<std::vector<double>> samples;
  for (const auto& [worker, jobs] : per_node) {
    samples.emplace_back();
    for (const auto& [job, rt] : jobs) samples.back().push_back(rt);
  }
  MstTracePrediction independent;
  independent.law = "independent";
  independent.ok = true;
  independent.mst = IndependentMaxMean(samples);
  independent.note =
      "independent draws from each node's measured response times (the max without the queue "
      "model)";
  r.predictions = {dtd, mm1, paper, independent};
  if (dtd.ok) {
    r.gap_dependence = independent.mst / r.mean_sojourn - 1;
    r.gap_node_law = dtd.mst / independent.mst - 1;
  }
}

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

}  // namespace

Result<MstTraceReport> AnalyzeMstTrace(const std::vector<std::vector<json>>& traces) {
  std::vector<JobMaps> parsed;
  std::set<std::string> ids;
  for (const auto& events : traces) {
    MR_ASSIGN_OR_RETURN(JobMaps job, ParseJob(events));
    if (!ids.insert(job.id).second) return Status::InvalidArgument(job.id + " is in two traces");
    parsed.push_back(std::move(job));
  }
  std::sort(parsed.begin(), parsed.end(), [](const JobMaps& a, const JobMaps& b) {
    return std::tie(a.submit, a.id) < std::tie(b.submit, b.id);
  });
  MstTraceReport r;
  Measured m;
  for (JobMaps& job : parsed) {
    for (const MapAttempt& a : job.attempts) m.map_intervals[a.worker].emplace_back(a.start, a.end);
    r.other_attempts += static_cast<int>(std::count_if(job.attempts.begin(), job.attempts.end(),
                                                       [](const MapAttempt& a) { return !a.ok; }));
    std::vector<const MapAttempt*> last(job.maps, nullptr);
    for (const MapAttempt& a : job.attempts) {
      if (!a.ok) continue;
      if (a.task >= job.maps)
        return Status::InvalidArgument(job.id + ": map m-" + std::to_string(a.task) +
                                       " beyond its maps");
      if (last[a.task] == nullptr || a.end > last[a.task]->end) last[a.task] = &a;
    }
    auto missing = std::find(last.begin(), last.end(), nullptr);
    if (missing != last.end()) {
      r.excluded.push_back(
          {job.id, "map " + std::to_string(missing - last.begin()) + " has no successful attempt"});
      continue;
    }
    const int index = static_cast<int>(m.jobs.size());
    double sojourn = 0;
    for (const MapAttempt* a : last) {
      m.tasks.push_back({index, job.submit, a->worker, a->start, a->end});
      sojourn = std::max(sojourn, a->end - job.submit);
    }
    r.sojourn.push_back(sojourn);
    r.maps_per_job_min = m.jobs.empty() ? job.maps : std::min(r.maps_per_job_min, job.maps);
    r.maps_per_job_max = std::max(r.maps_per_job_max, job.maps);
    m.jobs.push_back(std::move(job));
  }
  r.jobs = static_cast<int>(m.jobs.size());
  if (r.jobs < 2)
    return Status::InvalidArgument("mst-trace needs at least 2 jobs whose maps all succeeded");
  r.first_submit = m.jobs.front().submit;
  r.arrival_span = m.jobs.back().submit - r.first_submit;
  if (!(r.arrival_span > 0))
    return Status::InvalidArgument("mst-trace: every job was submitted at the same time");
  r.job_rate = (r.jobs - 1) / r.arrival_span;
  std::vector<double> sorted = r.sojourn;
  std::sort(sorted.begin(), sorted.end());
  r.mean_sojourn = Mean(sorted);
  r.p50 = QuantileNearestRank(sorted, 0.5), r.p90 = QuantileNearestRank(sorted, 0.9),
  r.p99 = QuantileNearestRank(sorted, 0.99);
  r.max_sojourn = sorted.back();
  MeasureNodes(m, r);
  Predict(m, r);
  CheckAssumptions(m, r);
  return r;
}

Result<MstTraceReport> ReadMstTrace(const std::vector<std::string>& paths) {
  MR_ASSIGN_OR_RETURN(auto traces, ReadTraces(paths));
  return AnalyzeMstTrace(traces);
}

void WriteMstTraceText(const MstTraceReport& r, std::ostream& out) {
  out << "# " << r.jobs << " jobs (" << r.excluded.size() << " excluded), " << r.maps_per_job_min;
  if (r.maps_per_job_max != r.maps_per_job_min) out << "-" << r.maps_per_job_max;
  out << " maps each, submitted over " << Num(r.arrival_span) << " s: job rate " << Num(r.job_rate)
      << "/s; " << r.nodes.size() << " mapper nodes; " << r.other_attempts
      << " map attempts did not succeed\n";
  for (const ExcludedJob& e : r.excluded) out << "# excluded " << e.id << ": " << e.reason << "\n";
  out << "# sojourn (submit to last map end) mean " << Num(r.mean_sojourn) << " s, p50 "
      << Num(r.p50) << ", p90 " << Num(r.p90) << ", p99 " << Num(r.p99) << ", max "
      << Num(r.max_sojourn) << "\n";
  const char* header[] = {"worker",  "tasks",  "lambda", "mu",       "rho",     "service",
                          "scv",     "offset", "tail",   "share",    "D",       "ks",
                          "arr_scv", "slots",  "resp",   "resp_dtd", "resp_mm1"};
  std::vector<std::vector<std::string>> rows = {
      std::vector<std::string>(std::begin(header), std::end(header))};
  for (const MstTraceNode& n : r.nodes) {
    rows.push_back({std::to_string(n.worker), std::to_string(n.tasks), Num(n.lambda), Num(n.mu),
                    Num(n.rho), Num(n.service.mean), Num(n.service.scv), Num(n.service.offset),
                    Num(n.service.tail_mean), Num(n.service.share), Num(n.paper_d),
                    Num(n.service.ks), Num(n.arrival_scv), std::to_string(n.slots),
                    Num(n.response_measured), Num(n.response_dtd), Num(n.response_mm1)});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c)
      line += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
    out << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
  }
  out << "MST measured " << Num(r.mean_sojourn) << " s\n";
  for (const MstTracePrediction& p : r.predictions) {
    out << "MST " << p.law << " ";
    if (p.ok)
      out << Num(p.mst) << " s (" << Percent(p.mst / r.mean_sojourn - 1) << ")";
    else
      out << "n/a";
    out << ": " << p.note << "\n";
  }
  if (r.predictions[0].ok) {
    out << "dtd gap: " << Percent(r.gap_dependence)
        << " from the nodes' dependence (measured -> independent), then " << Percent(r.gap_node_law)
        << " from the node response law (independent -> dtd)\n";
  }
  out << "assumptions (model: measured):\n";
  for (const MstTraceAssumption& a : r.assumptions) {
    out << "  " << (a.violated ? "VIOLATED " : "holds    ") << a.name << " (" << a.model
        << "): " << a.measured << "\n";
  }
}

json MstTraceJson(const MstTraceReport& r) {
  json j;
  j["jobs"] = r.jobs;
  j["excluded"] = json::array();
  for (const ExcludedJob& e : r.excluded)
    j["excluded"].push_back({{"job", e.id}, {"reason", e.reason}});
  j["maps_per_job"] = {r.maps_per_job_min, r.maps_per_job_max};
  j["first_submit"] = r.first_submit;
  j["arrival_span"] = r.arrival_span;
  j["job_rate"] = r.job_rate;
  j["other_attempts"] = r.other_attempts;
  j["sojourn"] = {{"mean", r.mean_sojourn}, {"p50", r.p50},         {"p90", r.p90},
                  {"p99", r.p99},           {"max", r.max_sojourn}, {"values", r.sojourn}};
  j["nodes"] = json::array();
  for (const MstTraceNode& n : r.nodes) {
    j["nodes"].push_back({{"worker", n.worker},
                          {"tasks", n.tasks},
                          {"jobs", n.jobs},
                          {"lambda", n.lambda},
                          {"mu", n.mu},
                          {"rho", n.rho},
                          {"service",
                           {{"n", n.service.n},
                            {"mean", n.service.mean},
                            {"scv", n.service.scv},
                            {"offset", n.service.offset},
                            {"tail_mean", n.service.tail_mean},
                            {"share", n.service.share},
                            {"ks", n.service.ks}}},
                          {"paper_d", n.paper_d},
                          {"arrival_scv", n.arrival_scv},
                          {"slots", n.slots},
                          {"fifo_inversions", n.fifo_inversions},
                          {"response_measured", n.response_measured},
                          {"response_dtd", n.response_dtd},
                          {"response_mm1", n.response_mm1}});
  }
  j["predictions"] = json::array();
  for (const MstTracePrediction& p : r.predictions) {
    json q = {{"law", p.law}, {"ok", p.ok}, {"note", p.note}};
    q["mst"] = p.ok ? json(p.mst) : json(nullptr);
    j["predictions"].push_back(q);
  }
  j["gap"] = {{"dependence", r.gap_dependence}, {"node_law", r.gap_node_law}};
  j["assumptions"] = json::array();
  for (const MstTraceAssumption& a : r.assumptions) {
    j["assumptions"].push_back({{"name", a.name},
                                {"measured", a.measured},
                                {"model", a.model},
                                {"size", a.size},
                                {"violated", a.violated}});
  }
  return j;
}

}  // namespace mr::experiment
