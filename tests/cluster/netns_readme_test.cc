// Issue 29, item 8: the README's "Several machines" commands run as written on a namespace
// cluster (scripts/netns-cluster.sh: a master host, a client host that holds the inputs, and
// two worker hosts), so the section stays true. The block is read from README.md; each
// command runs on the host its comment names ("on the master's machine", "on each worker",
// "on the machine with the inputs"; before any, the machine with the inputs), the daemons in
// the background as one would in a terminal each. Only what one machine cannot be changes:
//  - the addresses: 192.168.1.10 is the client's host, .20 the master's, .21 and .22 the
//    workers' (in the "each worker" lines .21 is that worker's own address);
//  - each host gets a home directory of its own (HOME), `scp -p FILE HOST:` copies into that
//    host's home, and the paths a test may not write (/home/me/data, /home/me/results,
//    /var/tmp/mr) move under the scratch directory;
//  - the inputs and the output directory are seen by the client's host only (an empty tmpfs
//    covers them elsewhere).
// The word count, committed on the client's host, must match coreutils byte for byte. Skipped, with the reason, where network
// namespaces cannot be made.
#include <unistd.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/cluster/netns_fixture.h"
#include "tests/common/wait.h"

namespace mr::testing {
namespace {

std::string SourceDir() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  return src != nullptr ? src : ".";
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// One command of the section: the host it runs on ("client", "master", "worker") and its
// text, continuation lines joined.
struct Command {
  std::string host;
  std::string text;
};

std::vector<Command> SeveralMachinesCommands() {
  const std::string readme = ReadFile(SourceDir() + "/README.md");
  const size_t section = readme.find("## Several machines");
  if (section == std::string::npos) return {};
  const size_t open = readme.find("```\n", section);
  const size_t close = readme.find("```", open + 4);
  std::istringstream block(readme.substr(open + 4, close - open - 4));
  std::vector<Command> out;
  std::string host = "client", pending;
  for (std::string line; std::getline(block, line);) {
    if (line.rfind("# ", 0) == 0) {
      if (line.find("master's machine") != std::string::npos) host = "master";
      if (line.find("each worker") != std::string::npos) host = "worker";
      if (line.find("machine with the inputs") != std::string::npos) host = "client";
      continue;
    }
    if (!line.empty() && line.back() == '\\') {
      pending += line.substr(0, line.size() - 1);
      continue;
    }
    pending += line;
    if (pending.find_first_not_of(' ') != std::string::npos) out.push_back({host, pending});
    pending.clear();
  }
  return out;
}

TEST(NetnsReadmeTest, SeveralMachinesSectionRunsAsWritten) {
  if (const std::string why = NetnsUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<Command> commands = SeveralMachinesCommands();
  ASSERT_GE(commands.size(), 5u) << "no command block under \"## Several machines\" in README.md";

  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/readme-hosts";
  auto up = Sh(NetnsScript() + " up 2 --dir " + dir + " --owner " + std::to_string(::getpid()));
  ASSERT_EQ(up.exit_code, 0) << up.err;
  struct Cleanup {  // the namespaces (and every daemon in them) and the directory go, also on failure
    std::string run, dir;
    ~Cleanup() {
      if (!run.empty()) Sh(NetnsScript() + " down " + run);
      (void)RemoveAll(dir);
    }
  } cleanup;
  cleanup.dir = dir;
  std::map<std::string, std::string> env = ParseNetnsEnv(up.out);
  cleanup.run = env["MRN_RUN"];
  struct Host {
    std::string ns, ip;
  };
  std::vector<Host> workers;
  for (const auto& [ns, ip] : NetnsWorkers(env)) workers.push_back({ns, ip});
  const Host client{env["MRN_CLIENT_NS"], "10.29.0.2"}, master{env["MRN_MASTER_NS"], "10.29.0.1"};
  ASSERT_EQ(workers.size(), 2u) << up.out;

  // The inputs, on the client's host only.
  const std::string data = dir + "/c/data";
  ASSERT_TRUE(MakeDirs(data + "/books").ok());
  WriteCorpus(data + "/books/one.txt", 1u << 20, 11);
  WriteCorpus(data + "/books/two.txt", 600u << 10, 12);
  const std::string bin = MrBin().substr(0, MrBin().rfind('/'));
  auto home = [&](const Host& h) { return dir + "/home/" + h.ip; };
  for (const Host& h : {client, master, workers[0], workers[1]}) ASSERT_TRUE(MakeDirs(home(h)).ok());

  // `text` on host h: addresses and the unwritable paths substituted, HOME its own, scp a copy
  // into the named host's home, the inputs hidden unless h is the client's host.
  auto shell = [&](const Host& h, std::string text, bool background, const std::string& log) {
    text = Replace(text, "192.168.1.21", h.ip == client.ip || h.ip == master.ip ? workers[0].ip : h.ip);
    text = Replace(text, "192.168.1.22", workers[1].ip);
    text = Replace(text, "192.168.1.20", master.ip);
    text = Replace(text, "192.168.1.10", client.ip);
    text = Replace(text, "/home/me/data", data);
    text = Replace(text, "/var/tmp/mr", home(h) + "/var-tmp-mr");
    text = Replace(text, "/home/me/results", dir + "/c/results");
    const std::string scp = "scp() { for last; do :; done; eval src=\\${$(($# - 1))}; cp -p \"$src\" \"" + dir +
                            "/home/${last%:}/\"; }; ";
    const std::string hide = h.ip == client.ip ? "" : "mount -t tmpfs -o size=1m tmpfs " + dir + "/c && ";
    const std::string cmd = hide + "export HOME=" + home(h) + " PATH=" + bin + ":$PATH; " + scp + text;
    std::string line = "ip netns exec " + h.ns + " sh -c " + ShellQuote(cmd);
    if (background) line += " >" + log + " 2>&1 &";
    return Sh(line);
  };
  auto is_daemon = [](const std::string& t) {
    return t.rfind("mr master ", 0) == 0 || t.rfind("mr worker ", 0) == 0 || t.rfind("mr data-server ", 0) == 0;
  };
  // A foreground command after daemons were started waits for them as a user would: the
  // master answering with every worker registered, the data server listening.
  auto cluster_ready = [&] {
    auto st = shell(client, "mr status --master 192.168.1.20:7070 --token-file ~/.mr-token", false, "");
    auto ds = Sh("ip netns exec " + client.ns + " ss -Hltn | grep -q '10.29.0.2:7072 '");
    return st.out.find("2 workers") != std::string::npos && ds.exit_code == 0;
  };
  bool started = false;
  int n = 0;
  std::string last_out;  // of the last command run in the foreground: `mr run` prints the job id first
  for (const Command& c : commands) {
    SCOPED_TRACE(c.text);
    ++n;
    const std::vector<Host> on = c.host == "master" ? std::vector<Host>{master}
                                 : c.host == "worker" ? workers
                                                      : std::vector<Host>{client};
    for (const Host& h : on) {
      if (is_daemon(c.text)) {
        shell(h, c.text, true, dir + "/daemon-" + std::to_string(n) + "-" + h.ip + ".log");
        started = true;
        continue;
      }
      if (started) {
        ASSERT_TRUE(WaitUntil(cluster_ready, 60, 0.3)) << Sh("tail -n 5 " + dir + "/daemon-*.log").out;
      }
      auto r = shell(h, c.text, false, "");
      ASSERT_EQ(r.exit_code, 0) << "on " << h.ip << ": " << r.out << r.err;
      last_out = r.out;
    }
  }
  const std::string books = data + "/books/one.txt " + data + "/books/two.txt";
  const std::string out = dir + "/c/results/books";
  EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
  const std::string reference = Sh("cat " + books + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                                   "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort")
                                    .out;
  EXPECT_GT(reference.size(), 1000u);
  EXPECT_EQ(SortedOutput(out), reference);
  // The job read the books through the data server: the daemons elsewhere could not see them.
  const std::string job = last_out.substr(0, last_out.find(' '));
  auto st = shell(client, "mr status " + job + " --master 192.168.1.20:7070 --token-file ~/.mr-token", false, "");
  const size_t share = st.out.find("input read remotely:");
  ASSERT_NE(share, std::string::npos) << st.out << st.err;
  EXPECT_NE(st.out.substr(share, st.out.find('\n', share) - share).find(" 100% ("), std::string::npos) << st.out;
}

}  // namespace
}  // namespace mr::testing
