// ARIA profiles in the master's store (issue 26): StateStore keeps a job name's newest runs,
// a succeeded job's profile is measured from its trace and stored, the profiles survive a
// restart, and `mr profile`'s report reads them read-only beside a running master.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/file_util.h"
#include "master/job_persistence.h"
#include "master/profile_report.h"
#include "master/state_store.h"
#include "model/makespan/aria_profile.h"
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

TEST(AriaProfileStoreTest, NewestRunsFirstBoundedPerName) {
  TempDir dir("aria-store");
  const std::string db = JoinPath(dir.path(), "db");
  {
    auto store = MustOpen(db);
    ASSERT_NE(store, nullptr);
    // Job ids 1..6 of "a", stored out of order, keeping 4; "a/b" and "ab" are other names.
    for (uint64_t id : {3, 1, 6, 2, 5, 4}) {
      ASSERT_TRUE(store->PutAriaProfile("a", id, "run" + std::to_string(id), 4).ok());
    }
    ASSERT_TRUE(store->PutAriaProfile("a/b", 7, "other", 4).ok());
    ASSERT_TRUE(store->PutAriaProfile("ab", 8, "third", 4).ok());
    // Older than the 4 kept: not stored. The same run again: replaced.
    ASSERT_TRUE(store->PutAriaProfile("a", 1, "late", 4).ok());
    ASSERT_TRUE(store->PutAriaProfile("a", 5, "run5 again", 4).ok());
    auto runs = store->AriaProfiles("a");
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 4u);
    EXPECT_EQ((*runs)[0], (std::pair<uint64_t, std::string>{6, "run6"}));
    EXPECT_EQ((*runs)[1], (std::pair<uint64_t, std::string>{5, "run5 again"}));
    EXPECT_EQ((*runs)[3], (std::pair<uint64_t, std::string>{3, "run3"}));
  }
  // After a restart, and read-only beside a writer.
  auto store = MustOpen(db);
  ASSERT_NE(store, nullptr);
  auto reader = StateStore::OpenReadOnly(db);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto names = (*reader)->AriaProfileNames();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::pair<std::string, int>>{{"a", 4}, {"a/b", 1}, {"ab", 1}}));
  auto runs = (*reader)->AriaProfiles("a/b");
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].second, "other");
  EXPECT_TRUE((*reader)->AriaProfiles("zz")->empty());
  EXPECT_EQ(StateStore::OpenReadOnly(JoinPath(dir.path(), "none")).status().code(), StatusCode::kIoError);
}

TEST(AriaProfileStoreTest, ASucceededJobsProfileIsStoredAndSurvivesARestart) {
  TempDir dir("aria-store");
  const std::string db = JoinPath(dir.path(), "db");
  for (int run = 0; run < 2; ++run) {
    TrackerHarness h(dir.path(), Fifo(), MustOpen(db));
    ASSERT_TRUE(h.tracker().Recover().ok());  // a restarted master: job ids go on
    const uint32_t w = h.AddWorker(2, 1);
    proto::JobSpec spec = h.SyntheticSpec(/*maps=*/3, /*reduces=*/2);
    spec.set_name("nightly");
    spec.set_output(JoinPath(dir.path(), "out" + std::to_string(run)));
    const uint64_t job = h.Submit(spec);
    h.Beat(w);
    h.FinishMaps(w);
    h.Beat(w);
    h.FinishMaps(w);
    h.RunReduces(w);
    ASSERT_EQ(h.Status(job).state(), "SUCCEEDED") << h.Status(job).error();
  }
  ProfileReportOptions o;
  o.state_dir = dir.path();
  o.name = "nightly";
  {
    auto store = StateStore::OpenReadOnly(db);
    ASSERT_TRUE(store.ok());
    auto runs = (*store)->AriaProfiles("nightly");
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 2u);  // both runs, the second (a higher job id) first
    EXPECT_GT((*runs)[0].first, (*runs)[1].first);
    Result<model::JobProfile> p = model::ProfileFromJson((*runs)[0].second);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(p->name, "nightly");
    EXPECT_EQ(p->maps, 3);
    EXPECT_EQ(p->reduces, 2);
  }
  std::ostringstream list, show, estimate;
  o.what = ProfileReportOptions::What::kList;
  ASSERT_TRUE(RunProfileReport(o, list).ok());
  EXPECT_NE(list.str().find("nightly                      2"), std::string::npos) << list.str();
  o.what = ProfileReportOptions::What::kShow;
  ASSERT_TRUE(RunProfileReport(o, show).ok());
  EXPECT_NE(show.str().find("# run 2 of 2"), std::string::npos) << show.str();
  EXPECT_NE(show.str().find("tasks            3 maps, 2 reduces"), std::string::npos) << show.str();
  o.what = ProfileReportOptions::What::kEstimate;
  o.map_slots = 2;
  o.reduce_slots = 1;
  ASSERT_TRUE(RunProfileReport(o, estimate).ok());
  EXPECT_NE(estimate.str().find("3 maps, 2 reduces on 2 map and 1 reduce slots"), std::string::npos) << estimate.str();
  o.name = "weekly";
  EXPECT_EQ(RunProfileReport(o, estimate).code(), StatusCode::kNotFound);
  o.name = "nightly";
  o.map_slots = 0;
  EXPECT_EQ(RunProfileReport(o, estimate).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mr::master
