// A job's profile and its stage bounds, after ARIA ("ARIA: Automatic Resource Inference and
// Allocation for MapReduce Environments", as summarised in "Orchestrating an Ensemble of
// MapReduce Jobs for Minimizing Their Makespan", section 2.2; docs/makespan.md, "Job
// profiles"). A profile is a past run's task durations reduced to averages and maxima per
// phase; from it, the greedy bounds of n tasks on k slots (at least n·avg/k, at most
// (n−1)·avg/k + max) give each stage's low and up time for any number of map and reduce
// slots, and the estimate of a stage is the average of its two bounds, as the paper uses it.
// How a profile is measured from mrlab's trace: profile_extract.h. Pure functions and plain
// data; thread-safe.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::model {

// The average and the maximum of one phase's task durations (seconds); both 0 for a phase
// with no task (a map-only job's reduce phase, a typical shuffle no task had).
struct PhaseStats {
  double avg = 0;
  double max = 0;
};

struct JobProfile {
  std::string name;  // the job's name (informational; the store keys profiles by it)
  int maps = 1;      // N_M >= 1
  int reduces = 0;   // N_R >= 0
  PhaseStats map;    // map task durations
  // The first shuffle: only the part of it that did not overlap the map stage (Sh1).
  PhaseStats first_shuffle;
  PhaseStats typical_shuffle;  // the shuffle of the later reduce waves (Sh_typ)
  PhaseStats reduce;           // reduce phase durations (after the shuffle)
  uint64_t input_bytes = 0;    // read by the maps
  uint64_t shuffle_bytes = 0;  // written by the maps, fetched by the reducers
  uint64_t output_bytes = 0;   // written by the reduces
  // What the run it came from measured (0 for a profile written by hand): from the first
  // map's start to the last map's end, and from there to the last reduce's end. The
  // estimate of each stage is checked against these (docs/makespan.md).
  double measured_map_stage = 0;
  double measured_reduce_stage = 0;
};

// InvalidArgument naming the field: maps >= 1, reduces >= 0, every duration finite and
// >= 0 with avg <= max, and a job without reduces has no shuffle or reduce time.
Status ValidateProfile(const JobProfile& profile);

struct StageBounds {
  double low = 0;
  double up = 0;
  double avg() const { return (low + up) / 2; }  // the paper's estimate of the stage
};

// The bounds of `profile` run with S_M map and S_R reduce slots (the paper's equations):
//   map stage      T_M^low = N_M·M_avg/S_M              T_M^up = (N_M−1)·M_avg/S_M + M_max
//   typical shuffle T_Sh^low = (N_R/S_R − 1)·Sh_typ_avg  T_Sh^up = ((N_R−1)/S_R − 1)·Sh_typ_avg + Sh_typ_max
//   reduce phase   N_R·R_avg/S_R                         (N_R−1)·R_avg/S_R + R_max
//   reduce stage   T_R^low = Sh1_avg + T_Sh^low + phase  T_R^up = Sh1_max + T_Sh^up + phase
//   job            T_M + T_R, each bound
// A job without reduces has a reduce stage of 0. The typical-shuffle term is the paper's as
// written: below one wave (N_R < S_R) its low bound is negative (docs/makespan.md).
struct JobEstimate {
  int map_slots = 0;
  int reduce_slots = 0;
  StageBounds map;
  StageBounds typical_shuffle;
  StageBounds reduce_phase;
  StageBounds reduce;  // the whole reduce stage
  StageBounds job;
  double map_estimate() const { return map.avg(); }
  double reduce_estimate() const { return reduce.avg(); }
  double estimate() const { return job.avg(); }
};

// InvalidArgument for slots < 1 or an invalid profile.
Result<JobEstimate> EstimateJob(const JobProfile& profile, int map_slots, int reduce_slots);

// The profile of a job given by its tasks' durations (no shuffle measured: both shuffles 0
// unless `first_shuffle` is given, used as its avg and max). REQUIRES: at least one map.
JobProfile ProfileFromDurations(const std::string& name, std::span<const double> maps,
                                std::span<const double> reduces, double first_shuffle = 0);

// The profile as a JSON object (keys in docs/makespan.md, "Profile JSON"), and back; the
// parser rejects a missing or mistyped field, naming it, and runs ValidateProfile
// (profile_json.cc).
std::string ProfileToJson(const JobProfile& profile);
Result<JobProfile> ProfileFromJson(std::string_view text);

// `mr profile show`'s body: the profile, one field a line.
void PrintProfile(const JobProfile& profile, std::ostream& out);

// The work of `mr profile estimate NAME --map-slots S --reduce-slots S'` (its options, then
// the bounds table: each stage's low, up and estimate, and the measured stage when the
// profile has one). Returns EstimateJob's status.
struct EstimateOptions {
  JobProfile profile;
  int map_slots = 1;
  int reduce_slots = 1;
};
Status RunEstimate(const EstimateOptions& options, std::ostream& out);

}  // namespace mr::model
