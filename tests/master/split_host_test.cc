// A split names the host that holds its bytes (jobs::Split::host, from InputFile::host): it
// travels from the master's InputSource through the job's splits, the map assignment and the
// store (a restarted master assigns it again) to the worker's MapTaskSpec, whose map then
// reads the split through the worker's source; and placement reads it: a heartbeating worker
// is given a map whose split is on its own host before one that is not.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "common/file_util.h"
#include "jobs/fake_input_source.h"
#include "tracker_harness.h"
#include "worker/attempt_runner.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::TrackerHarness;

// path -> host of every map assignment w was given (and forgets them).
std::map<std::string, std::string> AssignedHosts(TrackerHarness& h, uint32_t w) {
  std::map<std::string, std::string> hosts;
  for (const proto::Assignment& a : h.worker(w).maps) hosts[a.split().path()] = a.split().host();
  h.worker(w).maps.clear();
  return hosts;
}

TEST(SplitHostTest, TheSourcesHostReachesTheWorkersMapSpecAndSurvivesARestart) {
  TempDir dir("mr-split-host");
  jobs::FakeInputSource fake;
  fake.AddFile("/mrlab-fake/logs/a", "alpha beta\ngamma\n", "laptop-a");
  fake.AddFile("/mrlab-fake/logs/b", "delta\n", "laptop-b");
  fake.AddFile("/mrlab-fake/logs/c", "epsilon\n");
  TrackerOptions options = TrackerHarness::DefaultOptions();
  options.input_source = &fake;
  proto::JobSpec spec;
  spec.set_job("wordcount");
  spec.add_inputs("/mrlab-fake/logs");
  spec.set_reducers(1);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(1);
  spec.set_output(JoinPath(dir.path(), "out"));
  const std::map<std::string, std::string> want = {
      {"/mrlab-fake/logs/a", "laptop-a"}, {"/mrlab-fake/logs/b", "laptop-b"}, {"/mrlab-fake/logs/c", ""}};
  const std::string db = JoinPath(dir.path(), "db");
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value(), options);
    const uint32_t w = h.AddWorker(3, 1);
    h.Submit(spec);
    h.Beat(w);
    ASSERT_EQ(h.worker(w).maps.size(), 3u);
    auto job = jobs::CreateJob("wordcount", {});
    ASSERT_TRUE(job.ok());
    worker::AttemptContext ctx;
    ctx.work_dir = JoinPath(dir.path(), "worker");
    ctx.input_source = &fake;
    for (const proto::Assignment& a : h.worker(w).maps) {
      SCOPED_TRACE(a.split().path());
      worker::MapTaskSpec ms = worker::MakeMapTaskSpec(a, ctx, **job);
      EXPECT_EQ(ms.split.host, want.at(ms.split.path));
      EXPECT_EQ(ms.split.length, a.split().length());
      EXPECT_EQ(ms.input_source, &fake);
      const int reads = fake.reads();
      auto r = worker::RunMapTask(ms, nullptr);  // the split's bytes come from the fake
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(r->counters.bytes_in, a.split().length());
      EXPECT_EQ(fake.reads(), reads + 1);
    }
    EXPECT_EQ(AssignedHosts(h, w), want);
  }
  // The store kept the splits, hosts included: the restarted master assigns them again.
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value(), options);
  ASSERT_TRUE(h.tracker().Recover().ok());
  const uint32_t w = h.AddWorker(3, 1);
  h.Beat(w);
  EXPECT_EQ(AssignedHosts(h, w), want);
}

// Hadoop's node-local first, through the live tracker: the harness's workers register as
// 127.0.0.1; the first pending split is on another host, the second on the worker's own, and
// the worker's one free slot gets the second.
TEST(SplitHostTest, AHeartbeatingWorkerGetsTheMapWhoseSplitIsOnItsHost) {
  TempDir dir("mr-split-local");
  jobs::FakeInputSource fake;
  fake.AddFile("/mrlab-fake/logs/a", "alpha beta\n", "laptop-b:7072");
  fake.AddFile("/mrlab-fake/logs/b", "gamma\n", "127.0.0.1:7072");
  TrackerOptions options = TrackerHarness::DefaultOptions();
  options.input_source = &fake;
  TrackerHarness h(dir.path(), Fifo(), nullptr, options);
  proto::JobSpec spec;
  spec.set_job("wordcount");
  spec.add_inputs("/mrlab-fake/logs");
  spec.set_reducers(1);
  spec.set_split_bytes(1 << 20);
  spec.set_slow_start(1);
  spec.set_output(JoinPath(dir.path(), "out"));
  const uint32_t w = h.AddWorker(1, 1);
  h.Submit(spec);
  h.Beat(w);
  ASSERT_EQ(h.worker(w).maps.size(), 1u);
  EXPECT_EQ(h.worker(w).maps[0].split().path(), "/mrlab-fake/logs/b");
}

}  // namespace
}  // namespace mr::master
