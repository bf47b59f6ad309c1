#include "scheduler/policies/capacity_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "scheduler/util/policy_util.h"

namespace mr::sched {
namespace {

constexpr int kMap = 0;
constexpr int kReduce = 1;
constexpr int kShared = -1;  // the partition of the workers no queue is bound to

// One queue in one round: its jobs and its use of each kind of slot ([kMap], [kReduce]).
struct Group {
  int config = -1;          // index into CapacityQueues::queues(); -1 = jobs of unlisted queues
  int partition = kShared;  // kShared, or the bound queue's own index
  double guaranteed[2] = {0, 0};
  int max[2] = {-1, -1};    // -1 = no cap
  int in_use[2] = {0, 0};
  std::vector<int> jobs;    // indices into snap.jobs, arrival order
  size_t cursor[2] = {0, 0};  // jobs before it have nothing more of that kind to run now
};

// The queues of one snapshot: listed queues in file order, then the unlisted group.
struct Round {
  std::vector<Group> groups;
  std::vector<int> partition_of_worker;  // parallel to snap.workers
  double shared_slots[2] = {0, 0};
};

// The bound queue owning a worker with these labels (the first in file order whose label it
// carries), or kShared.
int PartitionOf(const CapacityQueues& queues, const WorkerLabels& labels) {
  if (labels.empty()) return kShared;
  const std::vector<QueueConfig>& q = queues.queues();
  for (size_t i = 0; i < q.size(); ++i) {
    if (q[i].bound() && labels.Has(q[i].label->key, q[i].label->value)) return static_cast<int>(i);
  }
  return kShared;
}

// Slots a job's running attempts hold of each kind: a backup holds one too, and a reduce
// backup holds its slot while it fetches.
void AddUse(const JobView& j, int* in_use) {
  int maps = 0, reduces = 0;
  for (const RunningAttempt& a : j.running) (a.kind == TaskKind::kMap ? maps : reduces)++;
  in_use[kMap] += std::max(maps, j.maps_running);
  in_use[kReduce] += std::max(reduces, j.reduces_running) + static_cast<int>(j.reduce_backups_fetching.size());
}

Round BuildRound(const Snapshot& snap, const CapacityQueues& queues) {
  const std::vector<QueueConfig>& q = queues.queues();
  Round r;
  r.groups.resize(q.size() + 1);
  for (size_t i = 0; i < q.size(); ++i) {
    r.groups[i].config = static_cast<int>(i);
    r.groups[i].partition = q[i].bound() ? static_cast<int>(i) : kShared;
  }
  for (const WorkerView& w : snap.workers) {
    const int p = PartitionOf(queues, w.labels);
    r.partition_of_worker.push_back(p);
    const double slots[2] = {double(w.map_slots + w.unified_slots),
                             double(w.reduce_slots + w.unified_slots)};
    for (int k : {kMap, kReduce}) {
      (p == kShared ? r.shared_slots[k] : r.groups[static_cast<size_t>(p)].guaranteed[k]) += slots[k];
    }
  }
  // Slot guarantees above the live shared slots (workers missing) shrink in proportion.
  double promised[2] = {0, 0};
  for (const QueueConfig& c : q) {
    for (int k : {kMap, kReduce}) promised[k] += c.in_slots() ? c.slots[k] : 0;
  }
  for (size_t i = 0; i < q.size(); ++i) {
    if (q[i].bound()) continue;
    for (int k : {kMap, kReduce}) {
      if (q[i].in_slots()) {
        const double scale = promised[k] > r.shared_slots[k] ? r.shared_slots[k] / promised[k] : 1.0;
        r.groups[i].guaranteed[k] = q[i].slots[k] * scale;
        r.groups[i].max[k] = q[i].max_slots[k];
        continue;
      }
      r.groups[i].guaranteed[k] = q[i].capacity / 100 * r.shared_slots[k];
      // A tolerance, so that 100/3 % of 30 slots allows 10.
      if (q[i].max_capacity > 0) {
        r.groups[i].max[k] = static_cast<int>(std::floor(q[i].max_capacity / 100 * r.shared_slots[k] + 1e-6));
      }
    }
  }
  std::vector<int> order;
  ArrivalOrder(snap, &order);
  for (int j : order) {
    const int found = queues.Find(snap.jobs[j].params.queue);
    Group& g = r.groups[found >= 0 ? static_cast<size_t>(found) : q.size()];
    g.jobs.push_back(j);
    AddUse(snap.jobs[j], g.in_use);
  }
  return r;
}

// The workers outside `partition`: what AssignMaps must avoid for a queue of it.
std::vector<WorkerId> Outside(const Snapshot& snap, const Round& r, int partition) {
  std::vector<WorkerId> out;
  for (size_t w = 0; w < snap.workers.size(); ++w) {
    if (r.partition_of_worker[w] != partition) out.push_back(snap.workers[w].id);
  }
  return out;
}

// Hands the free slots of one kind out one at a time (see the header).
class Dispenser {
 public:
  Dispenser(const Snapshot& snap, Round& round, SlotFiller& filler) : snap_(snap), round_(round), filler_(filler) {}

