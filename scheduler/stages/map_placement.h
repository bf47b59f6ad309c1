// MapPlacement: the --placement stage of the straggling-mappers paper ("Modeling and
// Optimization of Straggling Mappers"; docs/mst.md, "Live placement"). In a non-pull mode
// every pending map is dispatched, once, to one worker's queue (sched::QueueMap), so that
// the long-run rate of maps each worker receives follows the mode's split of the measured
// map arrival rate lambda over the workers' service rates mu_i (scheduler/mst_placement.h).
// It decides WHERE a map runs; the policy still decides WHICH job's task runs next
// (PlacedScheduler, scheduler/placed_scheduler.h, joins the two). A snapshot in, queue
// entries out: the master and the task-level simulator drive the same object every round.
// Not thread-safe (the caller serialises rounds, as for a Scheduler).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/stages/mst_placement.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

enum class PlacementMode { kPull, kEven, kDep, kSep, kMep };

// The table of placement modes: `--placement NAME`, the help text and the docs read it.
struct PlacementModeRow {
  const char* name;
  PlacementMode mode;
  const char* summary;
};
std::span<const PlacementModeRow> PlacementModeTable();
// "pull|even|dep|sep|mep" joined by `separator`.
std::string PlacementModeList(std::string_view separator = ", ");
// InvalidArgument "unknown placement 'x' (known: pull, even, ...)".
Result<PlacementMode> ParsePlacementMode(std::string_view name);
std::string_view PlacementModeName(PlacementMode mode);

struct PlacementConfig {
  PlacementMode mode = PlacementMode::kPull;
  // mep only: the mean-response model and its parameters (--placement-model, -d, -scv, -ca2).
  model::MepParams mep;
  // --placement-rates: the service rate mu (map tasks per second) of worker id i + 1; a
  // worker beyond the list, or given 0, is measured. Empty: every worker measured.
  std::vector<double> given_rates;
};

// The placement flags of every command that runs a policy (`mr master`, `mr cluster start`,
// an embedded `mr run`, `mr model tasksim`), defined once: name (without "--"), default
// text (nullptr: none) and help.
struct PlacementFlag {
  const char* name;
  const char* default_text;
  const char* help;
};
std::span<const PlacementFlag> PlacementFlags();
// The config from the flags the user gave (name -> text; other names are ignored).
// InvalidArgument names the flag and the value: an unknown mode or model, a number out of
// range, a bad list, or a mep-only flag with another mode.
Result<PlacementConfig> PlacementConfigFromFlags(const std::map<std::string, std::string, std::less<>>& given);

// A worker as a mapper node: its service rate and where that came from.
struct NodeRate {
  WorkerId id = 0;
  double mu = 0;            // map tasks per second, all its map (or unified) slots together
  const char* source = "";  // "given", "measured", "speed"
};

// The nodes of `snap`: every worker with a map or unified slot, in snapshot order.
// mu = given rate, else map_task_rate x slots (measured), else before any measurement
// speed x slots x r, r being the mean of map_task_rate / speed over the measured workers
// (1 task/s when none is measured yet).
std::vector<NodeRate> NodeRates(const Snapshot& snap, std::span<const double> given_rates);

// The measured arrival rate of map tasks: over the last kWindow job arrivals (time, maps),
// lambda = (maps of every arrival but the oldest) / (now - the oldest arrival's time);
// 0 (unknown) until two jobs have arrived. Counting from `now`, not from the newest
// arrival, lets the estimate fall while no job comes.
class ArrivalRateMeter {
 public:
  static constexpr size_t kWindow = 32;
  void Record(double time, int maps);
  double Rate(double now) const;

 private:
  std::deque<std::pair<double, int>> arrivals_;  // oldest first, at most kWindow
};

class MapPlacement {
 public:
  // REQUIRES: config.mode != kPull.
  explicit MapPlacement(PlacementConfig config) : config_(std::move(config)) {}

  // One queue entry per pending map of `snap` (jobs in arrival order, maps in index order),
  // to a worker chosen by smooth weighted round robin on the shares of Split(). Empty when
  // no worker has a map or unified slot.
  std::vector<QueueMap> Dispatch(const Snapshot& snap);

  // The shares lambda_i / lambda of `nodes` under the mode, for arrival rate `lambda`
  // (0 = unknown). sep and mep fall back to dep's split (and say so in *fallback) while
  // lambda is unknown, when lambda >= sum mu, or when the solver fails.
  std::vector<double> Split(std::span<const NodeRate> nodes, double lambda, std::string* fallback) const;

  // The split of the last Dispatch that had maps to place, "" before any: for the trace
  // ("dep lambda=3 w1=0.167 w2=0.333 w3=0.5").
  const std::string& last_split() const { return last_split_; }

 private:
  // The node (index into shares) with the largest credit after adding every share; its
  // credit drops by 1. REQUIRES: some share > 0.
  size_t Pick(std::span<const NodeRate> nodes, std::span<const double> shares);

  PlacementConfig config_;
  ArrivalRateMeter arrivals_;
  std::set<JobId> seen_;                // unfinished jobs already counted as arrivals
  std::map<WorkerId, double> credit_;   // smooth weighted round robin state
  std::string last_split_;
};

}  // namespace mr::sched
