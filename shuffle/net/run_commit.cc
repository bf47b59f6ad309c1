#include "shuffle/net/run_commit.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "common/log.h"

namespace mr::shuffle {

namespace {

struct Committed {
  dev_t dev = 0;
  ino_t ino = 0;
  FetchResult result;
};

struct Registry {
  std::mutex mu;
  std::map<std::string, Committed> runs;  // by destination; guarded by mu
};

Registry& Runs() {
  static Registry* registry = new Registry;  // never destroyed: fetch threads may outlive main's statics
  return *registry;
}

std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

std::string RunTempPath(const std::string& dest, uint32_t attempt) {
  return dest + ".a" + std::to_string(attempt) + "." + std::to_string(g_temp_counter.fetch_add(1) + 1) + ".tmp";
}

Result<FetchResult> CommitRun(const std::string& temp, const std::string& dest, const FetchResult& mine) {
  Registry& reg = Runs();
  std::lock_guard lock(reg.mu);
  auto it = reg.runs.find(dest);
  struct stat st {};
  if (it != reg.runs.end() && ::stat(dest.c_str(), &st) == 0 && st.st_dev == it->second.dev &&
      st.st_ino == it->second.ino) {
    ::unlink(temp.c_str());
    MR_LOG_DEBUG("{}: a run committed earlier stays; {} is dropped", dest, temp);
    return it->second.result;
  }
  if (::stat(temp.c_str(), &st) != 0) {
    return Status::IoError("stat " + temp + ": " + std::strerror(errno));
  }
  if (::rename(temp.c_str(), dest.c_str()) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    return Status::IoError("rename " + temp + " to " + dest + ": " + std::strerror(e));
  }
  // Where temp and dest were links of one inode (the same map output linked twice),
  // rename(2) does nothing and temp is still there.
  ::unlink(temp.c_str());
  FetchResult kept;
  kept.bytes = mine.bytes;
  kept.records = mine.records;
  kept.crc32c = mine.crc32c;
  kept.offset = mine.offset;
  reg.runs[dest] = Committed{st.st_dev, st.st_ino, kept};
  return mine;
}

void ForgetRunsUnder(const std::string& dir) {
  const std::string prefix = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  Registry& reg = Runs();
  std::lock_guard lock(reg.mu);
  for (auto it = reg.runs.lower_bound(prefix); it != reg.runs.end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    it = reg.runs.erase(it);
  }
}

size_t CommittedRunCount() {
  Registry& reg = Runs();
  std::lock_guard lock(reg.mu);
  return reg.runs.size();
}

}  // namespace mr::shuffle