  void Run(int kind) {
    kind_ = kind;
    full_.clear();
    while (Group* g = Pick()) {
      const int j = g->jobs[g->cursor[kind_]];
      const int placed = kind_ == kMap ? filler_.AssignMaps(j, 1, Avoid(g->partition))
                                       : filler_.PlaceReduces(std::span<const int>(&j, 1), 1);
      if (placed > 0) {
        ++g->in_use[kind_];
      } else if (kind_ == kMap) {
        full_.push_back(g->partition);  // no free map slot left on its workers
      } else {
        ++g->cursor[kind_];
      }
    }
  }

 private:
  // The queue the next slot goes to, with its cursor on the job that takes it; nullptr when
  // no queue can take one.
  Group* Pick() {
    Group* best = nullptr;
    double best_ratio = 0;
    for (Group& g : round_.groups) {
      if (g.max[kind_] >= 0 && g.in_use[kind_] >= g.max[kind_]) continue;
      if (std::find(full_.begin(), full_.end(), g.partition) != full_.end()) continue;
      if (!Advance(g)) continue;
      const double ratio = g.guaranteed[kind_] > 0 ? g.in_use[kind_] / g.guaranteed[kind_]
                                                   : std::numeric_limits<double>::infinity();
      if (best == nullptr || ratio < best_ratio) {
        best = &g;
        best_ratio = ratio;
      }
    }
    return best;
  }

  // Moves g's cursor to its first job with a task of this kind to run; false if none.
  bool Advance(Group& g) {
    size_t& c = g.cursor[kind_];
    while (c < g.jobs.size()) {
      const int j = g.jobs[c];
      if (kind_ == kMap ? filler_.pending_maps(j) > 0 : filler_.CanPlaceReduce(j)) return true;
      ++c;
    }
    return false;
  }

  std::span<const WorkerId> Avoid(int partition) {
    for (const auto& [p, list] : avoid_) {
      if (p == partition) return list;
    }
    avoid_.emplace_back(partition, Outside(snap_, round_, partition));
    return avoid_.back().second;
  }

