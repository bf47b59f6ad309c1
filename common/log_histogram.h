// LogHistogram: a cumulative histogram of durations on a log scale, cheap enough to record
// every heartbeat. Values are in microseconds; bucket 0 holds [0, 1) µs, and every power of
// two above is cut into kSubBuckets equal buckets, so a bucket's upper bound is at most
// 1/kSubBuckets (12.5%) above any value in it. Counts only grow: the distribution of a
// window is the difference of two readings (Subtract), which is how the master's heartbeat
// timings (/api/cluster "timings") and `mr loadgen` read them. Quantile returns the upper
// bound of the bucket that holds the q-th value, so a reported p99 is never below the
// true one. Not thread-safe; a plain value type.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace mr {

class LogHistogram {
 public:
  static constexpr int kSubBuckets = 8;
  static constexpr int kOctaves = 32;  // up to 2^32 µs, over an hour
  static constexpr int kBuckets = 1 + kOctaves * kSubBuckets;

  static int BucketOf(double micros) {
    if (!(micros >= 1)) return 0;  // also NaN and negatives
    int exp = 0;
    const double mant = std::frexp(micros, &exp);  // micros = mant * 2^exp, mant in [0.5, 1)
    const int octave = exp - 1;                    // micros in [2^octave, 2^(octave+1))
    if (octave >= kOctaves) return kBuckets - 1;
    const int sub = std::min(kSubBuckets - 1, static_cast<int>((mant * 2 - 1) * kSubBuckets));
    return 1 + octave * kSubBuckets + sub;
  }
  // The smallest value above bucket i (µs).
  static double UpperBound(int i) {
    if (i <= 0) return 1;
    const int octave = (i - 1) / kSubBuckets, sub = (i - 1) % kSubBuckets;
    return std::ldexp(1.0 + static_cast<double>(sub + 1) / kSubBuckets, octave);
  }

  void Add(double micros) {
    counts_[BucketOf(micros)]++;
    total_++;
  }
  // The window between an earlier reading and this one. REQUIRES: earlier <= this per bucket.
  void Subtract(const LogHistogram& earlier) {
    for (int i = 0; i < kBuckets; ++i) counts_[i] -= std::min(counts_[i], earlier.counts_[i]);
    total_ -= std::min(total_, earlier.total_);
  }
  void Merge(const LogHistogram& other) {
    for (int i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    total_ += other.total_;
  }
  void SetBucket(int i, uint64_t count) {
    if (i < 0 || i >= kBuckets) return;
    total_ = total_ - counts_[i] + count;
    counts_[i] = count;
  }

  uint64_t count() const { return total_; }
  // The upper bound of the bucket holding the value of rank ceil(q * count) (q in [0, 1]);
  // 0 for an empty histogram.
  double Quantile(double q) const {
    if (total_ == 0) return 0;
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * total_)));
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += counts_[i];
      if (seen >= rank) return UpperBound(i);
    }
    return UpperBound(kBuckets - 1);
  }
  // (bucket, count) of every bucket with a count, in order: the histogram's wire form.
  std::vector<std::pair<int, uint64_t>> NonZero() const {
    std::vector<std::pair<int, uint64_t>> out;
    for (int i = 0; i < kBuckets; ++i) {
      if (counts_[i] != 0) out.emplace_back(i, counts_[i]);
    }
    return out;
  }

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t total_ = 0;
};

}  // namespace mr
