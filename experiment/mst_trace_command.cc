#include "experiment/mst_trace_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "experiment/mst_trace_output.h"

namespace mr::experiment {

int MstTraceMain(int argc, char** argv) {
  namespace po = boost::program_options;
  std::vector<std::string> traces;
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
      "trace", po::value(&traces)->multitoken()->required(),
      "trace files, or directories of *.jsonl traces (a master's STATE dir or STATE/traces)")(
      "json", "one JSON object instead of the text report");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(argv + 1, argv + argc))
                  .options(desc)
                  .run(),
              vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "mr model mst-trace: %s\n", e.what());
    return 2;
  }
  Result<MstTraceReport> report = ReadMstTrace(traces);
  if (!report.ok()) {
    std::fprintf(stderr, "mr model mst-trace: %s\n", report.status().message().c_str());
    return 2;
  }
  if (vm.count("json")) {
    std::cout << MstTraceJson(*report).dump(2) << "\n";
  } else {
    WriteMstTraceText(*report, std::cout);
  }
  return 0;
}

}  // namespace mr::experiment
