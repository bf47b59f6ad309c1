// The work of `mr model slotted` (live policies in the ASRPT paper's slotted model, against
// the SRPT lower bound) and `mr model slotted-gen` (the paper's workloads): each takes its
// options and an output stream, callable without argv; the flags are parsed in
// cli/model/cmd_slotted.cc. Single-threaded.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model {

struct SlottedReportOptions {
  std::string workload;               // a slotted workload file (slotted_workload.h)
  std::vector<std::string> policies;  // live policies, run one after the other
  // Policy option flags the user gave (name without "--" -> text), as
  // sched::PolicyOptionsFromFlags takes them: each policy keeps its own.
  std::map<std::string, std::string, std::less<>> policy_flags;
  int machines = 100;
  bool preemptive = false;
  int64_t until = 0;     // only the jobs arriving in slots 1..until (0 = all)
  std::string per_job;   // if set, a CSV of every job's flow time under each schedule
};

// Prints a '#' line describing the run (with T, the last arrival slot or `until`), then the
// CSV "schedule,total_flow_time,srpt_bound,ratio,last_slot,flow_within_T,ratio_within_T,mean,
// p50,p90,p99,max" with a row for the SRPT bound, DSRPT (preemptive) or the non-preemptive
// floor (np-floor, slotted_bounds.h), and each policy. total_flow_time counts every job until
// it finishes (the run drains); flow_within_T counts only slots 1..T (the paper's "total
// flow time in T time slots": sum_i (min(f_i, T) - a_i + 1)), its ratio to the bound's
// likewise; mean..max are the jobs' flow times (drained; nearest-rank percentiles).
// Policies: live ones (policy table) and the paper's baselines paper-fifo, paper-fair
// (slotted_baselines.h).
// NotFound / InvalidArgument for a bad workload, policy or option; Internal for a policy
// decision the model refuses (slotted_sim.h).
Status RunSlottedReport(const SlottedReportOptions& o, std::ostream& out);

struct SlottedGenCommandOptions {
  SlottedGenOptions gen;  // a paper workload (PaperWorkload) or custom distributions
  std::string name;       // the paper workload's name, or "custom": recorded in the file
  std::string out;        // the JSON file written
};
// Generates the workload, writes it to o.out (SaveSlottedWorkload) and prints "wrote FILE:
// N jobs, mean ... map units and ... reduce units, ... units per slot". InvalidArgument for
// bad options; IoError if the file cannot be written.
Status RunSlottedGenCommand(const SlottedGenCommandOptions& o, std::ostream& out);

}  // namespace mr::model
