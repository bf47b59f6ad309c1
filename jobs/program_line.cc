#include "jobs/program_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include "common/file_util.h"

namespace mr::jobs {

std::vector<std::string> SplitCommandLine(std::string_view command) {
  enum State { kOutside, kSingle, kDouble };
  std::vector<std::string> words;
  State state = kOutside;
  size_t word_start = 0;
  for (size_t c = 0; c <= command.size(); ++c) {
    const bool last = c == command.size();
    const State before = state;
    bool end_word = false;
    if (!last) {
      const char ch = command[c];
      if (ch == '\'') {
        if (state == kOutside) state = kSingle;
        else if (state == kSingle) state = kOutside;
        end_word = state != before;
      } else if (ch == '"') {
        if (state == kOutside) state = kDouble;
        else if (state == kDouble) state = kOutside;
        end_word = state != before;
      } else if (ch == ' ') {
        end_word = state == kOutside;
      }
    }
    if (last || end_word) {
      if (c > word_start) words.emplace_back(command.substr(word_start, c - word_start));
      word_start = c + 1;
    }
  }
  return words;
}

namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string ResolveProgram(const std::string& program, const std::string& cwd, std::string_view path_env) {
  if (program.empty() || program[0] == '/') return program;
  const std::string here = JoinPath(cwd, program);
  struct stat st{};
  if (::stat(here.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    ::chmod(here.c_str(), st.st_mode | S_IXUSR | S_IXGRP | S_IXOTH);  // Hadoop: chmod a+x
  }
  if (IsExecutableFile(here)) return AbsolutePath(here);
  while (!path_env.empty()) {
    const size_t colon = path_env.find(':');
    std::string_view dir = path_env.substr(0, colon);
    path_env = colon == std::string_view::npos ? std::string_view() : path_env.substr(colon + 1);
    if (dir.empty()) continue;
    const std::string candidate = JoinPath(dir, program);
    if (IsExecutableFile(candidate)) return AbsolutePath(candidate);
  }
  return program;
}

}  // namespace mr::jobs
