// Measured vs model mean sojourn time (MST) of a recorded run, for the straggling-mappers
// model of "Modeling and Optimization of Straggling Mappers" (docs/mst.md, "A run's trace
// against the model"). From the master's job traces (docs/trace-format.md) it measures
//   * per job, the sojourn time: max over its map tasks of (the task's successful attempt's
//     end - the job's submission), the time until its last map output is available;
//   * per worker (a mapper node i): the task arrival rate lambda_i, the service rate mu_i
//     (1 / mean of end - start of its successful map attempts), the service times' fit to
//     a delayed-tail distribution (offset T_i + exponential tail, model/dtd_fit.h) and the
//     node's measured mean response;
// then predicts the MST from those numbers with the model's MST of independent nodes
// (model/mst.h) under two node response laws, and measures how far the run is from each
// of the model's assumptions. Reads typed trace events and trace::CollectAttempts; the
// report's text and JSON are in mst_trace_output.h. Pure functions of parsed traces except
// ReadMstTrace (reads files); thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/trace_replay.h"
#include "model/mst/dtd_fit.h"
#include "trace/event.h"

namespace mr::experiment {

// One mapper node (worker) of the run.
struct MstTraceNode {
  int64_t worker = 0;
  int tasks = 0;          // successful map tasks it ran (of analysed jobs)
  int jobs = 0;           // jobs with at least one of them
  double lambda = 0;      // tasks per second: tasks / jobs-analysed * the job arrival rate
  double mu = 0;          // 1 / mean service time
  double rho = 0;         // lambda / mu
  model::DtdFit service;  // the service times' DTD fit (needs >= 2 tasks; else n = tasks)
  // The paper's deterministic coefficient D that puts its DTD node's response offset
  // D lambda / mu at the measured service offset T: D = T mu / lambda.
  double paper_d = 0;
  double arrival_scv = 0;  // of the gaps between its tasks' jobs' submissions (0: < 3 jobs)
  int slots = 0;           // most map attempts it ran at once (any status)
  double fifo_inversions =
      0;  // share of its tasks that started before a task of an earlier job on it
  double response_measured = 0;  // mean over its jobs of max over its tasks of (end - submit)
  double response_mm1 = 0;       // 1 / (mu - lambda); 0 when unstable
  double response_dtd = 0;       // the dtd law's mean (MstTrace::Laws); 0 when unstable
};

// A model prediction of the MST, or why there is none.
struct MstTracePrediction {
  std::string law;  // "dtd", "mm1", "dtd-paper", "independent"
  bool ok = false;
  double mst = 0;
  std::string note;  // what the law is, or the reason it failed
};

// One assumption of the model, measured.
struct MstTraceAssumption {
  std::string name;      // "poisson-arrivals", ...
  std::string measured;  // the measurement, in words with numbers
  std::string model;     // what the model assumes
  double size = 0;       // the measured number the verdict compares
  bool violated = false;
};

struct MstTraceReport {
  int jobs = 0;                       // analysed: every map task has a successful attempt
  std::vector<ExcludedJob> excluded;  // and why the others are not
  int maps_per_job_min = 0, maps_per_job_max = 0;
  double first_submit = 0;      // epoch seconds
  double arrival_span = 0;      // last submit - first submit, seconds
  double job_rate = 0;          // (jobs - 1) / arrival_span
  std::vector<double> sojourn;  // per analysed job, by submission
  double mean_sojourn = 0, p50 = 0, p90 = 0, p99 = 0, max_sojourn = 0;
  std::vector<MstTraceNode> nodes;              // by worker id
  std::vector<MstTracePrediction> predictions;  // dtd (the headline), mm1, dtd-paper, independent
  // The headline (dtd) prediction's gap to the measured MST in two steps, each relative to
  // the step's start: measured -> independent (the nodes' dependence) and independent -> dtd
  // (the node response law). 0 when dtd has no prediction.
  double gap_dependence = 0, gap_node_law = 0;
  std::vector<MstTraceAssumption> assumptions;
  int other_attempts = 0;  // map attempts that did not succeed (failed, killed, lost)
};

// Analyses parsed traces, one event list per job (trace::ParseTraceLines). InvalidArgument
// for a trace without job_submit, an event missing a field the analysis needs (naming the
// job), two traces of one job, fewer than 2 analysable jobs or submissions all at one time.
Result<MstTraceReport> AnalyzeMstTrace(const std::vector<std::vector<trace::Event>>& traces);

// Reads trace files or directories (TraceFiles) and analyses them.
Result<MstTraceReport> ReadMstTrace(const std::vector<std::string>& paths);

}  // namespace mr::experiment
