// The seal of a job (master/job_seal.h) stores the ARIA profile the trace's writer folded
// (model/makespan/profile_fold.h), and it is the profile parsed from the job's trace file:
// for a job with a failed map attempt written through the trace queue's writer thread, and
// for a job resumed by a restarted master (its fold missed the events before the restart,
// so the seal parses the file). _trace.jsonl is a byte-exact copy of the trace.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "master/state_store.h"
#include "master/trace_queue.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/profile_extract.h"
#include "scheduler/scheduler.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::TrackerHarness;

std::unique_ptr<StateStore> MustOpen(const std::string& db) {
  auto store = StateStore::Open(db);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

// The stored profile of `name` and the one parsed from the job's trace, as JSON.
void ExpectStoredIsParsed(const std::string& db, const std::string& name, const std::string& trace_path) {
  auto store = StateStore::OpenReadOnly(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto runs = (*store)->AriaProfiles(name);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u) << "the seal stored a profile";
  Result<model::JobProfile> parsed = model::ExtractProfileFromFile(trace_path);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  parsed->name = name;
  EXPECT_EQ((*runs)[0].second, model::ProfileToJson(*parsed));
}

TEST(SealFoldTest, TheFoldedProfileIsTheParsedOneAndTheCopyIsExact) {
  TempDir dir("seal-fold");
  const std::string db = JoinPath(dir.path(), "db");
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.trace_queue = std::make_shared<TraceQueue>();  // the fold runs on the writer thread
  TrackerHarness h(dir.path(), Fifo(), MustOpen(db), o);
  const uint32_t w = h.AddWorker(2, 1);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/3, /*reduces=*/2);
  spec.set_name("folded");
  const uint64_t job = h.Submit(spec);
  h.Beat(w);
  ASSERT_FALSE(h.worker(w).maps.empty());
  // The first map attempt fails; its task runs again.
  const proto::Assignment failed = h.worker(w).maps[0];
  h.worker(w).maps.erase(h.worker(w).maps.begin());
  h.Beat(w, {TrackerHarness::MapReport(failed, proto::FAILED)});
  for (int i = 0; i < 4 && h.Status(job).maps_done() < 3; ++i) {
    h.FinishMaps(w);
    h.Beat(w);
  }
  h.RunReduces(w);
  proto::JobStatus st = h.Status(job);
  ASSERT_EQ(st.state(), "SUCCEEDED") << st.error();
  o.trace_queue->WaitWritten(o.trace_queue->LastTicket());
  auto trace = ReadFileToString(st.trace_path());
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  EXPECT_NE(trace->find("\"status\":\"failed\""), std::string::npos) << "a failed attempt is traced";
  auto copy = ReadFileToString(JoinPath(spec.output(), "_trace.jsonl"));
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_EQ(*copy, *trace);
  EXPECT_TRUE(PathExists(JoinPath(spec.output(), "_SUCCESS")));
  ExpectStoredIsParsed(db, "folded", st.trace_path());
}

TEST(SealFoldTest, AJobResumedAfterARestartHasItsTraceParsed) {
  TempDir dir("seal-fold");
  const std::string db = JoinPath(dir.path(), "db");
  proto::JobSpec spec;
  uint64_t job = 0;
  std::vector<proto::HeldMapOutput> held;
  uint32_t port = 0;
  {
    TrackerHarness h(dir.path(), Fifo(), MustOpen(db));
    const uint32_t w = h.AddWorker(2, 1);
    port = h.worker(w).registration.shuffle_port();
    spec = h.SyntheticSpec(/*maps=*/2, /*reduces=*/1);
    spec.set_name("resumed");
    job = h.Submit(spec);
    h.Beat(w);
    for (const auto& m : h.worker(w).maps) {
      proto::HeldMapOutput o;
      o.set_job_id(job);
      o.set_map(m.index());
      o.set_attempt(m.attempt());
      held.push_back(o);
    }
    h.FinishMaps(w);  // the maps are done; the master dies before the reduce commits
  }
  TrackerHarness h(dir.path(), Fifo(), MustOpen(db));
  ASSERT_TRUE(h.tracker().Recover().ok());
  // The worker comes back offering both outputs: the maps' only ends are in the part of the
  // trace the first master wrote, which this master's fold could not see.
  const uint32_t w = h.AddWorker(2, 1, 0, held, port);
  h.Beat(w);
  h.RunReduces(w);
  proto::JobStatus st = h.Status(job);
  ASSERT_EQ(st.state(), "SUCCEEDED") << st.error();
  auto trace = ReadFileToString(st.trace_path());
  ASSERT_TRUE(trace.ok());
  EXPECT_NE(trace->find("\"event\":\"master_restart\""), std::string::npos);
  EXPECT_NE(trace->find("\"event\":\"job_submit\""), std::string::npos) << "written by the first master";
  ExpectStoredIsParsed(db, "resumed", st.trace_path());
}

}  // namespace
}  // namespace mr::master
