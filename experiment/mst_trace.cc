#include "experiment/mst_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "common/stats.h"
#include "experiment/mst_trace_measured.h"
#include "experiment/trace_replay.h"
#include "model/mst/mst.h"

namespace mr::experiment {
namespace {

using mst::JobMaps;
using mst::Measured;
using mst::Num;
using mst::Task;
using trace::EventType;
using trace::RequireNumber;

// The job's submission and its ended map attempts; reduces are not the map phase.
Result<JobMaps> ParseJob(const std::vector<trace::Event>& events) {
  JobMaps job;
  for (const trace::Event& e : events) {
    if (job.id.empty()) job.id = trace::JobOf(e);
  }
  if (job.id.empty()) job.id = "a trace";
  for (const trace::Event& e : events) {
    const auto* s = std::get_if<trace::JobSubmit>(&e);
    if (s == nullptr) continue;
    if (job.submit == job.submit) return Status::InvalidArgument(job.id + ": two job_submit events");
    job.submit = s->t;
    MR_ASSIGN_OR_RETURN(int64_t maps, RequireNumber(s->maps, EventType::kJobSubmit, "maps", job.id));
    if (maps < 1 || maps > 1'000'000) return Status::InvalidArgument(job.id + ": job_submit with bad maps");
    job.maps = static_cast<int>(maps);
  }
  for (trace::Attempt& a : trace::CollectAttempts(events)) {
    if (!a.ended || a.task.size() < 3 || a.task[0] != 'm' || a.task[1] != '-') continue;
    if (!a.ref || a.ref->index > 1'000'000) return Status::InvalidArgument(job.id + ": bad task id '" + a.task + "'");
    MR_RETURN_IF_ERROR(RequireNumber(a.ended->worker, EventType::kAttemptEnd, "worker", job.id).status());
    MR_RETURN_IF_ERROR(RequireNumber(a.ended->start, EventType::kAttemptEnd, "start", job.id).status());
    job.attempts.push_back(std::move(a));
  }
  if (job.submit != job.submit) return Status::InvalidArgument(job.id + ": no job_submit event");
  return job;
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

// Where the analysed jobs' map tasks ran: the last successful attempt of each map, the
// sojourn time of each job; a job with a map that never succeeded is excluded.
Status MeasureTasks(std::vector<JobMaps> parsed, Measured& m, MstTraceReport& r) {
  for (JobMaps& job : parsed) {
    std::vector<const trace::AttemptEnd*> last(job.maps, nullptr);
    for (const trace::Attempt& a : job.attempts) {
      const trace::AttemptEnd& e = *a.ended;
      m.map_intervals[*e.worker].emplace_back(*e.start, e.t);
      if (e.status != "ok") {
        ++r.other_attempts;
        continue;
      }
      const int task = a.ref->index;
      if (task >= job.maps)
        return Status::InvalidArgument(job.id + ": map m-" + std::to_string(task) + " beyond its maps");
      if (last[task] == nullptr || e.t > last[task]->t) last[task] = &e;
    }
    auto missing = std::find(last.begin(), last.end(), nullptr);
    if (missing != last.end()) {
      r.excluded.push_back({job.id, "map " + std::to_string(missing - last.begin()) + " has no successful attempt"});
      continue;
    }
    const int index = static_cast<int>(m.jobs.size());
    double sojourn = 0;
    for (const trace::AttemptEnd* e : last) {
      m.tasks.push_back({index, job.submit, *e->worker, *e->start, e->t});
      sojourn = std::max(sojourn, e->t - job.submit);
    }
    r.sojourn.push_back(sojourn);
    r.maps_per_job_min = m.jobs.empty() ? job.maps : std::min(r.maps_per_job_min, job.maps);
    r.maps_per_job_max = std::max(r.maps_per_job_max, job.maps);
    m.jobs.push_back(std::move(job));
  }
  return Status::Ok();
}

}  // namespace

Result<MstTraceReport> AnalyzeMstTrace(const std::vector<std::vector<trace::Event>>& traces) {
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
  MR_RETURN_IF_ERROR(MeasureTasks(std::move(parsed), m, r));
  r.jobs = static_cast<int>(m.jobs.size());
  if (r.jobs < 2) return Status::InvalidArgument("mst-trace needs at least 2 jobs whose maps all succeeded");
  r.first_submit = m.jobs.front().submit;
  r.arrival_span = m.jobs.back().submit - r.first_submit;
  if (!(r.arrival_span > 0)) return Status::InvalidArgument("mst-trace: every job was submitted at the same time");
  r.job_rate = (r.jobs - 1) / r.arrival_span;
  std::vector<double> sorted = r.sojourn;
  std::sort(sorted.begin(), sorted.end());
  r.mean_sojourn = Mean(sorted);
  r.p50 = QuantileNearestRank(sorted, 0.5);
  r.p90 = QuantileNearestRank(sorted, 0.9);
  r.p99 = QuantileNearestRank(sorted, 0.99);
  r.max_sojourn = sorted.back();
  MeasureNodes(m, r);
  Predict(m, r);
  mst::CheckAssumptions(m, r);
  return r;
}

Result<MstTraceReport> ReadMstTrace(const std::vector<std::string>& paths) {
  MR_ASSIGN_OR_RETURN(auto traces, ReadTraces(paths));
  return AnalyzeMstTrace(traces);
}

}  // namespace mr::experiment
