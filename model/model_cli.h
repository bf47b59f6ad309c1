// `mr model ...`: command-line front end of the tandem-queue model — simulate a
// workload under a policy (tandem), generate workloads (gen), reproduce the
// paper's Figure 7 sweep (sweep) and Figure 9 slowdown-by-size view (slowdown).
// Commands built outside model/ (`predict` reads traces, so it lives in experiment/) are
// handed in as `extra`: listed in the usage and dispatched with argv starting at their
// name. argv[0] is "model". Returns the process exit status: 0 ok, 2 bad usage or
// input (one-line message on stderr), 1 a simulation failure.
#pragma once

#include <span>

namespace mr::model {

struct ExtraCommand {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);  // argv[0] is the command's name
};

int ModelMain(int argc, char** argv, std::span<const ExtraCommand> extra = {});

}  // namespace mr::model
