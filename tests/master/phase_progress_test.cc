// JobRecord::Progress: progress by bytes per phase, the numbers every view shows.
#include <gtest/gtest.h>

#include "master/job.h"

namespace mr::master {
namespace {

// 4 maps over splits of 100, 100, 100 and 700 bytes, 2 reduces.
JobRecord FourMaps() {
  JobRecord job;
  for (uint64_t len : {100, 100, 100, 700}) {
    MapTask m;
    m.split.length = len;
    job.maps.push_back(m);
    job.input_bytes += len;
  }
  job.reduces.resize(2);
  return job;
}

TEST(PhaseProgressTest, MapsCountTheirSplitsBytes) {
  JobRecord job = FourMaps();
  job.maps[0].state = MapTask::State::kDone;
  job.maps_done = 1;
  job.maps[3].state = MapTask::State::kRunning;
  job.maps[3].progress = 0.5;
  PhaseProgress p = job.Progress();
  EXPECT_EQ(p.input_bytes, 1000u);
  EXPECT_DOUBLE_EQ(p.input_bytes_read, 100 + 350);
  EXPECT_DOUBLE_EQ(p.map, 0.45);
  // A backup that is further along counts instead of its original.
  job.maps[3].backup = MapTask::Backup{};
  job.maps[3].backup->progress = 0.9;
  EXPECT_DOUBLE_EQ(job.Progress().input_bytes_read, 100 + 630);
}

TEST(PhaseProgressTest, TheShuffleIsNotDoneWhileMapsArePending) {
  // One of four maps done: its 100 input bytes made 40 output bytes, all of them fetched.
  // Expected output is 40 x 1000/100 = 400, so the shuffle is 10% done, not 100%.
  JobRecord job = FourMaps();
  job.maps[0].state = MapTask::State::kDone;
  job.maps_done = 1;
  job.map_input_bytes = 100;
  job.map_output_bytes = 40;
  job.shuffle_bytes_fetched = 40;
  PhaseProgress p = job.Progress();
  EXPECT_DOUBLE_EQ(p.shuffle_bytes_expected, 400);
  EXPECT_DOUBLE_EQ(p.shuffle, 0.1);
  EXPECT_DOUBLE_EQ(p.reduce, 0);
}

TEST(PhaseProgressTest, ReducesCountTheirPartitionsBytes) {
  JobRecord job = FourMaps();
  for (MapTask& m : job.maps) m.state = MapTask::State::kDone;
  job.maps_done = 4;
  job.map_input_bytes = 1000;
  job.map_output_bytes = 300;
  job.shuffle_bytes_fetched = 300;
  job.reduces[0].state = ReduceTask::State::kDone;
  job.reduces[0].shuffle_bytes = 100;
  job.reduces_done = 1;
  job.reduces[1].state = ReduceTask::State::kRunning;
  job.reduces[1].shuffle_bytes = 200;
  job.reduces[1].progress = 0.25;
  PhaseProgress p = job.Progress();
  EXPECT_DOUBLE_EQ(p.map, 1);
  EXPECT_DOUBLE_EQ(p.shuffle, 1);
  EXPECT_DOUBLE_EQ(p.reduce_bytes_merged, 150);
  EXPECT_DOUBLE_EQ(p.reduce, 0.5);
}

TEST(PhaseProgressTest, JobsWithoutInputCountTasks) {
  // A synthetic job: no input bytes, no map output; progress is by tasks.
  JobRecord job;
  job.maps.resize(4);
  job.reduces.resize(1);
  job.maps[0].state = MapTask::State::kDone;
  job.maps_done = 1;
  job.maps[1].state = MapTask::State::kRunning;
  job.maps[1].progress = 0.5;
  PhaseProgress p = job.Progress();
  EXPECT_DOUBLE_EQ(p.map, 1.5 / 4);
  EXPECT_DOUBLE_EQ(p.shuffle, 0);
  for (MapTask& m : job.maps) m.state = MapTask::State::kDone;
  job.maps_done = 4;
  EXPECT_DOUBLE_EQ(job.Progress().shuffle, 1);  // nothing to fetch
  job.state = JobState::kSucceeded;
  p = job.Progress();
  EXPECT_DOUBLE_EQ(p.map + p.shuffle + p.reduce, 3);
}

TEST(PhaseProgressTest, AFailedJobKeepsWhatItReached) {
  JobRecord job = FourMaps();
  job.maps[0].state = MapTask::State::kDone;
  job.maps_done = 1;
  job.state = JobState::kFailed;
  EXPECT_DOUBLE_EQ(job.Progress().map, 0.1);
}

// State and phase kept apart (issue 16: a failed job showed phase "done"): while RUNNING
// the phase lists what is active, overlapping; once ended it is empty for every state.
TEST(JobPhaseTest, RunningJobsListTheirActivePhasesEndedJobsNone) {
  JobRecord job = FourMaps();
  EXPECT_EQ(job.phase(), "map");
  job.maps[0].state = MapTask::State::kDone;
  job.maps_done = 1;
  job.reduces[0].state = ReduceTask::State::kFetching;
  EXPECT_EQ(job.phase(), "map+shuffle");
  job.reduces[1].state = ReduceTask::State::kReady;  // all its data local, waiting for a slot
  EXPECT_EQ(job.phase(), "map+shuffle+reduce");
  for (auto& m : job.maps) m.state = MapTask::State::kDone;
  job.maps_done = 4;
  job.reduces[1].state = ReduceTask::State::kRunning;
  EXPECT_EQ(job.phase(), "shuffle+reduce");
  job.reduces[0].state = ReduceTask::State::kUnplaced;  // maps done, not yet placed: still to fetch
  EXPECT_EQ(job.phase(), "shuffle+reduce");
  for (JobState ended : {JobState::kSucceeded, JobState::kFailed, JobState::kKilled}) {
    job.state = ended;
    EXPECT_EQ(job.phase(), "") << JobStateName(ended);
  }
}

}  // namespace
}  // namespace mr::master
