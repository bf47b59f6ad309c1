// `mr help`, and `mr cluster start|stop` as a user drives them: the options passed on to the
// daemons, and a stop that really stops every process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <regex>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

TEST(HelpTest, ListsEverySubcommand) {
  auto r = Sh(MrBin() + " help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* sub : {"run", "submit", "status", "master", "worker", "cluster", "model", "trace", "help"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + sub + " "), std::string::npos) << sub << " missing from:\n" << r.out;
  }
}

TEST(HelpTest, SubcommandHelpShowsItsOptions) {
  for (const std::string cmd : {" help run", " run --help"}) {
    auto r = Sh(MrBin() + cmd);
    ASSERT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    EXPECT_NE(r.out.find("usage: mr run"), std::string::npos) << r.out;
    for (const char* opt : {"--input", "--output", "--reducers", "--master", "--policy", "--pools", "--workers"}) {
      EXPECT_NE(r.out.find(opt), std::string::npos) << cmd << " lacks " << opt;
    }
  }
  auto c = Sh(MrBin() + " help cluster");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  for (const char* opt : {"--workers", "--dir", "--speed", "--fetch-threads", "--sort-buffer", "--pools", "--klps-k",
                          "--history-jobs", "--history-age", "--max-attempts", "--http"}) {
    EXPECT_NE(c.out.find(opt), std::string::npos) << "mr help cluster lacks " << opt;
  }
  auto bad = Sh(MrBin() + " help nosuch");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown command 'nosuch'"), std::string::npos) << bad.err;
}

