#include "experiment/job_results.h"
#include "common/stats.h"
#include "common/text_lines.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace mr::experiment {

namespace {

// Files written before the work and replay columns, and before the column `sojourn` was renamed
// `since_planned` (it was never the straggling-mappers paper's sojourn time), still read.
constexpr const char* kOldHeader =
    "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,sojourn";
constexpr const char* kSojournHeader =
    "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,sojourn,work,"
    "replayed,replay_error";
constexpr const char* kReplayHeader =
    "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,since_planned,work,"
    "replayed,replay_error";
constexpr const char* kWeightHeader =
    "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,since_planned,work,"
    "replayed,replay_error,weight,deadline,sla";
constexpr const char* kHeader =
    "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,since_planned,work,"
    "replayed,replay_error,weight,deadline,sla,replay_lo,replay_hi,replay_band_mean,predicted_lo,predicted_hi,"
    "predicted_band_mean";
constexpr int kOldColumns = 12;
constexpr int kReplayColumns = 15;
constexpr int kWeightColumns = 18;
constexpr int kColumns = 24;

Result<double> ParseNumber(const std::string& text, int line, const char* column) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
    return Status::InvalidArgument("jobs.csv line " + std::to_string(line) + ": " + column + " '" + text +
                                   "' is not a number");
  }
  return v;
}

// The band in fields f[at], f[at + 1], f[at + 2] (all empty: none).
Result<std::optional<Band>> ParseBandFields(const std::vector<std::string>& f, size_t at, int line) {
  if (f[at].empty() && f[at + 1].empty() && f[at + 2].empty()) return std::optional<Band>();
  Band b;
  MR_ASSIGN_OR_RETURN(b.lo, ParseNumber(f[at], line, "band low"));
  MR_ASSIGN_OR_RETURN(b.hi, ParseNumber(f[at + 1], line, "band high"));
  MR_ASSIGN_OR_RETURN(b.mean, ParseNumber(f[at + 2], line, "band mean"));
  if (!(b.lo <= b.mean && b.mean <= b.hi)) {
    return Status::InvalidArgument("jobs.csv line " + std::to_string(line) + ": a band whose mean is outside [low, high]");
  }
  return std::optional<Band>(b);
}

std::string BandFields(const std::optional<Band>& b) {
  if (!b) return ",,";
  char text[128];
  std::snprintf(text, sizeof text, "%.6g,%.6g,%.6g", b->lo, b->hi, b->mean);
  return text;
}

// `columns`: kOldColumns (a file without the work and replay columns) up to kColumns.
Result<JobResult> ParseRow(std::string_view text, int line, int columns) {
  std::vector<std::string> f = SplitFields(text, ',');
  if (static_cast<int>(f.size()) != columns) {
    return Status::InvalidArgument("jobs.csv line " + std::to_string(line) + ": " + std::to_string(f.size()) +
                                   " columns, expected " + std::to_string(columns));
  }
  JobResult r;
  r.policy = f[0];
  if (r.policy.empty()) return Status::InvalidArgument("jobs.csv line " + std::to_string(line) + ": empty policy");
  double v[11];
  static const char* kNames[] = {"rep", "job", "arrival", "maps", "map_seconds", "shuffle_bytes",
                                 "reducers", "measured", "predicted", "error", "since_planned"};
  for (int i = 0; i < 11; ++i) {
    MR_ASSIGN_OR_RETURN(v[i], ParseNumber(f[i + 1], line, kNames[i]));
  }
  r.rep = static_cast<int>(v[0]);
  r.job = static_cast<int>(v[1]);
  r.arrival = v[2];
  r.maps = static_cast<int>(v[3]);
  r.map_seconds = v[4];
  r.shuffle_bytes = v[5];
  r.reducers = static_cast<int>(v[6]);
  r.measured = v[7];
  r.predicted = v[8];
  r.since_planned = v[10];  // the error columns are derived; they are recomputed, not trusted
  if (columns > kOldColumns) {
    r.work = f[12];
    if (r.work != "burn" && r.work != "sleep") {
      return Status::InvalidArgument("jobs.csv line " + std::to_string(line) + ": work '" + r.work +
                                     "' is not burn or sleep");
    }
    if (!f[13].empty()) {
      MR_ASSIGN_OR_RETURN(double replayed, ParseNumber(f[13], line, "replayed"));
      r.replayed = replayed;
    }
  }
  if (columns > kReplayColumns) {
    MR_ASSIGN_OR_RETURN(r.weight, ParseNumber(f[15], line, "weight"));
    MR_ASSIGN_OR_RETURN(r.deadline, ParseNumber(f[16], line, "deadline"));
    r.sla = f[17];
    std::replace(r.sla.begin(), r.sla.end(), ';', ',');
  }
  if (columns > kWeightColumns) {
    MR_ASSIGN_OR_RETURN(r.replay_band, ParseBandFields(f, 18, line));
    MR_ASSIGN_OR_RETURN(r.predicted_band, ParseBandFields(f, 21, line));
  }
  return r;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Percent(double v) { return Fixed(100 * v, 1) + "%"; }

}  // namespace

