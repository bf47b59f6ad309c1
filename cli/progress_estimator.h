// `mr run`'s rate and time left, computed client-side from successive job statuses
// (docs/web.md, "In the terminal"). The per-phase progress itself is the master's
// (JobStatus map/shuffle/reduce_progress and their byte counts); this only differentiates
// it over a sliding window of recent polls.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "mr.pb.h"

namespace mr::cli {

// The phase whose bytes the rate measures: input read (map), bytes fetched (shuffle) or
// partition bytes merged (reduce).
enum class RatePhase { kMap, kShuffle, kReduce };

// "read", "fetch" or "merge": the verb the progress line puts before the rate.
const char* RateVerb(RatePhase p);

// The earliest phase that is not complete and is measured in bytes: map when the job reads
// input, shuffle once some map output exists (its expected total is known), reduce once all
// maps are done and wrote something. nullopt when none is (a synthetic job before its first
// map finished, or a job at 100%). Its bytes done and total are set in *done and *total.
std::optional<RatePhase> MovingPhase(const proto::JobStatus& st, double* done, double* total);

// The job's overall progress in [0, 1]: the mean of the three phases' progress. Equal
// weights because the phases' durations are not known ahead (a job may have almost no
// shuffle, or no reduce work); the windowed rate corrects the estimate as the job goes.
double OverallProgress(const proto::JobStatus& st);

// Rate of the moving phase and time left, from statuses added at increasing times.
// Not thread-safe.
class ProgressEstimator {
 public:
  // The rate is over the polls of the last rate_window_seconds; the time left over a longer
  // eta_window_seconds, because the overall progress moves in steps (each map's output
  // fetched at once) that a short window turns into a jumpy estimate. Either needs
  // min_span_seconds between the oldest poll it uses and the newest.
  explicit ProgressEstimator(double rate_window_seconds = 5, double eta_window_seconds = 20,
                             double min_span_seconds = 1);

  // A status polled at time t (seconds, any monotonic origin). REQUIRES: t is not before
  // the previous call's.
  void Add(const proto::JobStatus& st, double t);

  struct Rate {
    RatePhase phase;
    double bytes_per_second;
  };
  // Bytes per second of the moving phase over the window; nullopt while it cannot be told
  // (too short a history, no moving phase, the job has ended, or its bytes went backwards,
  // as when a lost worker's maps rerun).
  std::optional<Rate> CurrentRate() const;
  // Seconds until the job ends at the overall progress rate: the lower of the rates over the
  // ETA window and over the rate window, so the estimate follows the rate through a stall.
  // Shown once it can be estimated, i.e. that rate is positive and a map has finished or the
  // history spans at least 2 s. nullopt before that, when nothing moved over the rate
  // window, and once the job has ended.
  std::optional<double> SecondsLeft() const;

 private:
  struct Sample {
    double t;
    double read, fetched, merged;  // the three phases' byte counters
    double overall;
  };
  // The oldest kept poll at most `window` seconds older than the newest.
  const Sample& OldestWithin(double window) const;

  double rate_window_, eta_window_, min_span_;
  std::deque<Sample> samples_;  // oldest first, the last eta_window_ seconds (at least two)
  proto::JobStatus last_;       // the newest status
};

}  // namespace mr::cli
