// The parameters of each workload source (`workload.params` in an experiment file): one
// table per source, written once and read both by the file parser (which checks each name
// and value where it is written, with its line) and by the importers (which read the
// values, defaults filled in). docs/experiments.md, "Workloads", lists them. Values use the
// policy options' types and ranges (scheduler/policy_options.h). Pure, thread-safe.
#pragma once

#include <span>
#include <string_view>

#include "common/status.h"
#include "experiment/experiment.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

// The generators `workload.generator` accepts, comma-separated ("synthetic, asrpt").
std::string_view GeneratorNames();

// The parameter table of `spec`'s source (kind, and generator name for kGenerator).
// InvalidArgument naming the generator when it is unknown.
Result<std::span<const sched::OptionSpec>> WorkloadParamSpecs(const WorkloadSpec& spec);

// The one parameter `name` = `text` of `specs`, parsed and range-checked. InvalidArgument
// naming the parameter, and listing the known ones when it is unknown.
Result<sched::OptionValue> ParseWorkloadParam(std::span<const sched::OptionSpec> specs,
                                              std::string_view name, std::string_view text);

// Every parameter of `spec`'s source: its defaults overlaid with spec.params, each checked.
Result<sched::PolicyOptions> ResolveWorkloadParams(const WorkloadSpec& spec);

}  // namespace mr::experiment
