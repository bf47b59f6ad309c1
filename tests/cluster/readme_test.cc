// The README's commands work as written (issue 16): every `mr` line of its quick start, run in
// order in one shell on the bundled data, and each `mr model` line of the model workloads'
// README. Only what a test must change is changed: the output directories move from /tmp to
// a scratch directory, the status page's port 7080 to a free one, `export PATH=...` uses the
// binary under test, and `xdg-open` (a browser) is skipped. A failing line fails the test and
// is named; a line whose comment is `# → TEXT` fails unless the first line it prints is TEXT.
// The quick start runs twice in a row (its second `mr cluster start --fresh` moves the first
// cluster's state aside) and must print the same. docs/walkthrough.md's steps 1-4 are run
// the same way, twice.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr {
namespace {

using testing::CommandResult;
using testing::MrBin;
using testing::Sh;
using testing::ShellQuote;

std::string SourceDir() {
  const char* dir = std::getenv("MR_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    return 0;
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

// The lines of the first ```sh block after the heading `heading` in `markdown`.
std::vector<std::string> CodeBlockAfter(const std::string& markdown, const std::string& heading) {
  std::vector<std::string> lines;
  const size_t at = markdown.find(heading);
  if (at == std::string::npos) return lines;
  const size_t open = markdown.find("```sh\n", at);
  const size_t close = markdown.find("```", open + 6);
  if (open == std::string::npos || close == std::string::npos) return lines;
  std::istringstream in(markdown.substr(open + 6, close - open - 6));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// TEXT as a bash `case` pattern: literal, except that each '…' stands for any text (a time,
// a port: what differs from run to run).
std::string CasePattern(const std::string& text) {
  static const std::string kAny = "\u2026";
  std::string pattern;
  size_t from = 0;
  for (size_t at; (at = text.find(kAny, from)) != std::string::npos; from = at + kAny.size()) {
    pattern += ShellQuote(text.substr(from, at - from)) + "*";
  }
  return pattern + ShellQuote(text.substr(from));
}

// A line "CMD   # → TEXT" as a script line that runs CMD, prints what it printed, and fails
// unless its first line is TEXT ('…' in TEXT: any text); any other line as it is.
std::string Checked(const std::string& line) {
  static const std::string kArrow = "# \u2192 ";
  const size_t at = line.find(kArrow);
  if (at == std::string::npos) return line;
  std::string cmd = line.substr(0, at);
  cmd.erase(cmd.find_last_not_of(' ') + 1);
  const std::string want = line.substr(at + kArrow.size());
  return "out=$(" + cmd + ")\nprintf '%s\\n' \"$out\"\ncase \"$(printf '%s\\n' \"$out\" | head -1)\" in " +
         CasePattern(want) + ") ;; *) echo " + ShellQuote("doc line '" + cmd + "' did not print '" + want + "' first:") +
         " \"$out\" >&2; exit 1;; esac";
}

// Runs `lines` in one bash in `dir` (so exports carry over), stopping at the first failure.
CommandResult RunScript(const std::vector<std::string>& lines, const std::string& dir) {
  std::string script = "set -eu\ntrap 'echo \"README line failed: $BASH_COMMAND\" >&2' ERR\ncd " + ShellQuote(dir) + "\n";
  for (const std::string& l : lines) script += Checked(l) + "\n";
  const std::string path = JoinPath(dir, "readme.sh");
  EXPECT_TRUE(WriteFileAtomically(path, script).ok());
  return Sh("bash " + ShellQuote(path));
}

TEST(ReadmeTest, QuickStartRunsAsWritten) {
  TempDir tmp("mr-readme");
  const std::string src = SourceDir();
  ASSERT_TRUE(Sh("ln -s " + ShellQuote(JoinPath(src, "examples")) + " " + ShellQuote(JoinPath(tmp.path(), "examples")))
                  .exit_code == 0);
  auto readme = ReadFileToString(JoinPath(src, "README.md"));
  ASSERT_TRUE(readme.ok());
  std::vector<std::string> block = CodeBlockAfter(*readme, "## Quick start");
  ASSERT_GE(block.size(), 8u) << "no quick-start block found";
  const int port = FreePort();
  ASSERT_GT(port, 0);
  const std::string bin_dir = MrBin().substr(0, MrBin().find_last_of('/'));
  const std::string out = JoinPath(tmp.path(), "out");
  ASSERT_TRUE(MakeDirs(out).ok());
  std::vector<std::string> lines;
  int mr_lines = 0;
  for (std::string l : block) {
    if (l.rfind("xdg-open", 0) == 0) continue;  // a browser, not mr
    if (l.rfind("export PATH=", 0) == 0) {
      lines.push_back("export PATH=" + ShellQuote(bin_dir) + ":$PATH");
      continue;
    }
    l = std::regex_replace(l, std::regex("127\\.0\\.0\\.1:7080"), "127.0.0.1:" + std::to_string(port));
    l = std::regex_replace(l, std::regex(" /tmp/"), " " + out + "/");
    if (l.rfind("mr ", 0) == 0) ++mr_lines;
    lines.push_back(l);
  }
  EXPECT_GE(mr_lines, 8);
  EXPECT_GE(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l != Checked(l); }), 3)
      << "the quick start documents what its lines print";
  // Twice in a row, as a newcomer would: the second run starts fresh and prints the same.
  CommandResult r;
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    r = RunScript(lines, tmp.path());
    // Whatever happened, no cluster is left running.
    Sh("cd " + ShellQuote(tmp.path()) + " && " + ShellQuote(MrBin()) + " cluster stop >/dev/null 2>&1");
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  EXPECT_NE(r.err.find("moved the earlier cluster's state"), std::string::npos) << r.err;
  // The jobs did what the README says they do.
  EXPECT_TRUE(PathExists(JoinPath(out, "wc/_SUCCESS")));
  EXPECT_TRUE(PathExists(JoinPath(out, "sorted/_SUCCESS")));
  EXPECT_TRUE(PathExists(JoinPath(out, "grep/_SUCCESS")));
  EXPECT_FALSE(PathExists(JoinPath(out, "syn"))) << "mr kill removes the killed job's output";
  EXPECT_NE(r.out.find("job-000004"), std::string::npos) << r.out;
}

// The ```sh blocks of docs/walkthrough.md's steps 1 to 4, a line continued with '\\' joined
// to the next. Step 5 (`mr experiment run` of a five-policy file, about ten minutes) is a
// measurement, not a check: experiment_cli_test runs the command on a small file.
std::vector<std::string> WalkthroughLines(const std::string& doc) {
  std::vector<std::string> lines;
  for (const char* step : {"## 1.", "## 2.", "## 3.", "## 4."}) {
    std::string joined;
    for (const std::string& l : CodeBlockAfter(doc, step)) {
      joined += l;
      if (!joined.empty() && joined.back() == '\\') {
        joined.pop_back();
        continue;
      }
      lines.push_back(joined);
      joined.clear();
    }
  }
  return lines;
}

// docs/walkthrough.md steps 1-4 as a newcomer types them, in one shell, twice in a row (its
// own `rm -rf /tmp/walk-*` and --fresh make the second walk like the first); every line
// with `# → TEXT` must print TEXT first. Changed as for the README: /tmp to a scratch
// directory, the page's port to a free one, PATH to the binary under test.
TEST(ReadmeTest, WalkthroughRunsAsWritten) {
  TempDir tmp("mr-walk");
  const std::string src = SourceDir();
  ASSERT_TRUE(Sh("ln -s " + ShellQuote(JoinPath(src, "examples")) + " " + ShellQuote(JoinPath(tmp.path(), "examples")))
                  .exit_code == 0);
  auto doc = ReadFileToString(JoinPath(src, "docs/walkthrough.md"));
  ASSERT_TRUE(doc.ok());
  const std::vector<std::string> block = WalkthroughLines(*doc);
  ASSERT_GE(block.size(), 12u) << "the walkthrough's steps 1-4 were not found";
  const int port = FreePort();
  ASSERT_GT(port, 0);
  const std::string bin_dir = MrBin().substr(0, MrBin().find_last_of('/'));
  const std::string out = JoinPath(tmp.path(), "out");
  ASSERT_TRUE(MakeDirs(out).ok());
  std::vector<std::string> lines = {"export PATH=" + ShellQuote(bin_dir) + ":$PATH", "unset MR_MASTER",
                                    "rm -rf " + ShellQuote(out) + "/walk-*"};
  for (std::string l : block) {
    l = std::regex_replace(l, std::regex("127\\.0\\.0\\.1:7080"), "127.0.0.1:" + std::to_string(port));
    l = std::regex_replace(l, std::regex(" /tmp/"), " " + out + "/");
    lines.push_back(l);
  }
  EXPECT_GE(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l != Checked(l); }), 8)
      << "the walkthrough documents what its lines print";
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("walk " + std::to_string(run));
    CommandResult r = RunScript(lines, tmp.path());
    for (const char* dir : {"mr-cluster", "mr-cluster-maxsrpt"}) {
      Sh("cd " + ShellQuote(tmp.path()) + " && " + ShellQuote(MrBin()) + " cluster stop --dir " + dir + " >/dev/null 2>&1");
    }
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(PathExists(JoinPath(out, "walk-wc/_SUCCESS")));
    EXPECT_TRUE(PathExists(JoinPath(out, "walk-d/_SUCCESS"))) << "step 3 waits for the small job";
  }
}

TEST(ReadmeTest, EveryModelWorkloadRunsWithItsCommand) {
  const std::string src = SourceDir();
  auto doc = ReadFileToString(JoinPath(src, "examples/workloads/model/README.md"));
  ASSERT_TRUE(doc.ok());
  std::regex command("`(mr model [^`]*)`");
  std::vector<std::string> lines;
  for (std::sregex_iterator it(doc->begin(), doc->end(), command), end; it != end; ++it) {
    const std::string c = (*it)[1];
    if (c.find("--workload examples/") != std::string::npos) lines.push_back(c);
  }
  ASSERT_GE(lines.size(), 3u);
  for (const std::string& c : lines) {
    CommandResult r = Sh("cd " + ShellQuote(src) + " && " + ShellQuote(MrBin()) + c.substr(2) + " >/dev/null");
    EXPECT_EQ(r.exit_code, 0) << c << "\n" << r.err;
  }
}

}  // namespace
}  // namespace mr
