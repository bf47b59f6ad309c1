#include "model/cli_args.h"

#include <iostream>
#include <sstream>

namespace mr::model {

namespace po = boost::program_options;

bool ParseModelArgs(const std::vector<std::string>& args, const po::options_description& desc,
                    po::variables_map& vm, int& exit_code) {
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    if (vm.count("help")) {
      std::cout << desc;
      exit_code = 0;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "mr model: " << e.what() << "\n";
    exit_code = 2;
    return false;
  }
  return true;
}

std::vector<std::string> SplitCommaList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace mr::model
