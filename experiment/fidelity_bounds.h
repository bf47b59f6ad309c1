// The accuracy bounds the report judges a prediction and a replay by (docs/experiments.md,
// "Fidelity bounds"): one row per bound. Two kinds:
// - per job (the papers' judgement, the default): the median and the 90th percentile of
//   |simulated / measured - 1| over the jobs, at most the row's limits — ARIA's for a
//   prediction ("ARIA: Automatic Resource Inference and Allocation for MapReduce
//   Environments": 10% / 25%), SimMR's for a replay ("Play It Again, SimMR!": 5% / 15%);
// - the band (band.h; a named second judgement): at least `inside` of the jobs have their
//   live time inside their band (±5%), and the mean over the jobs of the band's mean is
//   within `mean` of the measured mean. Where equal tasks end within milliseconds of each
//   other and their order decides the rest, one deterministic simulation cannot meet a
//   per-job bound that a second run of the same live experiment would not meet either.
// Constant table; pure functions; thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "experiment/job_results.h"

namespace mr::experiment {

enum class Simulated { kPrediction, kReplay };
enum class JudgedBy { kPerJob, kBand };

struct FidelityBound {
  const char* name;  // "aria", "simmr", "prediction-band", "replay-band"
  Simulated of;
  JudgedBy by;
  double median = 0;  // kPerJob: the per-job |error|'s median at most
  double p90 = 0;     // kPerJob: its 90th percentile (QuantileLinear) at most
  double inside = 0;  // kBand: the share of jobs inside their band at least
  double mean = 0;    // kBand: |band mean / measured mean - 1| at most
  const char* label;  // the report's column heading
};

std::span<const FidelityBound> FidelityBounds();

// One policy's rows judged by one bound. judged is false when no row has what the bound
// needs (a replay, a band); figures then is "-".
struct Verdict {
  bool judged = false;
  bool met = false;
  int jobs = 0;        // rows judged
  double median = 0, p90 = 0;  // kPerJob
  int inside = 0;              // kBand: jobs inside their band
  double mean_error = 0;       // kBand
  std::string figures;         // "3.4% / 34.6% miss", "14/15 inside, mean 1.7% meets"
};
Verdict Judge(const FidelityBound& bound, const std::vector<const JobResult*>& rows);

// The report's "Fidelity bounds" section: a legend, then per policy (order of first
// appearance) each bound's verdict; empty when `rows` is empty. band_runs and band_jitter
// (seconds) are the report's (ReportSpec), named in the legend.
// With band_map_time_cv > 0 the text says that the prediction's band members also drew map
// times with that coefficient of variation (ReportSpec::band_map_time_cv).
std::string FidelityMarkdown(const std::vector<JobResult>& rows, int band_runs, double band_jitter,
                             double band_map_time_cv = 0);

}  // namespace mr::experiment
