#include "cli/progress_estimator.h"

#include <algorithm>

namespace mr::cli {

namespace {

bool Ended(const proto::JobStatus& st) {
  return st.state() == "SUCCEEDED" || st.state() == "FAILED" || st.state() == "KILLED";
}

// Before this much history, a first map finishing is what makes the time left estimable.
constexpr double kEtaSpanWithoutMaps = 2.0;

}  // namespace

const char* RateVerb(RatePhase p) {
  switch (p) {
    case RatePhase::kMap:
      return "read";
    case RatePhase::kShuffle:
      return "fetch";
    case RatePhase::kReduce:
      return "merge";
  }
  return "";
}

std::optional<RatePhase> MovingPhase(const proto::JobStatus& st, double* done, double* total) {
  const double expected = st.shuffle_bytes_expected();
  if (st.map_progress() < 1 && st.input_bytes() > 0) {
    *done = st.input_bytes_read();
    *total = static_cast<double>(st.input_bytes());
    return RatePhase::kMap;
  }
  if (st.shuffle_progress() < 1 && expected > 0) {
    *done = static_cast<double>(st.shuffle_bytes_fetched());
    *total = expected;
    return RatePhase::kShuffle;
  }
  // The reduce's bytes are the whole map output, known once every map is done.
  if (st.reduce_progress() < 1 && expected > 0 && st.maps_done() == st.maps_total()) {
    *done = st.reduce_bytes_merged();
    *total = expected;
    return RatePhase::kReduce;
  }
  return std::nullopt;
}

double OverallProgress(const proto::JobStatus& st) {
  auto clamp = [](double v) { return std::clamp(v, 0.0, 1.0); };
  return (clamp(st.map_progress()) + clamp(st.shuffle_progress()) + clamp(st.reduce_progress())) /
         3;
}

ProgressEstimator::ProgressEstimator(double rate_window_seconds, double eta_window_seconds,
                                     double min_span_seconds)
    : rate_window_(rate_window_seconds),
      eta_window_(std::max(eta_window_seconds, rate_window_seconds)),
      min_span_(min_span_seconds) {}

void ProgressEstimator::Add(const proto::JobStatus& st, double t) {
  samples_.push_back(Sample{t, st.input_bytes_read(),
                            static_cast<double>(st.shuffle_bytes_fetched()),
                            st.reduce_bytes_merged(), OverallProgress(st)});
  while (samples_.size() > 2 && samples_.front().t < t - eta_window_) samples_.pop_front();
  last_ = st;
}

const ProgressEstimator::Sample& ProgressEstimator::OldestWithin(double window) const {
  const double from = samples_.back().t - window;
  for (const Sample& s : samples_) {
    if (s.t >= from) return s;
  }
  return samples_.back();
}

std::optional<ProgressEstimator::Rate> ProgressEstimator::CurrentRate() const {
  if (samples_.empty() || Ended(last_)) return std::nullopt;
  const Sample& old = OldestWithin(rate_window_);
  const double span = samples_.back().t - old.t;
  if (span < min_span_) return std::nullopt;
  double done = 0, total = 0;
  std::optional<RatePhase> phase = MovingPhase(last_, &done, &total);
  if (!phase) return std::nullopt;
  auto counter = [&](const Sample& s) {
    return *phase == RatePhase::kMap       ? s.read
           : *phase == RatePhase::kShuffle ? s.fetched
                                           : s.merged;
  };
  double delta = counter(samples_.back()) - counter(old);
  if (delta < 0) return std::nullopt;  // work redone: no meaningful rate over this window
  return Rate{*phase, delta / span};
}

std::optional<double> ProgressEstimator::SecondsLeft() const {
  if (samples_.empty() || Ended(last_)) return std::nullopt;
  const Sample& old = OldestWithin(eta_window_);
  const double span = samples_.back().t - old.t;
  if (span < min_span_ || (last_.maps_done() == 0 && span < kEtaSpanWithoutMaps))
    return std::nullopt;
  double rate = (samples_.back().overall - old.overall) / span;
  // The time left follows the rate: over the rate's shorter window too, the slower of the
  // two counts, so a stall raises the estimate as it lowers the rate, and a stall of the
  // whole rate window ("nothing moves") leaves no estimate ("--") rather than a stale one.
  const Sample& recent = OldestWithin(rate_window_);
  const double recent_span = samples_.back().t - recent.t;
  if (recent_span >= min_span_) rate = std::min(rate, (samples_.back().overall - recent.overall) / recent_span);
  if (rate <= 0) return std::nullopt;
  return (1 - samples_.back().overall) / rate;
}

}  // namespace mr::cli
