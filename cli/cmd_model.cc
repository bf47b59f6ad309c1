// `mr model`: forwards to the model module's command line.
#include "cli/commands.h"
#include "model/model_cli.h"

namespace mr::cli {

int ModelCommandMain(int argc, char** argv) { return model::ModelMain(argc, argv); }

}  // namespace mr::cli
