// The options shared by `mr run` and `mr submit`: which job, its inputs and
// output, and its parameters, turned into a validated JobSpec.
#pragma once

#include "cli/options.h"
#include "mr.pb.h"

namespace mr::cli {

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional);
// Checks what can be checked before contacting a master: the job and policy
// names, inputs readable, output absent. Paths become absolute.
Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm);

}  // namespace mr::cli
