#include "experiment/fidelity_bounds.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "common/stats.h"
#include "experiment/band.h"

namespace mr::experiment {

namespace {

constexpr FidelityBound kBounds[] = {
    {"aria", Simulated::kPrediction, JudgedBy::kPerJob, 0.10, 0.25, 0, 0, "prediction per job (ARIA)"},
    {"prediction-band", Simulated::kPrediction, JudgedBy::kBand, 0, 0, 0.90, 0.05, "prediction band"},
    {"simmr", Simulated::kReplay, JudgedBy::kPerJob, 0.05, 0.15, 0, 0, "replay per job (SimMR)"},
    {"replay-band", Simulated::kReplay, JudgedBy::kBand, 0, 0, 0.90, 0.05, "replay band"},
};

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
  return buf;
}

Verdict JudgePerJob(const FidelityBound& b, const std::vector<const JobResult*>& rows) {
  Verdict v;
  std::vector<double> errors;
  for (const JobResult* r : rows) {
    const std::optional<double> simulated = b.of == Simulated::kPrediction ? std::optional<double>(r->predicted)
                                                                            : r->replayed;
    if (simulated) errors.push_back(std::abs(RelativeError(*simulated, r->measured)));
  }
  if (errors.empty()) return v;
  v.judged = true;
  v.jobs = static_cast<int>(errors.size());
  v.median = QuantileLinear(errors, 0.5);
  v.p90 = QuantileLinear(errors, 0.9);
  v.met = v.median <= b.median && v.p90 <= b.p90;
  v.figures = Percent(v.median) + " / " + Percent(v.p90) + (v.met ? " meets" : " **miss**");
  return v;
}

Verdict JudgeBand(const FidelityBound& b, const std::vector<const JobResult*>& rows) {
  Verdict v;
  double measured = 0, band_mean = 0;
  for (const JobResult* r : rows) {
    const std::optional<Band>& band = b.of == Simulated::kPrediction ? r->predicted_band : r->replay_band;
    if (!band) continue;
    ++v.jobs;
    v.inside += InsideBand(r->measured, *band);
    measured += r->measured;
    band_mean += band->mean;
  }
  if (v.jobs == 0) return v;
  v.judged = true;
  v.mean_error = std::abs(RelativeError(band_mean, measured));
  v.met = v.inside >= b.inside * v.jobs && v.mean_error <= b.mean;
  v.figures = std::to_string(v.inside) + "/" + std::to_string(v.jobs) + " inside, mean " + Percent(v.mean_error) +
              (v.met ? " meets" : " **miss**");
  return v;
}

}  // namespace

std::span<const FidelityBound> FidelityBounds() { return kBounds; }

Verdict Judge(const FidelityBound& bound, const std::vector<const JobResult*>& rows) {
  Verdict v = bound.by == JudgedBy::kPerJob ? JudgePerJob(bound, rows) : JudgeBand(bound, rows);
  if (!v.judged) v.figures = "-";
  return v;
}

std::string FidelityMarkdown(const std::vector<JobResult>& rows, int band_runs, double band_jitter,
                             double band_map_time_cv) {
  if (rows.empty()) return "";
  std::vector<std::string> order;
  std::map<std::string, std::vector<const JobResult*>> by_policy;
  for (const JobResult& r : rows) {
    if (!by_policy.count(r.policy)) order.push_back(r.policy);
    by_policy[r.policy].push_back(&r);
  }
  std::ostringstream md;
  md << "\n## Fidelity bounds\n\n"
     << "Per job (the papers' judgement, the default): the median / 90th percentile of |simulated /\n"
     << "measured - 1| over the jobs; a prediction meets ARIA's bound at 10% / 25%, a replay\n"
     << "SimMR's at 5% / 15%. Band (a second judgement): each prediction and each run's replay\n"
     << "simulated K = " << band_runs << " times, once as it is and K - 1 times with every task duration moved by a\n"
     << "uniform draw of at most " << band_jitter * 1000 << " ms; a job is inside when its live time lies in\n"
     << "[min, max] of its K times ±5%. It meets the band when at least 90% of the jobs are inside\n"
     << "and the mean over the jobs of their K-run means is within 5% of the measured mean. Where\n"
     << "equal tasks end within milliseconds of each other and which ends first decides where a\n"
     << "reduce binds, one deterministic simulation picks one side of a coin toss: a row that\n"
     << "misses per job and meets the band has that cause; one that misses both does not.\n";
  if (band_map_time_cv > 0) {
    md << "The prediction's band (a named variant): its K - 1 drawn members also draw every map's time\n"
       << "from a log-normal law with a coefficient of variation of " << band_map_time_cv
       << " around its job's map time, as\n"
       << "live maps of equal work vary; which map is long decides where a job's maps and output go.\n";
  }
  md << "\n"
     << "| policy |";
  for (const FidelityBound& b : kBounds) md << " " << b.label << " |";
  md << "\n|---|";
  for (size_t i = 0; i < std::size(kBounds); ++i) md << "---|";
  md << "\n";
  for (const std::string& p : order) {
    md << "| " << p << " |";
    for (const FidelityBound& b : kBounds) md << " " << Judge(b, by_policy[p]).figures << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace mr::experiment
