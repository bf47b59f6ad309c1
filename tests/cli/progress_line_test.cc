// `mr run`'s progress line (cli/progress.h) and its rate / time-left estimator
// (cli/progress_estimator.h), fed hand-built statuses at given times.
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "cli/progress.h"
#include "cli/progress_estimator.h"
#include "common/units.h"

namespace mr::cli {
namespace {

constexpr double kMiB = 1024 * 1024;

// A word-count-like job: 300 MiB read, maps done, the shuffle 62.5% of 35 MiB, reduces 12.5%.
proto::JobStatus Shuffling() {
  proto::JobStatus st;
  st.set_job_id(1);
  st.set_state("RUNNING");
  st.set_maps_total(10);
  st.set_maps_done(10);
  st.set_input_bytes(static_cast<uint64_t>(300 * kMiB));
  st.set_input_bytes_read(300 * kMiB);
  st.set_shuffle_bytes_expected(35 * kMiB);
  st.set_shuffle_bytes_fetched(static_cast<uint64_t>(0.625 * 35 * kMiB));
  st.set_map_progress(1);
  st.set_shuffle_progress(0.625);
  st.set_reduce_progress(0.125);
  return st;
}

ProgressExtras Extras() {
  return ProgressExtras{ProgressEstimator::Rate{RatePhase::kShuffle, 41.2 * kMiB}, 12.0, 31.0};
}

TEST(ProgressBarTest, FieldsGiveWayInTheLadderOrder) {
  const proto::JobStatus st = Shuffling();
  const ProgressExtras x = Extras();
  // Each field padded to its widest content in a run: the state to "SUCCEEDED" (9), the
  // moving phase to "fetch 1023.9/1023.9 MiB at 1023.9 MiB/s" (39), "ETA 59:59" (9).
  EXPECT_EQ(ProgressBar(st, x, 200),
            "job-000001  RUNNING    [###########.........]  map 100% shuffle  62% reduce  12%  "
            "fetch 21.9/35.0 MiB at 41.2 MiB/s        ETA 0:12   0:31");
  // Job id, bar and the bytes go; the phases, rate, time left and elapsed time fit in 99.
  EXPECT_EQ(ProgressBar(st, x, 100),
            "RUNNING    map 100% shuffle  62% reduce  12%  fetch 41.2 MiB/s    ETA 0:12   0:31");
  // In 79 the phases shrink before the rate goes.
  EXPECT_EQ(ProgressBar(st, x, 80), "RUNNING    m100% s62% r12%    fetch 41.2 MiB/s    ETA 0:12   0:31");
  EXPECT_EQ(ProgressBar(st, x, 60), "RUNNING    m100% s62% r12%    ETA 0:12   0:31");
  EXPECT_EQ(ProgressBar(st, x, 40), "RUNNING    m100% s62% r12%    ETA 0:12");
  EXPECT_EQ(ProgressBar(st, x, 20), "RUNNING    58%");
  EXPECT_EQ(ProgressBar(st, x, 8), "RUNNING");
  EXPECT_EQ(ProgressBar(st, x, 7), "");
}

// Every field a drawing may hold, in display order, longest form first.
const std::vector<std::vector<std::string>> kForms = {
    {"job-000001"},
    {"RUNNING"},
    {"[###########.........]"},
    {"map 100% shuffle  62% reduce  12%", "m100% s62% r12%", "58%"},
    {"fetch 21.9/35.0 MiB at 41.2 MiB/s", "fetch 41.2 MiB/s"},
    {"ETA 0:12"},
    {"0:31"},
};

// Whether line is whole fields of kForms, in order, joined by two spaces.
bool MadeOfWholeFields(const std::string& line) {
  size_t pos = 0;
  for (const auto& forms : kForms) {
    for (const std::string& f : forms) {
      if (line.compare(pos, f.size(), f) != 0) continue;
      size_t end = pos + f.size();
      if (end == line.size()) return true;
      if (line.compare(end, 2, "  ") == 0) {  // two spaces, and the field's padding
        pos = line.find_first_not_of(' ', end);
        if (pos == std::string::npos) return false;
        break;
      }
    }
  }
  return false;
}

TEST(ProgressBarTest, NeverAsWideAsTheTerminalNorCutMidField) {
  const proto::JobStatus st = Shuffling();
  const ProgressExtras x = Extras();
  size_t previous = 0;
  for (int columns = 1; columns <= 200; ++columns) {
    std::string line = ProgressBar(st, x, columns);
    EXPECT_LT(static_cast<int>(line.size()), std::max(columns, 1)) << columns;
    if (columns >= 8) {
      EXPECT_TRUE(MadeOfWholeFields(line)) << columns << ": " << line;
      EXPECT_NE(line.find("RUNNING"), std::string::npos) << "the state is kept longest";
    }
    EXPECT_GE(line.size(), previous) << "a wider terminal never shows less: " << columns;
    previous = line.size();
  }
}

TEST(ProgressBarTest, BeforeAnEstimateTheBytesShowAndTimeLeftIsDashes) {
  proto::JobStatus st;
  st.set_job_id(3);
  st.set_state("RUNNING");
  st.set_maps_total(4);
  st.set_input_bytes(static_cast<uint64_t>(2 * kMiB));
  st.set_input_bytes_read(0.5 * kMiB);
  st.set_map_progress(0.25);
  EXPECT_EQ(ProgressBar(st, ProgressExtras{std::nullopt, std::nullopt, 0.4}, 200),
            "job-000003  RUNNING    [#...................]  map  25% shuffle   0% reduce   0%  read "
            "0.5/2.0 MiB" + std::string(39 - 16 + 2, ' ') + "ETA --" + std::string(3 + 2, ' ') + "0:00");
}

TEST(ProgressBarTest, AFailedJobIsNeverShownDone) {
  proto::JobStatus st = Shuffling();
  st.set_state("FAILED");
  // The master keeps what a failed job reached; the line has no rate, no time left.
  std::string line = ProgressBar(st, Extras(), 200);
  // The moving phase's and the time left's places stay, empty: the fields do not move.
  EXPECT_EQ(line, "job-000001  FAILED     [###########.........]  map 100% shuffle  62% reduce  12%  " +
                      std::string(39 + 2 + 9 + 2, ' ') + "0:31");
  EXPECT_EQ(line.find("done"), std::string::npos);
  st.set_state("KILLED");
  EXPECT_EQ(ProgressLine(st, Extras()),
            "job-000001  KILLED  map 100% shuffle  62% reduce  12%  0:31");
}

// The README shows the line as ProgressBar prints it at 100 columns, padding included.
TEST(ProgressBarTest, TheReadmeShowsTheLineAsPrinted) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  FILE* f = fopen((std::string(src) + "/README.md").c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string readme;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) readme.append(buf, n);
  fclose(f);
  const std::string line = ProgressBar(Shuffling(), Extras(), 100);
  EXPECT_NE(readme.find("at 100 columns:\n```\n" + line + "\n```\n"), std::string::npos) << line;
}

TEST(ProgressLineTest, PipedLineHasEveryFieldButTheBar) {
  EXPECT_EQ(ProgressLine(Shuffling(), Extras()),
            "job-000001  RUNNING  map 100% shuffle  62% reduce  12%  fetch 21.9/35.0 MiB at 41.2 "
            "MiB/s  ETA 0:12  0:31");
}

// The line rounds as `mr status` and the page do (common/units PercentFloor): 0.29, stored
// as 0.28999..., is 29% in every view, not 28% in one of them.
TEST(ProgressLineTest, PercentagesAreThoseOfEveryOtherView) {
  proto::JobStatus st = Shuffling();
  st.set_shuffle_progress(0.29);
  const std::string line = ProgressLine(st, Extras());
  ASSERT_EQ(FormatPercent(0.29), "29%");
  EXPECT_NE(line.find("shuffle  29%"), std::string::npos) << line;
}

TEST(ProgressLineTest, Durations) {
  EXPECT_EQ(FormatDuration(0), "0:00");
  EXPECT_EQ(FormatDuration(7.4), "0:07");
  EXPECT_EQ(FormatDuration(751), "12:31");
  EXPECT_EQ(FormatDuration(3723), "1:02:03");
  EXPECT_EQ(FormatDuration(1e9), "--");
  EXPECT_EQ(FormatDuration(-1), "--");
}

TEST(ProgressLineTest, JobPageUrl) {
  EXPECT_EQ(JobPageUrl("127.0.0.1:7080", "127.0.0.1", 4), "http://127.0.0.1:7080/jobs/job-000004");
  // A page bound to every interface is reached on the host the master was.
  EXPECT_EQ(JobPageUrl("0.0.0.0:7080", "10.0.0.5", 1), "http://10.0.0.5:7080/jobs/job-000001");
  EXPECT_EQ(JobPageUrl("::1:7080", "::1", 1), "http://[::1]:7080/jobs/job-000001");
  EXPECT_EQ(JobPageUrl("", "127.0.0.1", 1), "");
  EXPECT_EQ(JobPageUrl("garbage", "127.0.0.1", 1), "");
}

// ---- the estimator ----

// A job reading `total` input bytes, `read` of them so far; nothing fetched or reduced.
proto::JobStatus Reading(double read, double total, uint32_t maps_done = 0) {
  proto::JobStatus st;
  st.set_job_id(1);
  st.set_state("RUNNING");
  st.set_maps_total(10);
  st.set_maps_done(maps_done);
  st.set_input_bytes(static_cast<uint64_t>(total));
  st.set_input_bytes_read(read);
  st.set_map_progress(read / total);
  return st;
}

TEST(ProgressEstimatorTest, RateOfInputReadOnceTheHistorySpansASecond) {
  ProgressEstimator est;
  est.Add(Reading(0, 100 * kMiB), 0);
  est.Add(Reading(5 * kMiB, 100 * kMiB), 0.5);
  EXPECT_FALSE(est.CurrentRate()) << "half a second is too short to tell";
  est.Add(Reading(10 * kMiB, 100 * kMiB), 1.0);
  auto rate = est.CurrentRate();
  ASSERT_TRUE(rate);
  EXPECT_EQ(rate->phase, RatePhase::kMap);
  EXPECT_NEAR(rate->bytes_per_second, 10 * kMiB, 1);
}

TEST(ProgressEstimatorTest, TimeLeftAfterTwoSecondsOrTheFirstMap) {
  ProgressEstimator est;
  for (int i = 0; i <= 3; ++i) est.Add(Reading(i * 5 * kMiB, 100 * kMiB), i * 0.5);
  EXPECT_FALSE(est.SecondsLeft()) << "1.5 s and no map done: no estimate yet";
  est.Add(Reading(20 * kMiB, 100 * kMiB), 2.0);
  auto left = est.SecondsLeft();
  ASSERT_TRUE(left);
  // Overall = mean of the phases: map 0.2, the others 0, so 0.0667 done, at 0.0333 per
  // second over the window: 28 s left.
  EXPECT_NEAR(*left, 28, 1e-6);

  ProgressEstimator early;
  early.Add(Reading(0, 100 * kMiB), 0);
  early.Add(Reading(10 * kMiB, 100 * kMiB, 1), 1.0);
  ASSERT_TRUE(early.SecondsLeft()) << "a map has finished: estimable after 1 s";
  EXPECT_NEAR(*early.SecondsLeft(), 29, 1e-6);
}

TEST(ProgressEstimatorTest, RateFollowsTheLastFiveSeconds) {
  ProgressEstimator est;
  double read = 0, t = 0;
  for (; t < 10; t += 0.25, read += 0.25 * 10 * kMiB) est.Add(Reading(read, 1000 * kMiB), t);
  EXPECT_NEAR(est.CurrentRate()->bytes_per_second, 10 * kMiB, 1);
  for (; t <= 15; t += 0.25, read += 0.25 * 20 * kMiB) est.Add(Reading(read, 1000 * kMiB), t);
  EXPECT_NEAR(est.CurrentRate()->bytes_per_second, 20 * kMiB, 1)
      << "the 10 MiB/s polls left the window";
}

TEST(ProgressEstimatorTest, TimeLeftFollowsTheLastTwentySeconds) {
  // 1000 MiB of input: 1 MiB/s for 30 s, then 4 MiB/s. The time left is over 20 s of
  // polls, so a step of progress (a map's output fetched at once) does not make it jump.
  ProgressEstimator est;
  double t = 0;
  for (; t < 30; t += 0.5) est.Add(Reading(t * kMiB, 1000 * kMiB, 1), t);
  // At 29.5 s: 29.5 MiB read, overall 29.5 / 3000, gaining 1 / 3000 a second.
  EXPECT_NEAR(*est.SecondsLeft(), 3000 - 29.5, 1e-6);
  for (; t <= 40; t += 0.5) est.Add(Reading((30 + 4 * (t - 30)) * kMiB, 1000 * kMiB, 1), t);
  EXPECT_NEAR(est.CurrentRate()->bytes_per_second, 4 * kMiB, 1e-3)
      << "the rate has only the last 5 s";
  // At 40 s: 70 MiB read; 50 MiB of it in the 20 s window, 2.5 MiB/s on average.
  EXPECT_NEAR(*est.SecondsLeft(), (3000 - 70) / 2.5, 1e-6);
}

// During a stall the rate falls, and the time left rises with it (before, it stayed put for
// the 20 s its window took to notice); once nothing has moved for the whole rate window
// there is no estimate.
TEST(ProgressEstimatorTest, TimeLeftFollowsTheRateThroughAStall) {
  ProgressEstimator est;
  double t = 0;
  for (; t < 30; t += 0.5) est.Add(Reading(t * kMiB, 1000 * kMiB, 1), t);
  const double before = *est.SecondsLeft();
  EXPECT_NEAR(before, 3000 - 29.5, 1e-6);
  for (; t <= 31.5; t += 0.5) est.Add(Reading(29.5 * kMiB, 1000 * kMiB, 1), t);  // stalled 2 s
  // Over the last 5 s (26.5 .. 31.5): 3 MiB, 0.6 MiB/s, below the 20 s window's 0.9 MiB/s.
  ASSERT_TRUE(est.SecondsLeft());
  EXPECT_NEAR(*est.SecondsLeft(), (3000 - 29.5) / 0.6, 1e-6);
  EXPECT_GT(*est.SecondsLeft(), before);
  for (; t <= 35; t += 0.5) est.Add(Reading(29.5 * kMiB, 1000 * kMiB, 1), t);  // 5.5 s
  EXPECT_FALSE(est.SecondsLeft()) << "nothing moved over the rate window";
}

TEST(ProgressEstimatorTest, NoRateWhenWorkIsRedoneOrNothingMovesOrTheJobEnded) {
  ProgressEstimator redone;
  redone.Add(Reading(50 * kMiB, 100 * kMiB), 0);
  redone.Add(Reading(30 * kMiB, 100 * kMiB), 2);  // a lost worker's maps run again
  EXPECT_FALSE(redone.CurrentRate());
  EXPECT_FALSE(redone.SecondsLeft());

  ProgressEstimator stalled;
  stalled.Add(Reading(50 * kMiB, 100 * kMiB, 5), 0);
  stalled.Add(Reading(50 * kMiB, 100 * kMiB, 5), 3);
  ASSERT_TRUE(stalled.CurrentRate());
  EXPECT_EQ(stalled.CurrentRate()->bytes_per_second, 0) << "a stall reads 0 B/s";
  EXPECT_FALSE(stalled.SecondsLeft()) << "no progress: no time left to tell";

  ProgressEstimator ended;
  ended.Add(Reading(0, 100 * kMiB), 0);
  proto::JobStatus done = Reading(100 * kMiB, 100 * kMiB, 10);
  done.set_state("SUCCEEDED");
  ended.Add(done, 3);
  EXPECT_FALSE(ended.CurrentRate());
  EXPECT_FALSE(ended.SecondsLeft());
}

TEST(ProgressEstimatorTest, MovingPhaseGoesMapShuffleReduce) {
  double done = 0, total = 0;
  EXPECT_EQ(MovingPhase(Reading(1, 10), &done, &total), RatePhase::kMap);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(total, 10);
  // A job without input (synthetic): nothing in bytes until a map's output is known.
  proto::JobStatus synthetic;
  synthetic.set_maps_total(4);
  synthetic.set_map_progress(0.3);
  EXPECT_FALSE(MovingPhase(synthetic, &done, &total));
  synthetic.set_maps_done(1);
  synthetic.set_shuffle_bytes_expected(400);
  synthetic.set_shuffle_bytes_fetched(100);
  EXPECT_EQ(MovingPhase(synthetic, &done, &total), RatePhase::kShuffle);
  EXPECT_EQ(done, 100);
  EXPECT_EQ(total, 400);
  // Everything fetched, maps done: the reduces' merge.
  proto::JobStatus st = Shuffling();
  st.set_shuffle_progress(1);
  st.set_reduce_bytes_merged(7 * kMiB);
  EXPECT_EQ(MovingPhase(st, &done, &total), RatePhase::kReduce);
  EXPECT_EQ(done, 7 * kMiB);
  EXPECT_EQ(total, 35 * kMiB);
  st.set_reduce_progress(1);
  EXPECT_FALSE(MovingPhase(st, &done, &total));
}

// ---- the display ----

// What a ProgressDisplay printed, through a memory stream.
class Captured {
 public:
  Captured() : f_(open_memstream(&buf_, &size_)) {}
  ~Captured() {
    if (f_) fclose(f_);
    free(buf_);
  }
  FILE* file() { return f_; }
  std::string text() {
    fflush(f_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  size_t size_ = 0;
  FILE* f_;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  return lines;
}

TEST(ProgressDisplayTest, PipedLinesOnChangesEveryFiveSecondsAndAtTheEnd) {
  Captured out;
  {
    ProgressDisplay d(out.file(), /*tty=*/false, 0);
    d.Show(Reading(0, 100 * kMiB), 0.1);          // first: printed
    d.Show(Reading(10 * kMiB, 100 * kMiB), 1.0);  // nothing new
    d.Show(Reading(40 * kMiB, 100 * kMiB), 4.0);  // nothing new
    d.Show(Reading(55 * kMiB, 100 * kMiB), 5.2);  // 5 s since the last line
    proto::JobStatus maps_done = Reading(100 * kMiB, 100 * kMiB, 10);
    d.Show(maps_done, 6.0);  // map reached 100%
    d.Show(maps_done, 6.5);
    maps_done.set_state("SUCCEEDED");
    d.Show(maps_done, 7.0);  // the end
  }
  std::string text = out.text();
  std::vector<std::string> lines = Lines(text);
  ASSERT_EQ(lines.size(), 4u) << text;
  EXPECT_EQ(
      lines[0],
      "job-000001  RUNNING  map   0% shuffle   0% reduce   0%  read 0.0/100.0 MiB  ETA --  0:00");
  EXPECT_EQ(lines[1].rfind("job-000001  RUNNING  map  55% ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(" at 10.7 MiB/s  ETA "), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].rfind("job-000001  RUNNING  map 100% ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3], "job-000001  SUCCEEDED  map 100% shuffle   0% reduce   0%  0:07");
  for (char c : text)
    EXPECT_TRUE(c == '\n' || (c >= 32 && c < 127)) << "control character " << int(c);
}

// A map attempt fails at 60% of its input: the master's status of the FAILED job no longer
// counts it (map 0%); the last line says how far the job got (before: "FAILED  map   0%").
TEST(ProgressDisplayTest, AFailedJobShowsTheProgressItReached) {
  Captured out;
  {
    ProgressDisplay d(out.file(), /*tty=*/false, 0);
    d.Show(Reading(60 * kMiB, 100 * kMiB), 0.1);
    proto::JobStatus failed = Reading(0, 100 * kMiB);
    failed.set_state("FAILED");
    d.Show(failed, 0.2);
  }
  const std::vector<std::string> lines = Lines(out.text());
  ASSERT_EQ(lines.size(), 2u) << out.text();
  EXPECT_EQ(lines.back(), "job-000001  FAILED  map  60% shuffle   0% reduce   0%  0:00");
}

TEST(ProgressDisplayTest, OnATerminalRewritesInPlaceAndEndsTheLine) {
  Captured out;
  {
    ProgressDisplay d(out.file(), /*tty=*/true, 0);
    d.Show(Reading(0, 100 * kMiB), 0.1);
    d.Show(Reading(10 * kMiB, 100 * kMiB), 0.2);
  }  // interrupted: the open line is ended
  std::string text = out.text();
  // Not a terminal: 80 columns, where the phases are compact.
  EXPECT_EQ(text.rfind("\r\033[KRUNNING    m0% s0% r0% ", 0), 0u) << text;
  EXPECT_NE(text.find("\r\033[KRUNNING    m10% s0% r0% "), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(Lines(text).size(), 1u);
}

}  // namespace
}  // namespace mr::cli