double RelativeError(double predicted, double measured) {
  return measured == 0 ? 0 : predicted / measured - 1;
}

std::string JobsCsv(const std::vector<JobResult>& rows) {
  std::string out = std::string(kHeader) + "\n";
  for (const JobResult& r : rows) {
    char line[512];
    std::snprintf(line, sizeof line, "%s,%d,%d,%.6g,%d,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.6g,%s,", r.policy.c_str(),
                  r.rep, r.job, r.arrival, r.maps, r.map_seconds, r.shuffle_bytes, r.reducers, r.measured,
                  r.predicted, RelativeError(r.predicted, r.measured), r.since_planned, r.work.c_str());
    out += line;
    if (r.replayed) {
      std::snprintf(line, sizeof line, "%.6g,%.6g", *r.replayed, RelativeError(*r.replayed, r.measured));
      out += line;
    } else {
      out += ",";
    }
    std::string sla = r.sla;
    std::replace(sla.begin(), sla.end(), ',', ';');
    std::snprintf(line, sizeof line, ",%.9g,%.9g,", r.weight, r.deadline);
    out += line + sla + "," + BandFields(r.replay_band) + "," + BandFields(r.predicted_band) + "\n";
  }
  return out;
}

Result<std::vector<JobResult>> ParseJobsCsv(std::string_view text) {
  std::vector<JobResult> rows;
  LineCursor lines(text);
  std::string_view l;
  int columns = kColumns;
  while (lines.Next(&l)) {
    const int line = lines.number();
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (line == 1) {
      if (l == kOldHeader) columns = kOldColumns;
      if (l == kReplayHeader || l == kSojournHeader) columns = kReplayColumns;
      if (l == kWeightHeader) columns = kWeightColumns;
      if (l != kHeader && l != kOldHeader && l != kSojournHeader && l != kReplayHeader && l != kWeightHeader) {
        return Status::InvalidArgument("jobs.csv line 1: expected the header '" + std::string(kHeader) + "'");
      }
      continue;
    }
    if (l.empty()) continue;
    MR_ASSIGN_OR_RETURN(JobResult r, ParseRow(l, line, columns));
    rows.push_back(std::move(r));
  }
  if (lines.number() == 0) return Status::InvalidArgument("jobs.csv is empty");
  return rows;
}

