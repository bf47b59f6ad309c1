// The ARIA profile folded event by event as the master writes a trace
// (model/makespan/profile_fold.h) is the one model::ExtractProfile measures from the trace
// file: on recorded traces, on a hand-made job with failed, killed and lost attempts, a
// backup, a repeated end and a master restart mid-job, and on many random jobs (the same
// profile, or the same error when there is none).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/profile_extract.h"
#include "model/makespan/profile_fold.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace mr::model {
namespace {

std::string Fold(const std::vector<trace::Event>& events, Status* error = nullptr) {
  ProfileFold fold;
  for (const trace::Event& e : events) fold.Add(e);
  EXPECT_EQ(fold.events(), events.size());
  Result<JobProfile> p = fold.Profile();
  if (!p.ok()) {
    if (error != nullptr) *error = p.status();
    return "";
  }
  return ProfileToJson(*p);
}

// The parse the seal did before the fold: the events written as JSON lines, read back.
Result<JobProfile> ParseFile(const std::vector<trace::Event>& events, const std::string& path) {
  std::string text;
  for (const trace::Event& e : events) text += trace::EventJson(e) + "\n";
  MR_RETURN_IF_ERROR(WriteStringToFile(path, text));
  return ExtractProfileFromFile(path);
}

TEST(ProfileFoldTest, RecordedTracesFoldToTheParsedProfile) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "run under ctest (it sets MR_SOURCE_DIR)";
  int profiles = 0;
  for (const char* path : {"tests/trace/data/run/job-000001.jsonl", "tests/trace/data/run/job-000002.jsonl",
                                  "tests/trace/data/run/job-000003.jsonl", "tests/web/data/wordcount_3workers.jsonl"}) {
    const std::string full = JoinPath(src, path);
    Result<std::vector<trace::Event>> events = trace::ReadTraceFile(full);
    ASSERT_TRUE(events.ok()) << events.status().ToString();
    Result<JobProfile> parsed = ExtractProfileFromFile(full);
    Status error;
    const std::string folded = Fold(*events, &error);
    if (parsed.ok()) {
      EXPECT_EQ(folded, ProfileToJson(*parsed)) << path;
      profiles++;
    } else {
      EXPECT_EQ(error.ToString(), ExtractProfile(*events).status().ToString()) << path;
      EXPECT_EQ(error.code(), parsed.status().code()) << path;
    }
  }
  EXPECT_GE(profiles, 3) << "the recorded succeeded jobs gave profiles";
}

// A job of 3 maps and 2 reduces through every kind of attempt end, and a master restart.
std::vector<trace::Event> HandMadeJob() {
  using namespace trace;
  const std::string j = "job-000007";
  auto start = [&](double t, const char* task, int64_t attempt) {
    return AttemptStart{.t = t, .job = j, .task = task, .attempt = attempt, .worker = 1};
  };
  auto end = [&](double t, const char* task, int64_t attempt, double s, const char* status, uint64_t in = 0,
                 uint64_t out = 0) {
    return AttemptEnd{.t = t, .job = j, .task = task, .attempt = attempt, .worker = 1, .start = s,
                      .bytes_in = in, .bytes_out = out, .status = status, .error = "e",
                      .counters = Counters{{"spills", 3}}};
  };
  auto fetch = [&](double t, const char* task, const char* status) {
    return FetchEnd{.t = t, .job = j, .task = task, .map = "m-00000", .status = status};
  };
  return {JobSubmit{.t = 0, .job = j, .name = "hand", .kind = "wordcount", .maps = 3, .reduces = 2},
          start(0.1, "m-00000", 1), start(0.1, "m-00001", 1), start(0.2, "m-00002", 1),
          end(1.0, "m-00000", 1, 0.1, "failed"),  // failed, re-run
          start(1.1, "m-00000", 2),
          end(2.0, "m-00001", 1, 0.1, "ok", 100, 40),
          start(2.1, "m-00002", 2),                 // a backup of map 2
          end(2.5, "m-00002", 2, 2.1, "ok", 90, 30),
          end(2.6, "m-00002", 1, 0.2, "killed"),    // the original, killed
          fetch(2.7, "r-00000", "ok"), fetch(2.8, "r-00001", "failed"),
          MasterRestart{.t = 3.0, .job = j, .reduces_committed = 0, .maps_awaiting = 2},
          end(3.0, "m-00000", 2, 1.1, "lost"),      // what the old master waited for
          start(3.5, "m-00000", 3),
          end(4.0, "m-00000", 3, 3.5, "ok", 110, 50),
          end(4.0, "m-00000", 3, 3.5, "ok", 110, 50),  // a repeated end
          fetch(4.2, "r-00000", "ok"), fetch(4.4, "r-00001", "ok"), fetch(4.1, "m-00001", "ok"),
          start(4.5, "r-00000", 1), start(4.5, "r-00001", 1),
          end(5.0, "r-00001", 1, 4.5, "ok", 80, 8),
          end(5.5, "r-00000", 1, 4.5, "failed"),
          start(5.6, "r-00000", 2),
          end(6.5, "r-00000", 2, 5.6, "ok", 80, 9),
          JobEnd{.t = 6.6, .job = j, .status = "ok"}};
}

