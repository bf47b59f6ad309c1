// Experiment files: the YAML that describes one experiment (cluster shape, workload, the
// policies to compare, repetitions), parsed with yaml-cpp into plain data (experiment.h).
// The schema is docs/experiments.md, "Experiment files". Every error is InvalidArgument
// naming the file, the key path ("cluster.workers[0].speed") and the line; unknown keys are
// errors; policies and their options are checked against the policy table; cluster
// features the live cluster does not have yet (stragglers) are refused naming the issue
// that will build them. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "experiment/experiment.h"

namespace mr::experiment {

// Reads and parses the file at `path`. NotFound when it cannot be read.
Result<Experiment> LoadExperimentFile(const std::string& path);

// Parses `yaml_text`; `source_path` names the file in errors and anchors relative
// workload paths (they are returned absolute, or relative to the working directory when
// source_path is relative). source_path may be "" (paths are then kept as written).
Result<Experiment> ParseExperiment(std::string_view yaml_text, const std::string& source_path);

}  // namespace mr::experiment