std::vector<PolicySummary> Summarize(const std::vector<JobResult>& rows, double tail) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const JobResult*>> by_policy;
  for (const JobResult& r : rows) {
    if (!by_policy.count(r.policy)) order.push_back(r.policy);
    by_policy[r.policy].push_back(&r);
  }
  std::vector<PolicySummary> out;
  for (const std::string& policy : order) {
    PolicySummary s;
    s.policy = policy;
    s.tail = tail;
    std::vector<double> measured, predicted, errors, replayed, replay_errors;
    // Per repetition: first arrival, last measured and predicted completion, the sums of
    // measured and predicted response times, the last replayed completion, and whether
    // every job of the run was replayed (1) or not (0).
    std::map<int, std::array<double, 7>> runs;
    std::map<int, int> run_jobs;
    for (const JobResult* r : by_policy[policy]) {
      if (s.work.find(r->work) == std::string::npos) s.work += (s.work.empty() ? "" : "+") + r->work;
      measured.push_back(r->measured);
      predicted.push_back(r->predicted);
      errors.push_back(std::abs(RelativeError(r->predicted, r->measured)));
      auto [it, fresh] = runs.try_emplace(r->rep, std::array<double, 7>{r->arrival, 0, 0, 0, 0, 0, 1});
      auto& run = it->second;
      run[0] = std::min(run[0], r->arrival);
      run[1] = std::max(run[1], r->arrival + r->since_planned);
      run[2] = std::max(run[2], r->arrival + r->predicted);
      run[3] += r->measured;
      ++run_jobs[r->rep];
      run[4] += r->predicted;
      if (r->replayed) {
        replayed.push_back(*r->replayed);
        replay_errors.push_back(std::abs(RelativeError(*r->replayed, r->measured)));
        // The replay starts each job at its actual submit: planned arrival plus the
        // submission lag (since_planned - measured response).
        run[5] = std::max(run[5], r->arrival + r->since_planned - r->measured + *r->replayed);
      } else {
        run[6] = 0;
      }
    }
    s.runs = static_cast<int>(runs.size());
    s.jobs = static_cast<int>(measured.size());
    s.measured_mean = Mean(measured);
    s.measured_median = QuantileLinear(measured, 0.5);
    s.measured_tail = QuantileLinear(measured, tail);
    s.predicted_mean = Mean(predicted);
    s.error_median = QuantileLinear(errors, 0.5);
    s.error_tail = QuantileLinear(errors, tail);
    std::vector<double> mk_measured, mk_predicted, flow_measured, flow_predicted;
    for (const auto& [rep, run] : runs) {
      mk_measured.push_back(run[1] - run[0]);
      mk_predicted.push_back(run[2] - run[0]);
      flow_measured.push_back(run[3]);
      flow_predicted.push_back(run[4]);
    }
    for (const auto& [rep, run] : runs) s.run_means.push_back(run[3] / run_jobs[rep]);
    if (s.run_means.size() > 1) {
      const auto [lo, hi] = std::minmax_element(s.run_means.begin(), s.run_means.end());
      s.run_spread = (*hi - *lo) / Mean(s.run_means);
    }
    s.measured_total_flow = Mean(flow_measured);
    s.predicted_total_flow = Mean(flow_predicted);
    s.measured_makespan = Mean(mk_measured);
    s.predicted_makespan = Mean(mk_predicted);
    s.makespan_error = std::abs(RelativeError(s.predicted_makespan, s.measured_makespan));
    s.replayed_jobs = static_cast<int>(replayed.size());
    s.replayed_mean = Mean(replayed);
    s.replay_error_median = QuantileLinear(replay_errors, 0.5);
    s.replay_error_tail = QuantileLinear(replay_errors, tail);
    std::vector<double> mk_replay_measured, mk_replayed;
    for (const auto& [rep, run] : runs) {
      if (run[6] == 0) continue;
      mk_replay_measured.push_back(run[1] - run[0]);
      mk_replayed.push_back(run[5] - run[0]);
    }
    s.replayed_makespan = Mean(mk_replayed);
    s.replay_makespan_error =
        mk_replayed.empty() ? 0 : std::abs(RelativeError(s.replayed_makespan, Mean(mk_replay_measured)));
    out.push_back(std::move(s));
  }
  return out;
}

