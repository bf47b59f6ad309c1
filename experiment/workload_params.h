// The workload sources' table: one row per source an experiment file's `workload:` can
// name (a generator, or a file format), with its one-line summary, its parameters
// (`workload.params`) and the function that makes its jobs. Written once and read by the
// file parser (which keys exist, which generators, each parameter checked where it is
// written, with its line), by MakeJobs (workload_import.h) and by docs/experiments.md's
// list of sources (checked by a test). Parameter values use the policy options' types and
// ranges (scheduler/policy_options.h). Constant table; pure, thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/workload_import.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

struct WorkloadSource {
  // kGenerator: the file says `generator: NAME`; otherwise the source reads a file and the
  // file says `NAME: FILE` (spec.kind is this kind, spec.path the file).
  WorkloadKind kind;
  const char* name;
  const char* summary;  // one line, for docs/experiments.md's list
  std::span<const sched::OptionSpec> params;
  // Checks a parameter's text beyond its type and range (a choice among names), naming
  // the parameter; nullptr when nothing more is checked.
  Status (*check)(std::string_view param, std::string_view text);
  // The jobs of `spec` on `cluster`, `params` resolved (defaults filled in); any order.
  Result<JobList> (*make)(const WorkloadSpec& spec, const sched::PolicyOptions& params, const ClusterShape& cluster,
                          ImportSummary* summary);
};

// Every source, in the order docs and messages list them.
std::span<const WorkloadSource> WorkloadSources();
// The row `spec` names: by kind, and by generator name for kGenerator; nullptr if none.
const WorkloadSource* FindWorkloadSource(const WorkloadSpec& spec);
// How an experiment file names the source: "generator: synthetic", "csv: FILE".
std::string SourceKey(const WorkloadSource& source);

// The keys of `workload:` that name a source, in the table's order: "generator" (when the
// table has a generator), then each file source's name ("csv", "swim").
std::vector<std::string_view> WorkloadSourceKeys();

// The generators `workload.generator` accepts, comma-separated ("synthetic, asrpt").
std::string GeneratorNames();

// The parameter table of `spec`'s source. InvalidArgument naming the generator (and the
// known ones) when it is unknown.
Result<std::span<const sched::OptionSpec>> WorkloadParamSpecs(const WorkloadSpec& spec);

// The one parameter `name` = `text` of `source`, parsed, range-checked and checked by the
// source. InvalidArgument naming the parameter, and listing the known ones when it is unknown.
Result<sched::OptionValue> ParseWorkloadParam(const WorkloadSource& source, std::string_view name,
                                              std::string_view text);

// Every parameter of `spec`'s source: its defaults overlaid with spec.params, each checked.
Result<sched::PolicyOptions> ResolveWorkloadParams(const WorkloadSpec& spec);

}  // namespace mr::experiment
