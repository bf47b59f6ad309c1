#include "cli/command.h"
int main(int argc, char** argv) { return mr::cli::Main(argc, argv); }