std::string SummaryMarkdown(const std::vector<PolicySummary>& summaries, std::string_view title) {
  std::ostringstream md;
  // "p90" at the default tail; the column names follow the report's tail percentile.
  const std::string p = "p" + Fixed(100 * (summaries.empty() ? 0.9 : summaries.front().tail), 0);
  md << "# " << title << "\n\n"
     << "Response times in seconds, measured on the live cluster (master's submit to job end) and\n"
     << "predicted by the task-level simulator from the experiment file and the stored calibration\n"
     << "only. Error: |predicted / measured - 1| per job; makespan: last completion minus first\n"
     << "arrival, mean over runs; total flow: the sum of a run's response times, mean over runs.\n"
     << "Work: how the synthetic tasks spent their work, burn (CPU) or sleep (the slot held\n"
     << "without CPU, an emulation of more slots than cores).\n\n"
     << "| policy | work | runs | jobs | measured mean | median | " << p << " | predicted mean | error median | error "
     << p << " | total flow measured | predicted | error | makespan measured | predicted | error |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const PolicySummary& s : summaries) {
    md << "| " << s.policy << " | " << s.work << " | " << s.runs << " | " << s.jobs << " | "
       << Fixed(s.measured_mean, 2) << " | " << Fixed(s.measured_median, 2) << " | " << Fixed(s.measured_tail, 2)
       << " | " << Fixed(s.predicted_mean, 2) << " | " << Percent(s.error_median) << " | "
       << Percent(s.error_tail) << " | " << Fixed(s.measured_total_flow, 1) << " | "
       << Fixed(s.predicted_total_flow, 1) << " | "
       << Percent(std::abs(RelativeError(s.predicted_total_flow, s.measured_total_flow))) << " | "
       << Fixed(s.measured_makespan, 2) << " | " << Fixed(s.predicted_makespan, 2) << " | "
       << Percent(s.makespan_error) << " |\n";
  }
  md << "\nReplay: each run's own traces (arrivals, every task's measured duration and bytes)\n"
     << "through the same simulator under the policy that ran (`mr model predict`). It tests the\n"
     << "simulator's scheduling and sharing, not the calibration.\n\n"
     << "| policy | jobs replayed | measured mean | replayed mean | error median | error " << p
     << " | makespan error |\n"
     << "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const PolicySummary& s : summaries) {
    md << "| " << s.policy << " | " << s.replayed_jobs << " | " << Fixed(s.measured_mean, 2) << " | "
       << (s.replayed_jobs > 0 ? Fixed(s.replayed_mean, 2) : "-") << " | "
       << (s.replayed_jobs > 0 ? Percent(s.replay_error_median) : "-") << " | "
       << (s.replayed_jobs > 0 ? Percent(s.replay_error_tail) : "-") << " | "
       << (s.replayed_makespan > 0 ? Percent(s.replay_makespan_error) : "-") << " |\n";
  }
  if (std::any_of(summaries.begin(), summaries.end(), [](const PolicySummary& s) { return s.runs > 1; })) {
    md << "\nRepetitions: each run's measured mean response time (s), the spread between runs,\n"
       << "(max - min) / mean of those means, and the farthest run's mean from the runs' mean: within\n"
       << "±5% is the repeatability the validation asks for.\n\n"
       << "| policy | runs | mean per run | spread | farthest from the mean |\n|---|---:|---|---:|---|\n";
    for (const PolicySummary& s : summaries) {
      std::string means;
      for (double m : s.run_means) means += (means.empty() ? "" : " / ") + Fixed(m, 2);
      const double mean = Mean(s.run_means);
      double farthest = 0;
      for (double m : s.run_means) farthest = std::max(farthest, mean > 0 ? std::abs(m / mean - 1) : 0.0);
      md << "| " << s.policy << " | " << s.runs << " | " << means << " | " << Percent(s.run_spread) << " | ±"
         << Percent(farthest) << (farthest <= 0.05 ? " (within ±5%)" : " (**outside ±5%**)") << " |\n";
    }
  }
  if (std::none_of(summaries.begin(), summaries.end(), [](const PolicySummary& s) { return s.srpt_bound > 0; })) {
    return md.str();
  }
  md << "\nTotal flow time against the SRPT lower bound of \"Minimizing total flow time of MapReduce\n"
     << "jobs\", computed on the work each run measured (its successful attempts' slot-seconds) over\n"
     << "the unified slots, in rounds of the asrpt round (docs/experiments.md, \"Results\").\n\n"
     << "| policy | total flow measured | SRPT bound | measured / bound |\n|---|---:|---:|---:|\n";
  for (const PolicySummary& s : summaries) {
    if (!(s.srpt_bound > 0)) continue;
    md << "| " << s.policy << " | " << Fixed(s.measured_total_flow, 1) << " | " << Fixed(s.srpt_bound, 1) << " | "
       << Fixed(s.measured_total_flow / s.srpt_bound, 2) << " |\n";
  }
  return md.str();
}

}  // namespace mr::experiment
