// Helpers for tests that run the real `mr` binary as separate processes on
// loopback: running commands, generating inputs, reading traces.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mr::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `sh -c command`, capturing stdout and stderr.
CommandResult Sh(const std::string& command);
// Path of the mr binary under test ($MR_BIN).
std::string MrBin();
std::string ShellQuote(const std::string& s);

// Deterministic word corpus (~bytes): words of letters with punctuation, digits
// and mixed case, so tokenising edge cases are exercised.
void WriteCorpus(const std::string& path, size_t bytes, uint64_t seed);
// Lines of 99 printable bytes + '\n' (sort's 100-byte records).
void WriteRecords(const std::string& path, size_t records, uint64_t seed);

std::vector<nlohmann::json> ReadTrace(const std::string& path);
std::string ReadFile(const std::string& path);

// A background cluster started with `mr cluster start`, stopped on destruction.
class ClusterProcess {
 public:
  ClusterProcess(const std::string& dir, int workers, const std::string& extra_flags = "");
  ~ClusterProcess();
  const std::string& address() const { return address_; }
  bool ok() const { return !address_.empty(); }
  const std::string& start_error() const { return error_; }

 private:
  std::string dir_;
  std::string address_;
  std::string error_;
};

}  // namespace mr::testing
