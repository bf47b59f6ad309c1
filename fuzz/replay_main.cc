// A main for a libFuzzer target built without libFuzzer: runs the target once on every file
// in the directories (or files) given, so an ordinary build and ctest exercise the fuzz
// targets' code on their seed corpus (make_seeds) and on saved reproducers. Exits 0 once
// every input ran; a crash is the failure, as under the fuzzer.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/file_util.h"

// Optional in a target, as under libFuzzer.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (std::filesystem::is_directory(argv[i], ec)) {
      for (const auto& e : std::filesystem::directory_iterator(argv[i])) inputs.push_back(e.path().string());
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: %s DIR|FILE... (no inputs found)\n", argv[0]);
    return 2;
  }
  for (const auto& path : inputs) {
    auto bytes = mr::ReadFileToString(path);
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), bytes.status().ToString().c_str());
      return 1;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
  }
  std::printf("ran %zu inputs\n", inputs.size());
  return 0;
}
