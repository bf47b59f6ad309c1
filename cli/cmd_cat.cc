// `mr cat OUTPUT`: a job's output, its part files in order (part-r-00000, part-r-00001, ...;
// a map-only job's part-m-NNNNN; Hadoop's part-NNNNN after `mr hadoop jar`), so a user need
// not know how many tasks wrote it.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/file_util.h"

namespace mr::cli {

namespace {

// The part files of a job's output directory (every name beginning "part-", as Hadoop's
// `fs -cat OUT/part-*` reads them), in name order; NotFound when it has none.
Result<std::vector<std::string>> OutputParts(const std::string& dir) {
  if (!IsDirectory(dir)) return Status::NotFound("no output directory " + dir);
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(dir));
  std::vector<std::string> parts;
  for (const std::string& n : names) {
    if (n.rfind("part-", 0) == 0) parts.push_back(JoinPath(dir, n));
  }
  if (parts.empty()) return Status::NotFound("no part files (part-*) in " + dir + ": is it a job's output?");
  return parts;
}

// Copies the file at path to stdout in 64 KiB pieces (a part may be larger than memory).
Status CopyToStdout(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("cannot open " + path + ": " + std::strerror(errno));
  std::vector<char> buf(64 << 10);
  Status s = Status::Ok();
  for (;;) {
    const ssize_t n = read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) s = Status::IoError("cannot read " + path + ": " + std::strerror(errno));
    if (n <= 0) break;
    s = WriteAllToFd(STDOUT_FILENO, std::string_view(buf.data(), static_cast<size_t>(n)), "standard output");
    if (!s.ok()) break;
  }
  close(fd);
  return s;
}

}  // namespace

int CatMain(const Args& args) {
  po::options_description desc("cat options");
  po::positional_options_description positional;
  positional.add("output", 1);
  desc.add_options()("output", po::value<std::string>(), "a job's output directory (its --output)");
  po::variables_map vm;
  const char* usage =
      "mr cat OUTPUT\n\n"
      "Prints a finished job's output: its part files in order (part-r-00000, part-r-00001, ...)";
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(usage, &positional))) return *rc;
  if (!vm.count("output")) return UsageError("which output directory? (mr cat out)");
  const std::string dir = vm["output"].as<std::string>();
  auto parts = OutputParts(dir);
  if (!parts.ok()) return UsageError(parts.status().message());
  if (!PathExists(JoinPath(dir, "_SUCCESS"))) {
    std::fprintf(stderr, "mr: cat: %s has no _SUCCESS: the job has not finished, its parts may be partial\n",
                 dir.c_str());
  }
  for (const std::string& p : *parts) {
    if (Status s = CopyToStdout(p); !s.ok()) return Fail("mr: cat", s);
  }
  return kExitOk;
}

}  // namespace mr::cli
