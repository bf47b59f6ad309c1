// `mr model mst-trace`: the flags of experiment::MstTraceOptions
// (experiment/mst_trace_command.h), whose work sets a recorded run against the
// straggling-mappers model.
#include <iostream>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "experiment/mst_trace_command.h"

namespace mr::cli {

int ModelMstTraceMain(const Args& args) {
  experiment::MstTraceOptions o;
  po::options_description desc(
      "mr model mst-trace --trace DIR|FILE... [--json]\n"
      "A recorded run against the straggling-mappers model: per worker (mapper node) the measured\n"
      "task rate lambda, service rate mu, the service times' delayed-tail fit (offset + "
      "exponential\n"
      "tail, KS distance), the measured and modelled mean response; the measured mean sojourn "
      "time\n"
      "(submit to last map end) next to the model's MST from those numbers; the model's "
      "assumptions\n"
      "with their measured size (docs/mst.md, \"A run's trace against the model\")");
  desc.add_options()("help,h", "this help")(
      "trace", po::value(&o.traces)->multitoken()->required(),
      "trace files, or directories of *.jsonl traces (a master's STATE dir or STATE/traces)")(
      "json", "one JSON object instead of the text report");
  po::variables_map vm;
  constexpr char kPrefix[] = "mr model mst-trace";
  if (auto rc = ParseFlags(args, desc, vm, CaptionedOptions(kPrefix))) return *rc;
  o.json = vm.count("json") > 0;
  Status st = experiment::RunMstTraceCommand(o, std::cout);
  // Every failure here is the input's: traces that cannot be read or do not fit the model.
  return st.ok() ? kExitOk : Fail(kPrefix, st, kExitUsage);
}

}  // namespace mr::cli
