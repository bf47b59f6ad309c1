#include "model/slotted/slotted_baselines.h"

#include <algorithm>
#include <numeric>

namespace mr::model {
namespace {

constexpr const char* kFifo = "paper-fifo";
constexpr const char* kFair = "paper-fair";

// A job's part of the slot: what it holds and what it could start.
struct JobTasks {
  size_t view = 0;  // index in snap.jobs
  int held = 0;     // running reduces on unified slots (non-preemptive)
  int tasks = 0;    // pending maps while it has maps left, else ready reduces
  bool maps = true;
};

bool MapsLeft(const sched::JobView& j) { return j.maps_done < j.maps_total || !j.pending_maps.empty(); }

// Jobs in arrival order (submit time, then id) with their tasks; free unified slots in *free.
std::vector<JobTasks> ReadJobs(const sched::Snapshot& snap, int* free, sched::WorkerId* worker) {
  *free = 0;
  *worker = 0;
  for (const sched::WorkerView& w : snap.workers) {
    if (w.free_unified > 0 && *worker == 0) *worker = w.id, *free = w.free_unified;
  }
  std::vector<JobTasks> out;
  for (size_t i = 0; i < snap.jobs.size(); ++i) {
    const sched::JobView& j = snap.jobs[i];
    JobTasks t;
    t.view = i;
    t.maps = MapsLeft(j);
    for (const sched::RunningAttempt& a : j.running) {
      t.held += a.kind == sched::TaskKind::kReduce && a.slot == sched::SlotKind::kUnified;
    }
    t.tasks = static_cast<int>(t.maps ? j.pending_maps.size() : j.ready_reduces.size());
    out.push_back(t);
  }
  std::stable_sort(out.begin(), out.end(), [&](const JobTasks& a, const JobTasks& b) {
    const sched::JobView& x = snap.jobs[a.view];
    const sched::JobView& y = snap.jobs[b.view];
    return x.submit_time != y.submit_time ? x.submit_time < y.submit_time : x.id < y.id;
  });
  return out;
}

// Starts `n` of the job's tasks on `worker`'s unified slots.
void Start(const sched::JobView& j, const JobTasks& t, int n, sched::WorkerId worker, sched::Decision* d) {
  for (int k = 0; k < n; ++k) {
    sched::Assignment a;
    a.job = j.id;
    a.worker = worker;
    a.slot = sched::SlotKind::kUnified;
    if (t.maps) {
      a.kind = sched::TaskKind::kMap;
      a.index = j.pending_maps[static_cast<size_t>(k)];
    } else {
      a.kind = sched::TaskKind::kReduce;
      a.index = j.ready_reduces[static_cast<size_t>(k)].index;
    }
    d->assignments.push_back(a);
  }
}

class PaperFifo final : public sched::Scheduler {
 public:
  std::string_view name() const override { return kFifo; }
  sched::SnapshotScope scope() const override { return sched::SnapshotScope::kCluster; }
  sched::Decision Schedule(const sched::Snapshot& snap) override {
    sched::Decision d;
    int free = 0;
    sched::WorkerId worker = 0;
    for (const JobTasks& t : ReadJobs(snap, &free, &worker)) {
      if (free == 0) break;
      const int n = std::min(t.tasks, free);
      Start(snap.jobs[t.view], t, n, worker, &d);
      free -= n;
    }
    return d;
  }
};

class PaperFair final : public sched::Scheduler {
 public:
  std::string_view name() const override { return kFair; }
  sched::SnapshotScope scope() const override { return sched::SnapshotScope::kCluster; }
  sched::Decision Schedule(const sched::Snapshot& snap) override {
    sched::Decision d;
    int free = 0;
    sched::WorkerId worker = 0;
    const std::vector<JobTasks> jobs = ReadJobs(snap, &free, &worker);
    std::vector<int> held, demand;
    int machines = free;
    for (const JobTasks& t : jobs) {
      held.push_back(t.held);
      demand.push_back(t.held + t.tasks);
      machines += t.held;
    }
    const std::vector<int> share = PaperFairShares(held, demand, machines);
    for (size_t k = 0; k < jobs.size(); ++k) {
      Start(snap.jobs[jobs[k].view], jobs[k], share[k] - held[k], worker, &d);
    }
    return d;
  }
};

int Filled(const std::vector<int>& held, const std::vector<int>& demand, int level) {
  int sum = 0;
  for (size_t i = 0; i < held.size(); ++i) sum += std::clamp(level, held[i], demand[i]);
  return sum;
}

}  // namespace

std::vector<int> PaperFairShares(const std::vector<int>& held, const std::vector<int>& demand, int machines) {
  const int top = demand.empty() ? 0 : *std::max_element(demand.begin(), demand.end());
  // The largest level that fits: Filled is non-decreasing in the level.
  int lo = 0, hi = top;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (Filled(held, demand, mid) <= machines) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  std::vector<int> share(held.size());
  int left = machines;
  for (size_t i = 0; i < held.size(); ++i) left -= share[i] = std::clamp(lo, held[i], demand[i]);
  for (size_t i = 0; i < held.size() && left > 0; ++i) {
    if (share[i] == lo && lo < demand[i]) ++share[i], --left;
  }
  return share;
}

std::vector<std::string> SlottedBaselineNames() { return {kFifo, kFair}; }

bool IsSlottedBaseline(std::string_view name) { return name == kFifo || name == kFair; }

Result<std::unique_ptr<sched::Scheduler>> MakeSlottedBaseline(std::string_view name) {
  if (name == kFifo) return std::unique_ptr<sched::Scheduler>(std::make_unique<PaperFifo>());
  if (name == kFair) return std::unique_ptr<sched::Scheduler>(std::make_unique<PaperFair>());
  return Status::NotFound("'" + std::string(name) + "' is not a slotted baseline (paper-fifo, paper-fair)");
}

}  // namespace mr::model
