// `mr model ...`: command-line front end of the tandem-queue model — simulate a
// workload under a policy (tandem), generate workloads (gen), reproduce the
// paper's Figure 7 sweep (sweep) and Figure 9 slowdown-by-size view (slowdown).
// argv[0] is "model". Returns the process exit status: 0 ok, 2 bad usage or
// input (one-line message on stderr), 1 a simulation failure.
#pragma once

namespace mr::model {

int ModelMain(int argc, char** argv);

}  // namespace mr::model
