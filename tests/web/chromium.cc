#include "tests/web/chromium.h"

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

// Runs chromium headless with `args`; returns its stdout. Bounded by `timeout`.
std::string RunChromium(const std::string& chromium, const std::string& profile, const std::string& args) {
  std::string cmd = "timeout 90 " + chromium +
                    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                    " --disable-background-networking --disable-component-update --disable-sync"
                    " --disable-dev-shm-usage --user-data-dir=" + profile + " " + args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[8192];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

size_t Count(const std::string& s, const std::string& needle) {
  size_t n = 0;
  for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace mr::webtest
