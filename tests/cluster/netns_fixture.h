// The namespace cluster's test fixture (netns_cluster_test, netns_output_test; its helpers
// also netns_readme_test's): five hosts
// made by scripts/netns-cluster.sh (master, client, three workers: network namespaces joined
// by a bridge, each with its own address and work directory); the client's host runs `mr
// data-server` over the input directory, and every other host runs its daemon with the
// client's directory hidden (a tmpfs mounted over it in the process's own mount namespace),
// so the only way to the input bytes (and, with --export-output, to the output directory) is
// the network. Each suite gets a cluster of its own; skipped, with the reason, where network
// namespaces cannot be made (not root, no CAP_SYS_ADMIN).
#pragma once

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {

inline constexpr const char* kMaster = "10.29.0.1:7070";
inline constexpr const char* kDataServer = "10.29.0.2:7072";

inline std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

// scripts/netns-cluster.sh of the source tree ($MR_SOURCE_DIR, else the current directory).
inline std::string NetnsScript() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  return std::string(src != nullptr ? src : ".") + "/scripts/netns-cluster.sh";
}

// Why network namespaces cannot be made here (not root, no CAP_SYS_ADMIN), "" when they can:
// a test skips with it.
inline std::string NetnsUnavailable() {
  if (::geteuid() != 0) return "network namespaces need root";
  const std::string probe = "mrnprobe" + std::to_string(::getpid());
  auto p = Sh("ip netns add " + probe + " && ip netns del " + probe);
  return p.exit_code == 0 ? "" : "cannot create a network namespace here: " + FirstLine(p.err);
}

// The VAR=VALUE lines `netns-cluster.sh up` prints (MRN_RUN, MRN_MASTER_NS, MRN_CLIENT_NS,
// MRN_WORKERS, MRN_WORKER_IPS, ...), quotes removed.
inline std::map<std::string, std::string> ParseNetnsEnv(const std::string& up_out) {
  std::map<std::string, std::string> env;
  std::istringstream lines(up_out);
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string v = line.substr(eq + 1);
    if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
    env[line.substr(0, eq)] = v;
  }
  return env;
}

// The worker hosts of a netns-cluster.sh env: (namespace, address) pairs.
inline std::vector<std::pair<std::string, std::string>> NetnsWorkers(std::map<std::string, std::string>& env) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream ws(env["MRN_WORKERS"]), ips(env["MRN_WORKER_IPS"]);
  for (std::string w, ip; ws >> w && ips >> ip;) out.push_back({w, ip});
  return out;
}

class NetnsClusterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {  // each suite (this and NetnsFaultTest) on a cluster of its own
    skip_.clear();
    error_.clear();
    env_.clear();
    workers_.clear();
    pids_.clear();
    skip_ = NetnsUnavailable();
    if (!skip_.empty()) return;
    const char* tmp = std::getenv("TMPDIR");
    dir_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/hosts";
    auto up = Sh(NetnsScript() + " up 3" + up_flags_ + " --dir " + dir_ + " --owner " + std::to_string(::getpid()));
    if (up.exit_code != 0) {
      error_ = "netns-cluster.sh up failed: " + up.err;
      return;
    }
    env_ = ParseNetnsEnv(up.out);
    workers_ = NetnsWorkers(env_);
    if (workers_.size() != 3) {
      error_ = "netns-cluster.sh printed " + up.out;
      return;
    }
    Start();
  }

  static void Start() {
    token_ = dir_ + "/token";
    auto t = Sh(MrBin() + " token new " + token_);
    if (t.exit_code != 0) error_ = "mr token new: " + t.err;
    const std::string data = Data();
    (void)MakeDirs(data);
    WriteCorpus(data + "/corpus-a.txt", 3u << 20, 1);
    WriteCorpus(data + "/corpus-b.txt", 2u << 20, 2);
    WriteRecords(data + "/records.txt", 40000, 3);
    (void)MakeDirs(dir_ + "/out");
    (void)MakeDirs(dir_ + "/c/out");  // output directories on the client's host (netns_output_test)
    Spawn(env_["MRN_CLIENT_NS"], false, "data-server --export " + data + " --listen " + kDataServer +
                                            " --token-file " + token_ + " --addr-file " + dir_ + "/c/ds.addr" +
                                            data_server_flags_,
          dir_ + "/c/data-server.log");
    Spawn(env_["MRN_MASTER_NS"], true, std::string("master --listen ") + kMaster + " --state " + dir_ +
                                           "/m/state --token-file " + token_ + master_flags_, dir_ + "/m/master.log");
    if (local_worker_) {  // a worker on the data server's host: it sees the inputs
      Spawn(Client(), false,
            std::string("worker --master ") + kMaster + " --host 10.29.0.2 --work-dir " + dir_ +
                "/c/work --map-slots 4 --reduce-slots 1 --token-file " + token_,
            dir_ + "/c/worker.log");
    }
    for (size_t i = 0; i < workers_.size(); ++i) {
      const std::string w = dir_ + "/w" + std::to_string(i + 1);
      Spawn(workers_[i].first, true,
            std::string("worker --master ") + kMaster + " --host " + workers_[i].second + " --work-dir " + w +
                "/work --map-slots 2 --reduce-slots 2 --token-file " + token_,
            w + "/worker.log", worker_env_);
    }
    // Every test starts on a whole cluster: the data server bound, the workers registered.
    const bool ready = WaitUntil(
        [] {
          if (!PathExists(dir_ + "/c/ds.addr")) return false;
          auto st = Sh(InNs(Client(), false, Mr(std::string("status --master ") + kMaster + " --token-file " + token_)));
          return st.out.find(local_worker_ ? "4 workers" : "3 workers") != std::string::npos;
        },
        60, 0.2);
    if (!ready) error_ = "the namespace cluster did not come up" + ReadLogs();
  }

  // Runs `mr ARGS` in namespace ns, in the background; with hide, the client's directory
  // (the inputs) is covered by an empty tmpfs in the process's own mount namespace.
  // env: VAR=VALUE words (each followed by a space) for the process's environment.
  static void Spawn(const std::string& ns, bool hide, const std::string& args, const std::string& log,
                    const std::string& env = "") {
    auto r = Sh(InNs(ns, hide, "exec env " + env + MrBin() + " " + args) + " >" + log + " 2>&1 & echo $!");
    pids_.push_back(std::atoi(r.out.c_str()));
  }

  static std::string InNs(const std::string& ns, bool hide, const std::string& cmd) {
    const std::string cover = hide ? "mount -t tmpfs -o size=1m,mode=0755 tmpfs " + dir_ + "/c && " : "";
    return "ip netns exec " + ns + " sh -c " + ShellQuote(cover + cmd);
  }

  static void TearDownTestSuite() {
    for (int pid : pids_) {
      if (pid > 0) ::kill(pid, SIGTERM);
    }
    if (!env_["MRN_RUN"].empty()) {  // also kills what did not stop, and removes the namespaces
      Sh(NetnsScript() + " down " + env_["MRN_RUN"]);
    }
    if (!dir_.empty()) (void)RemoveAll(dir_);
  }

  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_TRUE(error_.empty()) << error_;
  }

  static std::string Data() { return dir_ + "/c/data"; }
  static std::string Client() { return env_["MRN_CLIENT_NS"]; }
  static std::string Mr(const std::string& args) { return MrBin() + " " + args; }

  // Runs a job from the client's host, inputs read through its data server; returns the
  // output directory, and the job's id in *job.
  static std::string RunJob(const std::string& args, const std::string& name, std::string* job) {
    const std::string out = dir_ + "/out/" + name;
    auto r = Sh(InNs(Client(), false,
                     Mr("run " + args + " --input-server " + kDataServer + " --master " + kMaster +
                        " --token-file " + token_ + " --output " + out + " --reducers 3 --split-size 512KiB")));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err << ReadLogs();
    EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
    *job = r.out.substr(0, r.out.find(' '));
    return out;
  }

  // Every map read its split from the data server: the job's counters.
  static void ExpectAllRemote(const std::string& job, uint64_t input_bytes) {
    auto st = Sh(InNs(Client(), false, Mr("status " + job + " --master " + kMaster + " --token-file " + token_)));
    ASSERT_EQ(st.exit_code, 0) << st.err;
    EXPECT_NE(st.out.find("map.input_remote_bytes"), std::string::npos) << st.out;
    EXPECT_NE(st.out.find(std::to_string(input_bytes)), std::string::npos) << st.out;
    EXPECT_EQ(st.out.find("map.input_local_bytes"), std::string::npos) << st.out;
    const size_t share = st.out.find("input read remotely:");
    ASSERT_NE(share, std::string::npos) << st.out;
    const std::string line = st.out.substr(share, st.out.find('\n', share) - share);
    EXPECT_NE(line.find(" 100% ("), std::string::npos) << line;
  }

  static uint64_t Size(const std::string& path) { return std::stoull(Sh("stat -c %s " + path).out); }

  static std::string ReadLogs() {
    return "\nmaster log:\n" + ReadFile(dir_ + "/m/master.log") + "\ndata server log:\n" +
           ReadFile(dir_ + "/c/data-server.log");
  }

  static inline std::string skip_, error_, dir_, token_;
  // NetnsLocalityTest: a fourth worker on the client's (the data server's) host, and the
  // master's extra flags.
  static inline bool local_worker_ = false;
  static inline std::string master_flags_;
  // Extra flags of the data server (e.g. --export-output), and VAR=VALUE words put in each
  // worker host's worker's environment (a test seam's setting).
  static inline std::string data_server_flags_;
  static inline std::string worker_env_;
  // Extra options of `netns-cluster.sh up` (e.g. " --link 160mbit --queue 16kb").
  static inline std::string up_flags_;
  static inline std::map<std::string, std::string> env_;
  static inline std::vector<std::pair<std::string, std::string>> workers_;  // namespace, address
  static inline std::vector<int> pids_;
};

}  // namespace mr::testing
