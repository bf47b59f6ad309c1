// `mr model`: forwards to the model module's command line, with the commands that need more
// than the model module (predict and mst-trace read a run's traces: experiment/predict_command.h,
// experiment/mst_trace_command.h).
#include "cli/commands.h"
#include "experiment/mst_trace_command.h"
#include "experiment/predict_command.h"
#include "model/model_cli.h"

namespace mr::cli {

int ModelCommandMain(int argc, char** argv) {
  static const model::ExtraCommand kExtra[] = {
      {"predict", experiment::kPredictSummary, experiment::PredictMain},
      {"mst-trace", experiment::kMstTraceSummary, experiment::MstTraceMain},
  };
  return model::ModelMain(argc, argv, kExtra);
}

}  // namespace mr::cli
