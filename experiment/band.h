// The band of a replay or prediction (docs/experiments.md, "The band judgement"): the same
// simulation run K times, once as it is and K - 1 times with every task duration moved by a
// small uniform draw, and per job the smallest, largest and mean response over the K. Where
// the live order between equal tasks is a coin toss (two tasks ending within milliseconds
// decide where a reduce binds and who takes a slot), one deterministic simulation picks one
// side of it; the band shows both, and a live time inside it is as close as the simulator
// can say. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "experiment/experiment.h"
#include "experiment/job_results.h"

namespace mr::experiment {

// A live time is inside a band when lo x (1 - kBandTolerance) <= measured <= hi x (1 + kBandTolerance).
inline constexpr double kBandTolerance = 0.05;
bool InsideBand(double measured, const Band& band);

// Per job (index j) the band of responses[k][j] over the simulations k. REQUIRES: every
// responses[k] has the size of responses[0]; empty responses gives an empty vector.
std::vector<Band> BandsOf(const std::vector<std::vector<double>>& responses);

// Moves every task duration of `jobs` by a draw uniform on (-seconds, seconds) (at least 0
// after it), from Rng(seed), jobs in order, each job's maps then its reduces. A job without
// recorded durations whose maps take a fixed time (MapTimeDist kFixed, or the cluster default
// with cluster_map_time_cv 0) first gets them written out (maps x map_seconds, reducers x
// reduce_seconds), so that its tasks, equal before, end apart; a job whose map times are
// drawn (log-normal, delayed tails) keeps its law for the maps (the caller varies the
// simulator's seed) and has its reduces jittered. REQUIRES: seconds >= 0; 0 changes nothing.
void JitterTaskDurations(double seconds, uint64_t seed, double cluster_map_time_cv, JobList* jobs);

}  // namespace mr::experiment