// `cluster start` passes the master's and the workers' own options on, unchanged (a file
// path made absolute), and leaves the defaults to the daemons; `cluster stop` ends them all.
TEST(ClusterCommandTest, StartPassesOptionsOnAndStopEndsEveryProcess) {
  TempDir tmp("mr-cluster-cmd");
  std::string dir = tmp.path() + "/c";
  ASSERT_TRUE(WriteStringToFile(tmp.path() + "/pools.txt", "pool prod min_maps=1\n").ok());
  auto start = Sh("cd " + ShellQuote(tmp.path()) + " && " + MrBin() + " cluster start --workers 2 --dir " +
                  ShellQuote(dir) +
                  " --policy fair --pools pools.txt --klps-k 7 --history-jobs 5 --max-attempts 2 --worker-timeout 2.5"
                  " --speed 2.5 --fetch-threads 3 --sort-buffer 1MiB --map-slots 2 --master-timeout 40");
  ASSERT_EQ(start.exit_code, 0) << start.err;
  struct StopOnExit {  // an ASSERT below must not leave the cluster running
    std::string dir;
    ~StopOnExit() { Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir)); }
  } guard{dir};
  int master = ReadPidFile(dir + "/master.pid");
  std::vector<int> workers = {ReadPidFile(dir + "/worker-1.pid"), ReadPidFile(dir + "/worker-2.pid")};
  ASSERT_TRUE(ProcessRunning(master));
  auto margs = ProcessArgs(master);
  EXPECT_TRUE(HasArgs(margs, "--policy", "fair")) << Joined(margs);
  EXPECT_TRUE(HasArgs(margs, "--pools", tmp.path() + "/pools.txt")) << Joined(margs);
  EXPECT_TRUE(HasArgs(margs, "--klps-k", "7")) << Joined(margs);
  EXPECT_TRUE(HasArgs(margs, "--history-jobs", "5")) << Joined(margs);
  EXPECT_TRUE(HasArgs(margs, "--max-attempts", "2")) << Joined(margs);
  EXPECT_TRUE(HasArgs(margs, "--worker-timeout", "2.5")) << Joined(margs);
  EXPECT_EQ(std::count(margs.begin(), margs.end(), "--heartbeat-ms"), 0) << "a default was passed on";
  for (int w : workers) {
    ASSERT_TRUE(ProcessRunning(w));
    // `cluster start` returns once the workers are forked; until one has exec'd, its
    // arguments are still those of `cluster start`.
    std::vector<std::string> wargs;
    WaitUntil([&] {
      wargs = ProcessArgs(w);
      return wargs.size() >= 2 && wargs[1] == "worker";
    }, 5);
    ASSERT_GE(wargs.size(), 2u);
    ASSERT_EQ(wargs[1], "worker") << Joined(wargs);
    EXPECT_TRUE(HasArgs(wargs, "--speed", "2.5")) << Joined(wargs);
    EXPECT_TRUE(HasArgs(wargs, "--fetch-threads", "3")) << Joined(wargs);
    EXPECT_TRUE(HasArgs(wargs, "--sort-buffer", "1MiB")) << Joined(wargs);
    EXPECT_TRUE(HasArgs(wargs, "--map-slots", "2")) << Joined(wargs);
    EXPECT_TRUE(HasArgs(wargs, "--master-timeout", "40")) << Joined(wargs);
    EXPECT_EQ(std::count(wargs.begin(), wargs.end(), "--policy"), 0) << "a master option reached a worker";
  }
  // All daemons share one new session (one scheduling autogroup, so nice values weigh
  // every thread of the cluster against the others), not the caller's.
  const pid_t session = getsid(master);
  EXPECT_GT(session, 0);
  EXPECT_NE(session, getsid(0)) << "the daemons would die with the caller's terminal";
  for (int w : workers) EXPECT_EQ(getsid(w), session) << "worker " << w << " in a session of its own";
  // The worker's threads are named for `top -H`: its shuffle server's accept thread at least.
  bool named = WaitUntil([&] {
    auto tasks = ListDir("/proc/" + std::to_string(workers[0]) + "/task");
    if (!tasks.ok()) return false;
    for (const auto& t : *tasks) {
      if (ReadFile("/proc/" + std::to_string(workers[0]) + "/task/" + t + "/comm") == "mr-shuf-accept\n") return true;
    }
    return false;
  }, 5);
  EXPECT_TRUE(named) << "no thread of worker " << workers[0] << " is called mr-shuf-accept";
  // The master runs the policy it was given.
  std::string addr = ReadFile(dir + "/master.addr");
  addr.erase(addr.find_last_not_of(" \n") + 1);
  auto st = Sh(MrBin() + " status --json --master " + addr);
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_EQ(nlohmann::json::parse(st.out).at("policy"), "fair");

  // stop refuses start's options rather than ignoring them, and stops nothing then.
  auto misuse = Sh(MrBin() + " cluster stop --workers 2 --dir " + ShellQuote(dir));
  EXPECT_EQ(misuse.exit_code, 2);
  EXPECT_NE(misuse.err.find("--workers"), std::string::npos) << misuse.err;
  EXPECT_TRUE(ProcessRunning(master));

  auto stop = Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_NE(stop.err.find("stopped the cluster in " + dir), std::string::npos) << stop.err;
  EXPECT_FALSE(ProcessRunning(master));
  for (int w : workers) EXPECT_FALSE(ProcessRunning(w)) << "worker " << w << " still runs";
  EXPECT_TRUE(ProcessesMentioning(dir).empty());
  for (const char* f : {"master.pid", "worker-1.pid", "worker-2.pid", "master.addr"}) {
    EXPECT_FALSE(PathExists(dir + "/" + f)) << f << " left behind";
  }

  // Nothing left to stop: a clear error, not a silent success.
  auto again = Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir));
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("no cluster"), std::string::npos) << again.err;
  EXPECT_EQ(std::count(again.err.begin(), again.err.end(), '\n'), 1) << again.err;
  auto nowhere = Sh(MrBin() + " cluster stop --dir " + ShellQuote(tmp.path() + "/never"));
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.err.find("no cluster in " + tmp.path() + "/never"), std::string::npos) << nowhere.err;
}