  const Snapshot& snap_;
  Round& round_;
  SlotFiller& filler_;
  int kind_ = kMap;
  std::vector<int> full_;  // partitions without a free slot of this kind
  std::vector<std::pair<int, std::vector<WorkerId>>> avoid_;
};

// Queues with shuffle data share in proportion to their guaranteed map slots (equally when
// none has a guarantee); each queue's earliest job with data takes its share.
void ShuffleShares(const Snapshot& snap, const Round& r, Decision* d) {
  std::vector<std::pair<int, double>> heads;  // (job, weight)
  double total = 0;
  for (const Group& g : r.groups) {
    int head = FirstWithShuffleData(snap, g.jobs);
    if (head < 0) continue;
    heads.emplace_back(head, g.guaranteed[kMap]);
    total += g.guaranteed[kMap];
  }
  std::vector<std::pair<JobId, double>> pairs;
  for (const auto& [j, w] : heads) {
    pairs.emplace_back(snap.jobs[j].id, total > 0 ? w / total : 1.0 / static_cast<double>(heads.size()));
  }
  AddShares(pairs, &d->shuffle_shares);
}

// "a 3/4.0 b 5/2.0": map slots in use / guaranteed of the queues with jobs (at most six).
std::string Note(const CapacityQueues& queues, const Round& r, size_t jobs) {
  std::string use;
  int shown = 0;
  for (const Group& g : r.groups) {
    if (g.jobs.empty()) continue;
    if (++shown > 6) {
      use += " ...";
      break;
    }
    const std::string name = g.config >= 0 ? queues.queues()[static_cast<size_t>(g.config)].name : "(unlisted)";
    use += Format(" %s %d/%.1f", name.c_str(), g.in_use[kMap], g.guaranteed[kMap]);
  }
  return Format("capacity: %zu jobs; map slots in use/guaranteed:%s", jobs, use.empty() ? " -" : use.c_str());
}

// Lending, among the shared workers' queues: what the borrowers hold beyond the slots no
// queue is guaranteed comes out of the idle guarantees, in proportion to them. Bound queues
// neither lend nor borrow.
void Lend(const Round& r, int k, const std::vector<const Group*>& rows, std::vector<QueueUse>* out) {
  auto idle_of = [k](const Group& g) { return std::max(0.0, g.guaranteed[k] - g.in_use[k]); };
  double borrowed = 0, guaranteed = 0, idle = 0;
  for (const Group& g : r.groups) {
    if (g.partition != kShared) continue;
    borrowed += std::max(0.0, g.in_use[k] - g.guaranteed[k]);
    guaranteed += g.guaranteed[k];
    idle += idle_of(g);
  }
  const double lent = std::max(0.0, borrowed - std::max(0.0, r.shared_slots[k] - guaranteed));
  if (lent <= 0 || idle <= 0) return;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]->partition != kShared) continue;
    QueueSlots& s = k == kMap ? (*out)[i].map : (*out)[i].reduce;
    s.lent = std::min(idle_of(*rows[i]), lent * idle_of(*rows[i]) / idle);
  }
}

}  // namespace

Decision CapacityScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  Round round = BuildRound(snap, queues_);
  SlotFiller filler(snap, &d, &buffers_);
  Dispenser dispenser(snap, round, filler);
  dispenser.Run(kReduce);  // reduces before maps: both may take a unified slot
  dispenser.Run(kMap);
  ShuffleShares(snap, round, &d);
  d.note = Note(queues_, round, snap.jobs.size());
  return d;
}

bool CapacityScheduler::MayRunOn(const JobParams& job, const WorkerLabels& labels) const {
  const int queue = queues_.Find(job.queue);
  const bool bound = queue >= 0 && queues_.queues()[static_cast<size_t>(queue)].bound();
  return PartitionOf(queues_, labels) == (bound ? queue : kShared);
}

std::vector<QueueUse> CapacityScheduler::Queues(const Snapshot& snap) const {
  const Round r = BuildRound(snap, queues_);
  std::vector<QueueUse> out;
  std::vector<const Group*> rows;  // the group of each row of out
  for (const Group& g : r.groups) {
    if (g.config < 0 && g.jobs.empty()) continue;
    QueueUse u;
    if (g.config >= 0) {
      const QueueConfig& c = queues_.queues()[static_cast<size_t>(g.config)];
      u.name = c.name;
      if (c.bound()) u.label = c.label->key + "=" + c.label->value;
      u.capacity = c.capacity;
      u.max_capacity = c.max_capacity;
    } else {
      u.name = "(unlisted)";
    }
    u.jobs = static_cast<int>(g.jobs.size());
    for (int k : {kMap, kReduce}) {
      QueueSlots& s = k == kMap ? u.map : u.reduce;
      s.guaranteed = g.guaranteed[k];
      s.max = g.max[k];
      s.in_use = g.in_use[k];
      s.borrowed = std::max(0.0, g.in_use[k] - g.guaranteed[k]);
    }
    out.push_back(std::move(u));
    rows.push_back(&g);
  }
  for (int k : {kMap, kReduce}) Lend(r, k, rows, &out);
  return out;
}

}  // namespace mr::sched
