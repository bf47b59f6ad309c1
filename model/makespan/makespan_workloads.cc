#include "model/makespan/makespan_workloads.h"

#include <algorithm>
#include <cmath>

#include "common/rng.h"

namespace mr::model {

namespace {

struct Normal {
  double mean;
  double sd;
};

struct ScaleMode {
  double long_share;  // jobs drawn from the long range (rounded to a count)
  double short_lo, short_hi, long_lo, long_hi;
};

// One generated family: task counts, task durations, scale factors.
struct Family {
  bool uniform_counts;           // maps U{1..100}, reduces U{1..50}; else the normals below
  Normal maps_count, reduces_count;
  Normal map_seconds, reduce_seconds;
  ScaleMode scale;
};

constexpr ScaleMode kUnimodal{0, 1, 10, 1, 10};
constexpr ScaleMode kBimodal80{0.2, 1, 2, 8, 10};
constexpr ScaleMode kBimodal90{0.1, 1, 3, 8, 10};
constexpr Family kSynthetic1Uni{true, {}, {}, {100, 1000}, {200, 2000}, kUnimodal};
constexpr Family kSynthetic1Bi{true, {}, {}, {100, 1000}, {200, 2000}, kBimodal80};
constexpr Family kSynthetic2{true, {}, {}, {20, 100}, {50, 200}, kBimodal90};
constexpr Family kYahooUni{false, {154, 558}, {19, 145}, {50, 200}, {100, 300}, kUnimodal};
constexpr Family kYahooBi{false, {154, 558}, {19, 145}, {50, 200}, {100, 300}, kBimodal80};

constexpr MakespanWorkloadInfo kWorkloads[] = {
    {"synthetic1-unimodal", "maps U{1..100}, reduces U{1..50}, N(100,1000) s and N(200,2000) s, scale U[1,10]", 100,
     false},
    {"synthetic1-bimodal", "as synthetic1-unimodal, scale U[1,2] for 80% of the jobs, U[8,10] for 20%", 100, false},
    {"synthetic2", "maps U{1..100}, reduces U{1..50}, N(20,100) s and N(50,200) s, scale U[1,3] (90%) or U[8,10]",
     100, false},
    {"yahoo-unimodal", "Yahoo! M45: maps N(154,558), reduces N(19,145), N(50,200) s and N(100,300) s, scale U[1,10]",
     100, false},
    {"yahoo-bimodal", "as yahoo-unimodal, scale U[1,2] for 80% of the jobs, U[8,10] for 20%", 100, false},
    {"facebook", "the Facebook 2009 table: 100 jobs in 10 bins of select, text search, aggregation and join", 100,
     true},
};

// N(mean, sd) drawn again until it is at least `min` (the law truncated to [min, inf)).
double Truncated(Rng& rng, Normal n, double min) {
  for (int i = 0; i < 10000; ++i) {
    const double x = n.mean + n.sd * rng.Normal();
    if (x >= min) return x;
  }
  return min;  // unreachable for the paper's laws (each keeps at least 40% of its mass)
}

// A positive duration: N(mean, sd) drawn again until > 0.
double Duration(Rng& rng, Normal n) {
  for (int i = 0; i < 10000; ++i) {
    const double x = n.mean + n.sd * rng.Normal();
    if (x > 0) return x;
  }
  return n.mean;
}

int UniformCount(Rng& rng, int hi) { return 1 + std::min(hi - 1, static_cast<int>(rng.Uniform() * hi)); }

double UniformIn(Rng& rng, double lo, double hi) { return lo + (hi - lo) * rng.Uniform(); }

// Which jobs are long: exactly round(share x n) of them, at random positions.
std::vector<char> LongJobs(Rng& rng, int n, double share) {
  std::vector<char> out(n, 0);
  const int count = static_cast<int>(std::lround(share * n));
  std::fill(out.begin(), out.begin() + count, 1);
  for (int i = n - 1; i > 0; --i) std::swap(out[i], out[std::min(i, static_cast<int>(rng.Uniform() * (i + 1)))]);
  return out;
}

std::vector<BatchJob> Generate(const Family& f, int n, uint64_t seed) {
  Rng rng(seed);
  const std::vector<char> is_long = LongJobs(rng, n, f.scale.long_share);
  std::vector<BatchJob> jobs;
  for (int i = 0; i < n; ++i) {
    BatchJob job;
    job.name = "J" + std::to_string(i + 1);
    const int maps = f.uniform_counts ? UniformCount(rng, 100) : static_cast<int>(std::lround(Truncated(rng, f.maps_count, 0.5)));
    const int reduces =
        f.uniform_counts ? UniformCount(rng, 50) : static_cast<int>(std::lround(Truncated(rng, f.reduces_count, 0.5)));
    const double factor = is_long[i] ? UniformIn(rng, f.scale.long_lo, f.scale.long_hi)
                                     : UniformIn(rng, f.scale.short_lo, f.scale.short_hi);
    for (int t = 0; t < std::max(1, maps); ++t) job.map_durations.push_back(factor * Duration(rng, f.map_seconds));
    for (int t = 0; t < std::max(1, reduces); ++t) {
      job.reduce_durations.push_back(factor * Duration(rng, f.reduce_seconds));
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// The Facebook table (Table 1 of the paper, after Zaharia et al.'s Table 3): per bin its job
// type, map and reduce tasks, and jobs. Task durations per type are ours (docs/makespan.md).
struct FacebookBin {
  const char* type;
  int maps;
  int reduces;  // 0: map-only (NA in the table)
  int jobs;
};
constexpr FacebookBin kFacebookBins[] = {
    {"select", 1, 0, 38},        {"textsearch", 2, 0, 16},   {"aggregation", 10, 3, 14}, {"select", 50, 0, 8},
    {"textsearch", 100, 0, 6},   {"aggregation", 200, 50, 6}, {"select", 400, 0, 4},      {"aggregation", 800, 180, 4},
    {"join", 2400, 360, 2},      {"textsearch", 4800, 0, 2},
};

struct TypeDurations {
  const char* type;
  Normal map;
  Normal reduce;
};
constexpr TypeDurations kTypeDurations[] = {
    {"select", {20, 5}, {0, 0}},
    {"textsearch", {25, 5}, {0, 0}},
    {"aggregation", {40, 10}, {60, 15}},
    {"join", {50, 10}, {120, 30}},
};

const TypeDurations& DurationsOf(const char* type) {
  for (const TypeDurations& d : kTypeDurations) {
    if (std::string(d.type) == type) return d;
  }
  return kTypeDurations[0];
}

std::vector<BatchJob> Facebook(uint64_t seed) {
  Rng rng(seed);
  std::vector<const FacebookBin*> order;
  for (const FacebookBin& b : kFacebookBins) order.insert(order.end(), b.jobs, &b);
  for (size_t i = order.size() - 1; i > 0; --i) {
    std::swap(order[i], order[std::min(i, static_cast<size_t>(rng.Uniform() * static_cast<double>(i + 1)))]);
  }
  std::vector<BatchJob> jobs;
  for (size_t i = 0; i < order.size(); ++i) {
    const FacebookBin& b = *order[i];
    const TypeDurations& d = DurationsOf(b.type);
    BatchJob job;
    job.name = "J" + std::to_string(i + 1) + "-" + b.type;
    for (int t = 0; t < b.maps; ++t) job.map_durations.push_back(Duration(rng, d.map));
    for (int t = 0; t < b.reduces; ++t) job.reduce_durations.push_back(Duration(rng, d.reduce));
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace

std::span<const MakespanWorkloadInfo> MakespanWorkloads() { return kWorkloads; }

std::string MakespanWorkloadNames() {
  std::string out;
  for (const MakespanWorkloadInfo& w : kWorkloads) out += (out.empty() ? "" : ", ") + std::string(w.name);
  return out;
}

Result<std::vector<BatchJob>> GenerateMakespanWorkload(const MakespanWorkloadOptions& o) {
  if (o.jobs < 0 || o.jobs > 100000) return Status::InvalidArgument("makespan workload: jobs must be in 0..100000");
  const std::string& n = o.name;
  const int jobs = o.jobs == 0 ? 100 : o.jobs;
  if (n == "facebook") {
    if (jobs != 100) return Status::InvalidArgument("makespan workload: facebook is the paper's table of 100 jobs");
    return Facebook(o.seed);
  }
  if (n == "synthetic1-unimodal") return Generate(kSynthetic1Uni, jobs, o.seed);
  if (n == "synthetic1-bimodal") return Generate(kSynthetic1Bi, jobs, o.seed);
  if (n == "synthetic2") return Generate(kSynthetic2, jobs, o.seed);
  if (n == "yahoo-unimodal") return Generate(kYahooUni, jobs, o.seed);
  if (n == "yahoo-bimodal") return Generate(kYahooBi, jobs, o.seed);
  return Status::InvalidArgument("makespan workload: unknown '" + n + "' (known: " + MakespanWorkloadNames() + ")");
}

}  // namespace mr::model
