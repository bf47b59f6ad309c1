// The task-level simulation of a batch run in a given order on one pool of slots: the
// paper's simulator ("Orchestrating an Ensemble of MapReduce Jobs for Minimizing Their
// Makespan", sections 3.3 and 4.2; docs/makespan.md, "The batch simulator"). Every job is
// there at time 0; its maps are queued in the order's job order, task by task, each to the
// map slot that frees first; a job's reduces become ready when its last map has ended (plus
// its shuffle gap), and each freed reduce slot takes the next reduce of the first job in
// the order that has one ready. Two pools are two independent runs. Greedy list scheduling,
// so O(tasks · log slots); deterministic. tests/model/makespan_tasksim_test.cc checks it
// against the project's task-level simulator (model/tasksim) under the live FIFO policy.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/johnson.h"

namespace mr::model {

struct BatchJob {
  std::string name;
  std::vector<double> map_durations;     // seconds on one slot, >= 1 task
  std::vector<double> reduce_durations;  // empty: a map-only job
  // Seconds from the job's last map to its reduces being ready, holding no slot: the
  // non-overlapping first shuffle of a job given by its profile (mrlab's reducers fetch
  // without a slot); 0 for a job given by its tasks.
  double shuffle_gap = 0;
  // The profile its stage estimates come from; nullopt: ProfileFromDurations of its tasks.
  std::optional<JobProfile> profile;
};

// InvalidArgument naming the job: at least one map, every duration and the gap finite >= 0,
// a valid profile.
Status ValidateBatchJob(const BatchJob& job);

// The job's profile (its own, or the one of its task durations and gap).
JobProfile ProfileOf(const BatchJob& job);

// A job made from a profile: N_M maps whose durations keep the profile's average and maximum
// (one task of M_max, the others equal), N_R reduces likewise from R_avg + Sh_typ_avg and
// R_max + Sh_typ_max (the shuffle done in the slot), the first shuffle's average as the gap.
BatchJob BatchJobFromProfile(const JobProfile& profile);

struct SlotShape {
  int map_slots = 1;
  int reduce_slots = 1;
};

// (m_i, r_i) of each profile on `slots`: the ARIA estimates (averages of the bounds) of its
// map and reduce stages. REQUIRES: valid profiles, slots >= 1.
std::vector<StagePair> StagePairs(std::span<const JobProfile> profiles, SlotShape slots);
// Johnson's order of the jobs `subset` names (indices into `profiles`), by their stage pairs
// on `slots`; the result lists indices into `profiles`. REQUIRES: as StagePairs.
std::vector<int> JohnsonOrderOn(std::span<const JobProfile> profiles, std::span<const int> subset, SlotShape slots);

struct BatchSimResult {
  double makespan = 0;
  // Per job index of `jobs` (0 for a job the order leaves out): the end of its last map, and
  // of its last task.
  std::vector<double> maps_end;
  std::vector<double> completion;
};

// How the simulated cluster starts reduces. The default is mrlab's (a reducer takes its slot
// once its job's maps and shuffle are done: docs/makespan.md, "Measuring a profile").
struct BatchSimOptions {
  // Hadoop's reduce slow start (mapred.reduce.slowstart.completed.maps, 0.05 in the Hadoop
  // the paper ran): a job's reduces may take a reduce slot once this fraction of its maps
  // has ended (at least one), and hold it, shuffling, until its maps and gap are done; a
  // freed slot still goes to the first job in the order with a reduce allowed to start.
  // 1 (the default): a reduce is only placed once all its job's maps have ended. In (0, 1].
  double reduce_slow_start = 1;
};

// Runs the jobs `order` names (distinct indices into `jobs`; a pool runs a subset), in that
// order, on `slots`. InvalidArgument for slots < 1, a bad or repeated index, an invalid job,
// a slow start outside (0, 1].
Result<BatchSimResult> SimulateBatch(std::span<const BatchJob> jobs, std::span<const int> order, SlotShape slots,
                                     const BatchSimOptions& options = {});
// The same without the checks, for callers that made them once (BalancedPools simulates the
// same jobs thousands of times). REQUIRES: what SimulateBatch checks.
BatchSimResult SimulateValidBatch(std::span<const BatchJob> jobs, std::span<const int> order, SlotShape slots,
                                  const BatchSimOptions& options = {});

// A lower bound on the makespan of `jobs` (all there at 0) on `slots` under any order and
// any split into pools: the largest of the map work over the map slots, the reduce work over
// the reduce slots plus the shortest map (no reduce ends before a map has), and the longest
// job's longest map + gap + longest reduce (its critical path). How far a schedule's
// simulated makespan lies above it bounds what any other schedule can gain.
double BatchLowerBound(std::span<const BatchJob> jobs, SlotShape slots);

}  // namespace mr::model
