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

// Prints a '#' line describing the run, then the CSV "schedule,total_flow_time,srpt_bound,
// ratio,last_slot" with a row for the SRPT bound, DSRPT (preemptive only) and each policy.
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
