#include "tests/cluster/cluster_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "common/file_util.h"

namespace mr::testing {

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string WordCountReference(const std::string& input) {
  return Sh("tr -cs 'A-Za-z' '\\n' < " + ShellQuote(input) + " | LC_ALL=C sort | uniq -c | "
            "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
      .out;
}

std::string SortedOutput(const std::string& out_dir) {
  return Sh("cat " + ShellQuote(out_dir) + "/part-r-* | LC_ALL=C sort").out;
}

int64_t CountLines(const std::string& cmd) { return std::stoll(Sh(cmd + " | awk 'END {print NR}'").out); }

std::string Snapshot(const std::string& path) {
  if (!PathExists(path)) return "(absent)";
  if (!IsDirectory(path)) return "file " + std::to_string(ReadFile(path).size()) + "\n" + ReadFile(path) + "\n";
  auto names = ListDir(path);
  if (!names.ok()) return "(unreadable)";
  std::sort(names->begin(), names->end());
  std::string out = "dir\n";
  for (const auto& n : *names) out += "- " + n + ": " + Snapshot(JoinPath(path, n));
  return out;
}

bool ProcessRunning(int pid) {
  if (pid <= 0 || kill(pid, 0) != 0) return false;
  // A zombie still answers kill(0); its state letter follows the ")" closing the name.
  std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

std::vector<std::string> ProcessArgs(int pid) {
  std::string raw = ReadFile("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> args;
  size_t start = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\0') {
      args.push_back(raw.substr(start, i - start));
      start = i + 1;
    }
  }
  return args;
}

std::vector<int> ProcessesMentioning(const std::string& text) {
  std::vector<int> pids;
  auto names = ListDir("/proc");
  if (!names.ok()) return pids;
  for (const auto& n : *names) {
    if (n.empty() || !std::all_of(n.begin(), n.end(), ::isdigit)) continue;
    int pid = std::atoi(n.c_str());
    if (pid == getpid() || !ProcessRunning(pid)) continue;
    for (const auto& a : ProcessArgs(pid)) {
      if (a.find(text) != std::string::npos) {
        pids.push_back(pid);
        break;
      }
    }
  }
  return pids;
}

int ReadPidFile(const std::string& path) {
  std::string text = ReadFile(path);
  return text.empty() ? -1 : std::atoi(text.c_str());
}

CommandResult Sh(const std::string& command) {
  TempDir tmp("mr-cmd");
  std::string out = tmp.path() + "/out", err = tmp.path() + "/err";
  std::string full = "(" + command + ") >" + out + " 2>" + err + " </dev/null";
  int rc = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

std::string MrBin() {
  const char* bin = std::getenv("MR_BIN");
  return bin ? bin : "mr";
}

void WriteCorpus(const std::string& path, size_t bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  static const char* const kWords[] = {"the", "map", "reduce", "shuffle", "slot", "queue", "The", "MAP", "job",
                                       "worker", "master", "sort", "grep", "data", "cluster", "Hadoop", "fair",
                                       "srpt", "tandem", "a", "of", "to", "in", "overlap", "bandwidth"};
  const size_t nw = sizeof kWords / sizeof kWords[0];
  std::string buf;
  buf.reserve(bytes + 128);
  size_t line_len = 0;
  while (buf.size() < bytes) {
    uint64_t r = rng();
    if (r % 7 == 0) {
      // A rare word drawn from a large space so the vocabulary is big.
      uint64_t x = rng() % 50000;
      std::string w;
      do {
        w += static_cast<char>((x % 26) + ((x & 64) ? 'A' : 'a'));
        x /= 26;
      } while (x > 0);
      buf += w;
    } else {
      // Zipf-like: favour the first words.
      size_t i = (r >> 8) % nw;
      i = (i * i) / nw;
      buf += kWords[i];
    }
    static const char* const kSeps[] = {" ", " ", " ", ", ", ". ", " 42 ", "-", "'", " (x) ", "\t"};
    buf += kSeps[(r >> 32) % 10];
    line_len += 8;
    if (line_len > 60 + (r >> 40) % 40) {
      buf += '\n';
      line_len = 0;
    }
  }
  buf += '\n';
  std::ofstream(path, std::ios::binary) << buf;
}

void WriteRecords(const std::string& path, size_t records, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string buf;
  buf.reserve(records * 100);
  for (size_t i = 0; i < records; ++i) {
    for (int j = 0; j < 99; ++j) buf += static_cast<char>(' ' + 1 + rng() % 94);
    buf += '\n';
  }
  std::ofstream(path, std::ios::binary) << buf;
}

std::vector<nlohmann::json> ReadTrace(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

int ConnectLoopback(uint16_t port, bool* connected) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  *connected = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  return fd;
}

int SpawnMr(const std::vector<std::string>& mr_args, const std::string& log_path, bool own_group) {
  std::string bin = MrBin();
  std::vector<std::string> args = mr_args;
  std::vector<char*> argv;
  argv.push_back(bin.data());
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    if (own_group) setpgid(0, 0);
    FILE* log = std::fopen(log_path.c_str(), "a");
    if (log != nullptr) {
      dup2(fileno(log), 1);
      dup2(fileno(log), 2);
    }
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  if (own_group && pid > 0) setpgid(pid, pid);  // both sides, so the group exists before either goes on
  return pid;
}

ChildProcess::ChildProcess(const std::vector<std::string>& mr_args, const std::string& log_path)
    : pid_(SpawnMr(mr_args, log_path)) {}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void ChildProcess::Kill(int sig) {
  if (pid_ > 0 && !reaped_) kill(pid_, sig);
}

int ChildProcess::Wait(double timeout_seconds) {
  if (reaped_ || pid_ <= 0) return -1;
  int status = 0;
  if (!WaitUntil([&] { return waitpid(pid_, &status, WNOHANG) == pid_; }, timeout_seconds, 0.02)) return -1;
  reaped_ = true;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool WaitForStatus(const std::string& master, const std::string& job,
                   const std::function<bool(const nlohmann::json&)>& pred, double timeout_seconds) {
  // Each poll runs `mr status` (tens of ms on a loaded machine): the deadline is real time,
  // not a count of polls.
  return WaitUntil([&] {
    auto r = Sh(MrBin() + " status --json " + job + " --master " + master);
    if (r.exit_code != 0) return false;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return !j.is_discarded() && pred(j);
  }, timeout_seconds, 0.1);
}

bool DirectCluster::StartMaster(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"master", "--listen", addr_.empty() ? "127.0.0.1:0" : addr_, "--state",
                                   d_ + "/state", "--addr-file", d_ + "/addr"};
  args.insert(args.end(), extra.begin(), extra.end());
  (void)RemoveAll(d_ + "/addr");
  ++master_starts_;
  master_ = std::make_unique<ChildProcess>(args, LatestMasterLogPath());
  if (!WaitUntil([&] { return PathExists(d_ + "/addr"); }, 10, 0.05)) return false;
  addr_ = ReadFile(d_ + "/addr");
  while (!addr_.empty() && addr_.back() == '\n') addr_.pop_back();
  return !addr_.empty();
}

void DirectCluster::KillMaster() {
  if (!master_) return;
  master_->Kill(SIGKILL);
  master_->Wait(5);
}

void DirectCluster::StartWorker(const std::vector<std::string>& extra) {
  const std::string n = std::to_string(worker_starts_++);
  std::vector<std::string> args = {"worker", "--master", addr_, "--work-dir", d_ + "/w" + n};
  args.insert(args.end(), extra.begin(), extra.end());
  workers_.push_back(std::make_unique<ChildProcess>(args, d_ + "/worker-" + n + ".log"));
}

void DirectCluster::KillWorker(size_t i) {
  workers_.at(i)->Kill(SIGKILL);
  workers_.at(i)->Wait(5);
  workers_.erase(workers_.begin() + static_cast<long>(i));
}

void DirectCluster::SignalWorker(size_t i, int sig) { workers_.at(i)->Kill(sig); }

void DirectCluster::SignalMaster(int sig) {
  if (master_) master_->Kill(sig);
}

void DirectCluster::FreezeWorkers() {
  for (auto& w : workers_) w->Kill(SIGSTOP);
}

void DirectCluster::ThawWorkers() {
  for (auto& w : workers_) w->Kill(SIGCONT);
}

std::string DirectCluster::JobState(const std::string& job) const {
  auto r = Mr("status --json " + job);
  if (r.exit_code != 0) return "";
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_discarded() || !j.is_object() ? "" : j.value("state", "");
}

bool DirectCluster::WaitForWorkers(int n, double seconds) const {
  return WaitUntil(
      [&] {
        auto r = Mr("status --json");
        auto j = nlohmann::json::parse(r.out, nullptr, false);
        return r.exit_code == 0 && !j.is_discarded() && j.value("workers", 0) == n;
      },
      seconds, 0.1);
}

std::string DirectCluster::LatestMasterLogPath() const {
  return d_ + "/master-" + std::to_string(master_starts_) + ".log";
}

std::string DirectCluster::MasterLogs() const {
  std::string all;
  for (int i = 1; i <= master_starts_; ++i) all += ReadFile(d_ + "/master-" + std::to_string(i) + ".log");
  return all;
}

CommandResult DirectCluster::Mr(const std::string& args) const {
  return Sh(MrBin() + " " + args + " --master " + addr_);
}

ClusterProcess::ClusterProcess(const std::string& dir, int workers, const std::string& extra_flags) : dir_(dir) {
  auto r = Sh(MrBin() + " cluster start --workers " + std::to_string(workers) + " --dir " + ShellQuote(dir) + " " +
               extra_flags);
  if (r.exit_code != 0) {
    error_ = r.err;
    return;
  }
  address_ = r.out;
  while (!address_.empty() && (address_.back() == '\n' || address_.back() == ' ')) address_.pop_back();
}

ClusterProcess::~ClusterProcess() {
  Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir_));
}

bool HasArgs(const std::vector<std::string>& args, const std::string& flag, const std::string& value) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == flag && args[i + 1] == value) return true;
  }
  return false;
}

std::string Joined(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += a + " ";
  return s;
}

}  // namespace mr::testing
