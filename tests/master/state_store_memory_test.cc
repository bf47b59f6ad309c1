// StateStore's in-memory medium (`mr master --state-in-memory`, what `mr run`'s embedded
// cluster uses): it keeps jobs while the store lives, writes nothing under its directory,
// and leaves nothing for a later store to recover; the disk medium does both.
#include <gtest/gtest.h>

#include <string>

#include "common/file_util.h"
#include "master/state_store.h"

namespace mr::master {
namespace {

proto::StoredJob Job(uint64_t id) {
  proto::StoredJob job;
  job.set_job_id(id);
  job.set_num_maps(2);
  job.set_state("RUNNING");
  return job;
}

TEST(StateStoreMemoryTest, KeepsJobsWhileOpenWritesNothingRecoversNothing) {
  TempDir dir("store-mem");
  const std::string db = JoinPath(dir.path(), "db");
  {
    auto store = StateStore::Open(db, StateStore::Medium::kMemory);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    ASSERT_TRUE((*store)->PutJob(Job(7), true).ok());
    proto::StoredTask task;
    task.set_next_attempt(3);
    ASSERT_TRUE((*store)->PutTask(7, false, 1, task, true).ok());
    auto jobs = (*store)->LoadJobs();
    ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
    ASSERT_EQ(jobs->size(), 1u);
    EXPECT_EQ((*jobs)[0].job.job_id(), 7u);
    EXPECT_EQ((*jobs)[0].maps[1].next_attempt(), 3u);
    EXPECT_FALSE(PathExists(db));  // not one file, so not one fsync
  }
  auto again = StateStore::Open(db, StateStore::Medium::kMemory);
  ASSERT_TRUE(again.ok());
  auto jobs = (*again)->LoadJobs();
  ASSERT_TRUE(jobs.ok());
  EXPECT_TRUE(jobs->empty());
}

TEST(StateStoreMemoryTest, DiskMediumRecoversWhatItKept) {
  TempDir dir("store-disk");
  const std::string db = JoinPath(dir.path(), "db");
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    ASSERT_TRUE((*store)->PutJob(Job(9), true).ok());
  }
  EXPECT_TRUE(PathExists(db));
  auto again = StateStore::Open(db);
  ASSERT_TRUE(again.ok());
  auto jobs = (*again)->LoadJobs();
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].job.job_id(), 9u);
}

}  // namespace
}  // namespace mr::master
