// Every policy of the table, on random snapshots: the Scheduler contract holds, and maps and
// reduces are placed as its traits promise (PolicyTraits: work_conserving,
// reduces_wait_for_maps), with its default options and with every numeric option at the
// lowest value it allows (klps-k = 1: k binds).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "policy_params.h"
#include "scheduler/scheduler.h"
#include "test_util.h"

namespace mr::sched {
namespace {

class RandomSnapshots {
 public:
  explicit RandomSnapshots(uint32_t seed) : rng_(seed) {}

  Snapshot Next() {
    Snapshot snap;
    snap.now = Uniform(0, 1000);
    int workers = Int(1, 8);
    for (int w = 0; w < workers; ++w) {
      WorkerView v = testing::MakeWorker(static_cast<WorkerId>(w + 1), Int(0, 3), Int(0, 2),
                                         Int(0, 2), Uniform(0.5, 2));
      v.map_slots += Int(0, 2);
      v.shuffle_bandwidth = Int(0, 1) * 1e6;
      snap.shuffle_capacity += v.shuffle_bandwidth;
      snap.workers.push_back(v);
    }
    if (Int(0, 3) == 0) snap.shuffle_capacity = 0;
    int jobs = Int(0, 12);
    for (int j = 0; j < jobs; ++j) snap.jobs.push_back(Job(j + 1, workers));
    return snap;
  }

 private:
  JobView Job(int id, int workers) {
    JobView j = testing::MakeJob(static_cast<JobId>(id), 0, id * 1.5);
    j.params.pool = Int(0, 1) ? "a" : "";
    j.params.weight = Uniform(0.5, 3);
    std::vector<int> idx(20);
    std::iota(idx.begin(), idx.end(), 0);
    std::shuffle(idx.begin(), idx.end(), rng_);
    j.pending_maps.assign(idx.begin(), idx.begin() + Int(0, 7));
    j.maps_running = Int(0, 3);
    j.maps_done = Int(0, 3);
    j.reduces_running = Int(0, 2);
    for (int r = 0, n = Int(0, 4); r < n; ++r) {
      j.ready_reduces.push_back({r, static_cast<WorkerId>(Int(1, workers + 1))});  // +1: a lost worker
    }
    j.shuffle_bytes_available = Int(0, 1) * Uniform(1, 1e6);
    if (Int(0, 3) > 0) {
      j.estimate.source = EstimateSource::kOnline;
      j.estimate.map_seconds_total = Uniform(0, 100) * Int(0, 4);
      j.estimate.map_seconds_remaining = j.estimate.map_seconds_total * Uniform(0, 1);
      j.estimate.shuffle_bytes_total = Uniform(0, 1e8) * Int(0, 4);
      j.estimate.shuffle_bytes_remaining = j.estimate.shuffle_bytes_total * Uniform(0, 1);
    }
    return j;
  }
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  std::mt19937 rng_;
};

// Maps left: a policy whose reduces wait for all maps (asrpt, lrpt: the ASRPT paper's
// dependency) may leave a job's ready reduces (slow start) beside a free slot.
bool MapsLeft(const JobView& j) {
  return j.maps_done < j.maps_total || !j.pending_maps.empty() || !j.queued_maps.empty() ||
         j.maps_running > 0;
}

// Unplaced work may only remain where no slot that could run it is left.
::testing::AssertionResult CheckWorkConserving(const Snapshot& snap, const Decision& d,
                                               bool maps_too, bool reduces_wait_for_maps) {
  std::map<WorkerId, int> free_for_reduce, free_for_map;
  for (const WorkerView& w : snap.workers) {
    free_for_reduce[w.id] = w.free_reduce + w.free_unified;
    free_for_map[w.id] = w.free_map + w.free_unified;
  }
  std::map<JobId, int> placed_maps;
  std::set<std::pair<JobId, int>> placed_reduces;
  for (const Assignment& a : d.assignments) {
    if (a.slot != SlotKind::kMap) --free_for_reduce[a.worker];
    if (a.slot != SlotKind::kReduce) --free_for_map[a.worker];
    if (a.kind == TaskKind::kMap) ++placed_maps[a.job];
    if (a.kind == TaskKind::kReduce) placed_reduces.insert({a.job, a.index});
  }
  int free_maps = 0;
  for (const auto& [w, n] : free_for_map) free_maps += n;
  for (const JobView& j : snap.jobs) {
    if (maps_too && free_maps > 0 && placed_maps[j.id] < int(j.pending_maps.size())) {
      return ::testing::AssertionFailure() << "job " << j.id << " left maps with free slots";
    }
    if (reduces_wait_for_maps && MapsLeft(j)) continue;
    for (const ReadyReduce& r : j.ready_reduces) {
      if (placed_reduces.count({j.id, r.index}) == 0 && free_for_reduce.count(r.worker) &&
          free_for_reduce[r.worker] > 0) {
        return ::testing::AssertionFailure() << "reduce left waiting beside a free slot";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// The option sets a policy is tested with: its defaults, and (when it has numeric options)
// every numeric option at the lowest value its row allows.
std::vector<PolicyOptions> OptionVariants(const PolicyRow& row) {
  std::vector<PolicyOptions> variants(1);
  PolicyOptions lowest;
  bool any = false;
  for (const OptionSpec& o : row.options) {
    if (o.type == OptionType::kString || o.type == OptionType::kPath) continue;
    if (o.type == OptionType::kInt || o.type == OptionType::kBytes) {
      lowest.SetValue(o.name, static_cast<int64_t>(o.min));
    } else {
      lowest.SetValue(o.name, o.min);
    }
    any = true;
  }
  if (any) variants.push_back(std::move(lowest));
  return variants;
}

class PolicyPropertyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PolicyPropertyTest, RespectsTheContractAndItsTraitsOnRandomSnapshots) {
  const std::string& name = GetParam();
  const PolicyTraits& traits = testing::RowOf(name).traits;
  for (const PolicyOptions& options : OptionVariants(testing::RowOf(name))) {
    auto policy = CreateScheduler(name, options);
    ASSERT_TRUE(policy.ok()) << policy.status().ToString();
    RandomSnapshots gen(12345);
    for (int round = 0; round < 500; ++round) {
      Snapshot snap = gen.Next();
      Decision d = (*policy)->Schedule(snap);
      ASSERT_TRUE(testing::CheckContract(snap, d)) << name << " round " << round;
      ASSERT_TRUE(CheckWorkConserving(snap, d, traits.work_conserving, traits.reduces_wait_for_maps))
          << name << " round " << round << (options.values().empty() ? "" : " (lowest options)");
      ASSERT_FALSE(d.note.empty()) << name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Table, PolicyPropertyTest, ::testing::ValuesIn(testing::AllPolicies()),
                         testing::PolicyParamName);

}  // namespace
}  // namespace mr::sched