// `cluster start --http` prints the page's address; a start that fails (the page's port
// taken) names the cause first and leaves nothing behind: no directory it created, and in
// one that existed nothing it added.
TEST(ClusterCommandTest, StartPrintsThePageAndAFailedStartCleansUp) {
  TempDir tmp("mr-cluster-http");
  const std::string a = tmp.path() + "/a", b = tmp.path() + "/b", c = tmp.path() + "/c";
  auto start = Sh(MrBin() + " cluster start --workers 1 --http 127.0.0.1:0 --dir " + ShellQuote(a));
  ASSERT_EQ(start.exit_code, 0) << start.err;
  struct StopOnExit {
    std::string dir;
    ~StopOnExit() { Sh(MrBin() + " cluster stop --dir " + ShellQuote(dir)); }
  } guard{a};
  std::smatch m;
  ASSERT_TRUE(std::regex_search(start.err, m, std::regex("status page: http://(127\\.0\\.0\\.1:[0-9]+)/")))
      << start.err;
  const std::string page = m[1];
  EXPECT_NE(page, "127.0.0.1:0");
  // The page's port is the one bound (it was asked for port 0): something listens there.
  bool connected = false;
  const int fd = ConnectLoopback(static_cast<uint16_t>(std::stoi(page.substr(page.find(':') + 1))), &connected);
  if (fd >= 0) close(fd);
  EXPECT_TRUE(connected) << page;

  auto taken = Sh(MrBin() + " cluster start --workers 1 --http " + page + " --dir " + ShellQuote(b));
  EXPECT_EQ(taken.exit_code, 2);
  EXPECT_EQ(taken.err.rfind("mr: cluster: cannot start the cluster: the master exited at start: cannot listen on http", 0), 0u)
      << taken.err;
  EXPECT_FALSE(PathExists(b)) << "the failed start left its directory behind";
  ASSERT_TRUE(MakeDirs(c).ok());
  ASSERT_TRUE(WriteStringToFile(c + "/mine.txt", "keep\n").ok());
  EXPECT_EQ(Sh(MrBin() + " cluster start --workers 1 --http " + page + " --dir " + ShellQuote(c)).exit_code, 2);
  auto left = ListDir(c);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(*left, std::vector<std::string>{"mine.txt"});
}

// `mr cluster start` leaves ./mr-cluster/master.addr: submit, status and kill run in that
// directory find the master without --master or $MR_MASTER (before, all three failed with
// "no master"); elsewhere the error names the three ways. `status JOB --watch` returns
// once the job has ended; --state and --limit pick the rows.
TEST(ClusterCommandTest, ClientsFindTheClusterStartedInTheirDirectory) {
  TempDir tmp("mr-cluster-clients-test");
  const std::string here = "cd " + ShellQuote(tmp.path()) + " && env -u MR_MASTER " + MrBin();
  auto start = Sh(here + " cluster start --workers 1");
  ASSERT_EQ(start.exit_code, 0) << start.err;
  struct StopOnExit {
    std::string line;
    ~StopOnExit() { Sh(line + " cluster stop"); }
  } stop_on_exit{here};
  ASSERT_TRUE(WriteStringToFile(tmp.path() + "/in.txt", "a b\nb\n").ok());
  for (const char* out : {"out1", "out2"}) {
    auto submit = Sh(here + " submit wordcount --input in.txt --output " + out);
    ASSERT_EQ(submit.exit_code, 0) << submit.err;
  }
  auto watch = Sh(here + " status job-000002 --watch --interval 0.1");
  EXPECT_EQ(watch.exit_code, 0) << watch.err;
  EXPECT_NE(watch.out.find("job-000002 SUCCEEDED"), std::string::npos) << watch.out;
  ASSERT_TRUE(WaitUntil([&] { return Sh(here + " status --state running").out.find("job-00000") == std::string::npos; },
                        30, 0.1));
  auto ended = Sh(here + " status --state ended --limit 1");
  EXPECT_EQ(ended.exit_code, 0) << ended.err;
  EXPECT_NE(ended.out.find("\njob-000002 "), std::string::npos) << ended.out;
  EXPECT_EQ(ended.out.find("\njob-000001 "), std::string::npos) << ended.out;
  EXPECT_NE(ended.out.find("(1 more job not shown"), std::string::npos) << ended.out;
  // A one-reducer run names its one part (before: "part-r-00000 .. part-r-00000"); mr cat
  // prints the parts in order.
  auto run = Sh(here + " run wordcount --input in.txt --output out3 --reducers 1 --master $(cat mr-cluster/master.addr)");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(": 1 map, 1 reduce\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("output: " + tmp.path() + "/out3/part-r-00000 (mr cat " + tmp.path() + "/out3)\n"),
            std::string::npos)
      << run.out;
  auto cat = Sh(here + " cat out3");
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "a\t1\nb\t2\n");
  auto cat2 = Sh(here + " cat out2");
  EXPECT_EQ(cat2.exit_code, 0) << cat2.err;
  EXPECT_EQ(cat2.out, cat.out);
  auto nothing = Sh(here + " cat in.txt");
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("no output directory"), std::string::npos) << nothing.err;
  auto kill = Sh(here + " kill job-000001");
  EXPECT_EQ(kill.exit_code, 2) << kill.err;  // found the master; the job has ended
  EXPECT_EQ(kill.err.find("no master"), std::string::npos) << kill.err;
  auto elsewhere = Sh("cd / && env -u MR_MASTER " + MrBin() + " status");
  EXPECT_EQ(elsewhere.exit_code, 2) << elsewhere.err;
  EXPECT_NE(elsewhere.err.find("--master HOST:PORT, set MR_MASTER, or run where `mr cluster start` left "
                               "mr-cluster/master.addr"),
            std::string::npos)
      << elsewhere.err;
}