TEST(ProfileFoldTest, FailedKilledLostAttemptsAndARestartFoldToTheParsedProfile) {
  TempDir dir("profile-fold");
  const std::vector<trace::Event> events = HandMadeJob();
  Result<JobProfile> parsed = ParseFile(events, JoinPath(dir.path(), "trace.jsonl"));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(Fold(events), ProfileToJson(*parsed));
  // The rules the fold must keep: map 0's duration is its last successful attempt's (0.5 s),
  // a reduce that started after the first reduce ended is a later wave.
  EXPECT_EQ(parsed->maps, 3);
  EXPECT_DOUBLE_EQ(parsed->map.max, 1.9);  // map 1: 2.0 - 0.1
  EXPECT_EQ(parsed->input_bytes, 300u);
  EXPECT_EQ(parsed->output_bytes, 17u);
  EXPECT_DOUBLE_EQ(parsed->measured_map_stage, 4.0 - 0.1);
}

TEST(ProfileFoldTest, AnUnfinishedOrFailedJobIsTheSameErrorBothWays) {
  std::vector<trace::Event> events = HandMadeJob();
  events.pop_back();  // no job_end
  Status error;
  EXPECT_EQ(Fold(events, &error), "");
  EXPECT_EQ(error.ToString(), ExtractProfile(events).status().ToString());
  events.push_back(trace::JobEnd{.t = 7, .job = "job-000007", .status = "failed"});
  EXPECT_EQ(Fold(events, &error), "");
  EXPECT_EQ(error.ToString(), ExtractProfile(events).status().ToString());
  EXPECT_NE(error.ToString().find("failed"), std::string::npos) << error.ToString();
}

// A random job: tasks with 1-3 attempts ending ok, failed, killed or lost in any order,
// sometimes no successful one, fetches of every status, restarts, a job_submit that may not
// declare the counts, a job_end that may be missing or not ok.
std::vector<trace::Event> RandomJob(std::mt19937& rng) {
  using namespace trace;
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto time = [&] { return static_cast<double>(pick(100000)) / 1000.0; };
  const std::string j = "job-" + std::to_string(pick(9) + 1);
  const int maps = pick(6) + 1, reduces = pick(4);
  std::vector<Event> events;
  JobSubmit submit{.t = 0, .job = j, .name = "r", .kind = "sort"};
  if (pick(4) != 0) {
    submit.maps = maps;
    submit.reduces = reduces;
  }
  events.push_back(submit);
  const char* statuses[] = {"ok", "failed", "killed", "lost"};
  std::vector<std::pair<std::string, int64_t>> open;
  for (int n = 0; n < (maps + reduces) * 4; ++n) {
    const int what = pick(10);
    char task[16];
    const bool map = pick(3) != 0 || reduces == 0;
    std::snprintf(task, sizeof task, "%c-%05d", map ? 'm' : 'r', map ? pick(maps) : pick(reduces));
    if (what < 3) {
      const int64_t attempt = pick(3) + 1;
      events.push_back(AttemptStart{.t = time(), .job = j, .task = task, .attempt = attempt});
      open.emplace_back(task, attempt);
    } else if (what < 7 && !open.empty()) {
      auto [t, a] = open[pick(static_cast<int>(open.size()))];
      const double s = time();
      events.push_back(AttemptEnd{.t = s + time(), .job = j, .task = t, .attempt = a, .start = s,
                                  .bytes_in = static_cast<uint64_t>(pick(1000)),
                                  .bytes_out = static_cast<uint64_t>(pick(1000)),
                                  .status = statuses[pick(4) == 0 ? pick(4) : 0]});
    } else if (what < 9) {
      events.push_back(FetchEnd{.t = time(), .job = j, .task = task, .status = pick(3) ? "ok" : "failed"});
    } else {
      events.push_back(MasterRestart{.t = time(), .job = j});
    }
  }
  // Most jobs end with every task done once more, so that most have a profile.
  if (pick(5) != 0) {
    for (int i = 0; i < maps + reduces; ++i) {
      char task[16];
      std::snprintf(task, sizeof task, "%c-%05d", i < maps ? 'm' : 'r', i < maps ? i : i - maps);
      const double s = 100 + time();
      events.push_back(AttemptEnd{.t = s + time(), .job = j, .task = task, .attempt = 9, .start = s,
                                  .bytes_in = 1, .bytes_out = 2, .status = "ok"});
    }
  }
  const int end = pick(6);
  if (end != 0) events.push_back(JobEnd{.t = 300, .job = j, .status = end == 1 ? "failed" : "ok"});
  return events;
}

TEST(ProfileFoldTest, RandomJobsFoldToTheParsedProfileOrTheSameError) {
  TempDir dir("profile-fold");
  std::mt19937 rng(29);
  int profiles = 0, errors = 0;
  for (int i = 0; i < 400; ++i) {
    const std::vector<trace::Event> events = RandomJob(rng);
    Result<JobProfile> direct = ExtractProfile(events);
    Status error;
    const std::string folded = Fold(events, &error);
    if (direct.ok()) {
      profiles++;
      ASSERT_EQ(folded, ProfileToJson(*direct)) << "job " << i;
      Result<JobProfile> parsed = ParseFile(events, JoinPath(dir.path(), "trace.jsonl"));
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      ASSERT_EQ(folded, ProfileToJson(*parsed)) << "job " << i << ": through the file";
    } else {
      errors++;
      ASSERT_EQ(error.ToString(), direct.status().ToString()) << "job " << i;
    }
  }
  EXPECT_GT(profiles, 100);
  EXPECT_GT(errors, 50);
}

}  // namespace
}  // namespace mr::model
