#include "model/makespan/aria_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mr::model {

namespace {

bool Finite(double v) { return std::isfinite(v) && v >= 0; }

Status CheckPhase(const PhaseStats& p, const char* name) {
  if (!Finite(p.avg) || !Finite(p.max)) {
    return Status::InvalidArgument(std::string("profile: ") + name + " avg and max must be finite and >= 0");
  }
  // A relative tolerance: an average computed in floating point may pass its maximum by an ulp.
  if (p.avg > p.max * (1 + 1e-12) + 1e-12) {
    return Status::InvalidArgument(std::string("profile: ") + name + " avg must not exceed its max");
  }
  return Status::Ok();
}

// The greedy bounds of n tasks of average `avg` and maximum `max` on k slots.
StageBounds Greedy(int n, const PhaseStats& p, int k) {
  if (n == 0) return {};
  return {n * p.avg / k, (n - 1) * p.avg / k + p.max};
}

StageBounds Sum(const StageBounds& a, const StageBounds& b) { return {a.low + b.low, a.up + b.up}; }

}  // namespace

Status ValidateProfile(const JobProfile& p) {
  if (p.maps < 1) return Status::InvalidArgument("profile: maps must be >= 1");
  if (p.reduces < 0) return Status::InvalidArgument("profile: reduces must be >= 0");
  MR_RETURN_IF_ERROR(CheckPhase(p.map, "map"));
  MR_RETURN_IF_ERROR(CheckPhase(p.first_shuffle, "first_shuffle"));
  MR_RETURN_IF_ERROR(CheckPhase(p.typical_shuffle, "typical_shuffle"));
  MR_RETURN_IF_ERROR(CheckPhase(p.reduce, "reduce"));
  if (p.reduces == 0 && (p.first_shuffle.max > 0 || p.typical_shuffle.max > 0 || p.reduce.max > 0)) {
    return Status::InvalidArgument("profile: a job without reduces has no shuffle or reduce time");
  }
  if (!Finite(p.measured_map_stage) || !Finite(p.measured_reduce_stage)) {
    return Status::InvalidArgument("profile: measured stages must be finite and >= 0");
  }
  return Status::Ok();
}

Result<JobEstimate> EstimateJob(const JobProfile& p, int map_slots, int reduce_slots) {
  if (map_slots < 1 || reduce_slots < 1) {
    return Status::InvalidArgument("estimate: map and reduce slots must be >= 1");
  }
  MR_RETURN_IF_ERROR(ValidateProfile(p));
  JobEstimate e;
  e.map_slots = map_slots;
  e.reduce_slots = reduce_slots;
  e.map = Greedy(p.maps, p.map, map_slots);
  if (p.reduces > 0) {
    const double n = p.reduces, k = reduce_slots;
    e.typical_shuffle = {(n / k - 1) * p.typical_shuffle.avg,
                         ((n - 1) / k - 1) * p.typical_shuffle.avg + p.typical_shuffle.max};
    e.reduce_phase = Greedy(p.reduces, p.reduce, reduce_slots);
    e.reduce = Sum(Sum(StageBounds{p.first_shuffle.avg, p.first_shuffle.max}, e.typical_shuffle), e.reduce_phase);
  }
  e.job = Sum(e.map, e.reduce);
  return e;
}

JobProfile ProfileFromDurations(const std::string& name, std::span<const double> maps,
                                std::span<const double> reduces, double first_shuffle) {
  auto stats = [](std::span<const double> d) {
    PhaseStats s;
    double sum = 0;
    for (double v : d) {
      sum += v;
      s.max = std::max(s.max, v);
    }
    s.avg = d.empty() ? 0 : std::min(s.max, sum / static_cast<double>(d.size()));
    return s;
  };
  JobProfile p;
  p.name = name;
  p.maps = static_cast<int>(maps.size());
  p.reduces = static_cast<int>(reduces.size());
  p.map = stats(maps);
  p.reduce = stats(reduces);
  if (!reduces.empty()) p.first_shuffle = {first_shuffle, first_shuffle};
  return p;
}

void PrintProfile(const JobProfile& p, std::ostream& out) {
  char line[200];
  out << "name             " << (p.name.empty() ? "-" : p.name) << "\n";
  std::snprintf(line, sizeof line, "tasks            %d maps, %d reduces\n", p.maps, p.reduces);
  out << line;
  auto phase = [&](const char* label, const PhaseStats& s) {
    std::snprintf(line, sizeof line, "%-16s avg %.3f s, max %.3f s\n", label, s.avg, s.max);
    out << line;
  };
  phase("map", p.map);
  phase("first shuffle", p.first_shuffle);
  phase("typical shuffle", p.typical_shuffle);
  phase("reduce", p.reduce);
  std::snprintf(line, sizeof line, "bytes            input %llu, shuffle %llu, output %llu\n",
                static_cast<unsigned long long>(p.input_bytes), static_cast<unsigned long long>(p.shuffle_bytes),
                static_cast<unsigned long long>(p.output_bytes));
  out << line;
  if (p.measured_map_stage > 0 || p.measured_reduce_stage > 0) {
    std::snprintf(line, sizeof line, "measured stages  map %.3f s, reduce %.3f s\n", p.measured_map_stage,
                  p.measured_reduce_stage);
    out << line;
  }
}

Status RunEstimate(const EstimateOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(JobEstimate e, EstimateJob(o.profile, o.map_slots, o.reduce_slots));
  const JobProfile& p = o.profile;
  char line[200];
  std::snprintf(line, sizeof line, "# %s: %d maps, %d reduces on %d map and %d reduce slots (ARIA bounds)\n",
                p.name.empty() ? "job" : p.name.c_str(), p.maps, p.reduces, o.map_slots, o.reduce_slots);
  out << line;
  std::snprintf(line, sizeof line, "%-16s %12s %12s %12s %12s\n", "stage", "low_s", "up_s", "estimate_s", "measured_s");
  out << line;
  auto row = [&](const char* name, const StageBounds& b, double measured) {
    char m[32] = "-";
    if (measured > 0) std::snprintf(m, sizeof m, "%.3f", measured);
    std::snprintf(line, sizeof line, "%-16s %12.3f %12.3f %12.3f %12s\n", name, b.low, b.up, b.avg(), m);
    out << line;
  };
  row("map", e.map, p.measured_map_stage);
  row("first shuffle", {p.first_shuffle.avg, p.first_shuffle.max}, 0);
  row("typical shuffle", e.typical_shuffle, 0);
  row("reduce phase", e.reduce_phase, 0);
  row("reduce", e.reduce, p.measured_reduce_stage);
  row("job", e.job, p.measured_map_stage + p.measured_reduce_stage);
  return Status::Ok();
}

}  // namespace mr::model
