#include "common/process_cpu.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string>

#include "common/file_util.h"

namespace mr {

Result<double> ParseProcStatCpuSeconds(std::string_view text, long ticks_per_second) {
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are
  // counted from the last ')'. utime and stime are fields 14 and 15 (proc(5)), i.e. the
  // 12th and 13th after the comm.
  const size_t close = text.rfind(')');
  if (close == std::string_view::npos || ticks_per_second <= 0) {
    return Status::InvalidArgument("not a /proc/PID/stat line");
  }
  std::string_view rest = text.substr(close + 1);
  uint64_t values[2] = {0, 0};
  int field = 2;  // the comm was field 2
  size_t pos = 0;
  while (field < 15) {
    while (pos < rest.size() && rest[pos] == ' ') ++pos;
    size_t end = rest.find(' ', pos);
    if (end == std::string_view::npos) end = rest.size();
    if (pos >= end) return Status::InvalidArgument("/proc/PID/stat line has too few fields");
    ++field;
    if (field == 14 || field == 15) {
      auto [p, ec] = std::from_chars(rest.data() + pos, rest.data() + end, values[field - 14]);
      if (ec != std::errc() || p != rest.data() + end) {
        return Status::InvalidArgument("/proc/PID/stat field " + std::to_string(field) + " is not a number");
      }
    }
    pos = end;
  }
  return static_cast<double>(values[0] + values[1]) / static_cast<double>(ticks_per_second);
}

Result<double> ProcessCpuSeconds(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  if (!PathExists(path)) return Status::NotFound("no process " + std::to_string(pid));
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  Result<double> cpu = ParseProcStatCpuSeconds(text, sysconf(_SC_CLK_TCK));
  if (!cpu.ok()) return Status::IoError(path + ": " + cpu.status().message());
  return cpu;
}

}  // namespace mr
