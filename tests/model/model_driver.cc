// Stand-in for `mr model ...` until the lead engineer wires ModelMain into the
// mr binary: `model_driver model sweep --csv` == `mr model sweep --csv`.
#include <cstdio>
#include <cstring>

#include "model/model_cli.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "model") != 0) {
    std::fprintf(stderr, "usage: model_driver model COMMAND [options]\n");
    return 2;
  }
  return mr::model::ModelMain(argc - 1, argv + 1);
}
