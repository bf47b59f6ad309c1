#include "tests/web/chromium.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace mr::webtest {

std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string cmd = std::string("command -v ") + name + " 2>/dev/null";
    FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) continue;
    char buf[512] = {};
    bool found = std::fgets(buf, sizeof buf, p) != nullptr;
    ::pclose(p);
    if (found) {
      std::string path = buf;
      while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
      return path;
    }
  }
  return "";
}

// Runs chromium headless with `args`; returns its stdout. Bounded by `timeout`. Chromium
// binds a socket under $TMPDIR, whose path must fit a sockaddr_un (108 bytes): the test's
// scratch directory of a checkout in a long path does not, and chromium then prints
// nothing. So its TMPDIR is a short symlink in /tmp to a directory beside the profile
// (what chromium writes stays in the scratch directory), removed after the run.
std::string RunChromium(const std::string& chromium, const std::string& profile, const std::string& args) {
  static std::atomic<int> runs{0};
  const std::string tmp = profile + "-tmp";
  ::mkdir(tmp.c_str(), 0700);
  const std::string link = "/tmp/mr-chromium-" + std::to_string(::getpid()) + "-" + std::to_string(runs++);
  ::unlink(link.c_str());
  const bool linked = ::symlink(tmp.c_str(), link.c_str()) == 0;
  std::string cmd = (linked ? "TMPDIR=" + link + " " : std::string()) + "timeout 90 " + chromium +
                    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                    " --disable-background-networking --disable-component-update --disable-sync"
                    " --disable-dev-shm-usage --user-data-dir=" + profile + " " + args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[8192];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  if (linked) ::unlink(link.c_str());
  return out;
}

size_t Count(const std::string& s, const std::string& needle) {
  size_t n = 0;
  for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace mr::webtest