// `mr cluster start` again in a directory with an earlier cluster's state asks which is
// meant (before: it recovered the earlier jobs silently, ids went on, workers renumbered):
// --fresh moves the old directory aside and starts empty, --resume recovers as before.
TEST(ClusterCommandTest, StartingAgainAsksForResumeOrFresh) {
  TempDir tmp("mr-cluster-again-test");
  const std::string here = "cd " + ShellQuote(tmp.path()) + " && env -u MR_MASTER " + MrBin();
  struct StopOnExit {
    std::string line;
    ~StopOnExit() { Sh(line + " cluster stop"); }
  } stop_on_exit{here};
  ASSERT_TRUE(WriteStringToFile(tmp.path() + "/in.txt", "a b\n").ok());
  ASSERT_EQ(Sh(here + " cluster start --workers 1").exit_code, 0);
  auto run = Sh(here + " run wordcount --input in.txt --output out1 --master $(cat mr-cluster/master.addr)");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(Sh(here + " cluster stop").exit_code, 0);

  auto again = Sh(here + " cluster start --workers 1");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(std::count(again.err.begin(), again.err.end(), '\n'), 1) << again.err;
  EXPECT_NE(again.err.find("holds an earlier cluster's state: --resume"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("--fresh"), std::string::npos) << again.err;
  EXPECT_FALSE(PathExists(tmp.path() + "/mr-cluster/master.pid"));
  EXPECT_EQ(Sh(here + " cluster start --workers 1 --resume --fresh").exit_code, 2);

  auto fresh = Sh(here + " cluster start --workers 1 --fresh");
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_NE(fresh.err.find("to " + tmp.path() + "/mr-cluster.old-1"), std::string::npos) << fresh.err;
  EXPECT_TRUE(PathExists(tmp.path() + "/mr-cluster.old-1/master.log"));
  auto empty = Sh(here + " status --json");
  ASSERT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_TRUE(nlohmann::json::parse(empty.out).at("jobs").empty()) << empty.out;
  auto submit = Sh(here + " submit wordcount --input in.txt --output out2");
  EXPECT_EQ(submit.out, "job-000001\n") << submit.err;
  ASSERT_EQ(Sh(here + " cluster stop").exit_code, 0);

  auto resume = Sh(here + " cluster start --workers 1 --resume");
  ASSERT_EQ(resume.exit_code, 0) << resume.err;
  auto st = Sh(here + " status --json");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  const auto jobs = nlohmann::json::parse(st.out).at("jobs");
  ASSERT_EQ(jobs.size(), 1u) << st.out;
  EXPECT_EQ(jobs[0].at("output"), tmp.path() + "/out2");
}

}  // namespace
}  // namespace mr::testing
