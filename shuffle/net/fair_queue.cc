#include "shuffle/net/fair_queue.h"

#include <algorithm>

namespace mr::shuffle {

namespace {
constexpr size_t kPruneThreshold = 256;
}  // namespace

FairQueue::FairQueue(double capacity, double burst, const Clock* clock) : link_(capacity, burst, clock) {}

void FairQueue::SetShares(const std::map<uint64_t, double>& shares) {
  shares_ = shares;
  for (auto& [id, j] : jobs_) {
    auto it = shares_.find(id);
    double share = it == shares_.end() ? 0.0 : it->second;
    bool moved_class = (share > 0) != Positive(j);
    j.share = share;
    // Tags of the two classes live on different virtual clocks: restart in the new one.
    if (moved_class) {
      j.finish = 0;
      if (!j.queue.empty()) TagHead(j);
    }
  }
  Prune();
}

void FairQueue::Prune() {
  // An idle job whose finish tag is behind its class clock carries no state worth keeping.
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const JobState& j = it->second;
    bool idle = j.queue.empty() && j.finish <= (Positive(j) ? v_positive_ : v_lending_);
    it = idle ? jobs_.erase(it) : std::next(it);
  }
}

uint64_t FairQueue::Enqueue(uint64_t job, uint64_t bytes) {
  auto [it, inserted] = jobs_.try_emplace(job);
  JobState& j = it->second;
  if (inserted) {
    auto s = shares_.find(job);
    j.share = s == shares_.end() ? 0.0 : s->second;
  }
  uint64_t ticket = next_ticket_++;
  j.queue.push_back({ticket, bytes});
  if (j.queue.size() == 1) TagHead(j);
  ++queued_;
  // Pruning only after the push: a queued job is never pruned, so j stays valid.
  if (inserted && jobs_.size() > kPruneThreshold) Prune();
  return ticket;
}

void FairQueue::Cancel(uint64_t ticket) {
  for (auto& [id, j] : jobs_) {
    for (auto it = j.queue.begin(); it != j.queue.end(); ++it) {
      if (it->ticket != ticket) continue;
      bool was_head = it == j.queue.begin();
      j.queue.erase(it);
      --queued_;
      if (was_head && !j.queue.empty()) TagHead(j);
      return;
    }
  }
}

FairQueue::JobState* FairQueue::PickNext(uint64_t* job_id) {
  JobState* best = nullptr;
  for (auto& [id, j] : jobs_) {
    if (j.queue.empty()) continue;
    // Positive-share jobs always beat the lending class; within a class, lowest start tag.
    bool better = best == nullptr || (Positive(j) && !Positive(*best)) ||
                  (Positive(j) == Positive(*best) && j.start < best->start);
    if (better) {
      best = &j;
      *job_id = id;
    }
  }
  return best;
}

std::optional<FairQueue::Grant> FairQueue::GrantNext() {
  if (queued_ == 0 || link_.TimeUntilReady() > 0) return std::nullopt;
  uint64_t id = 0;
  JobState* j = PickNext(&id);
  Request r = j->queue.front();
  j->queue.pop_front();
  --queued_;
  double weight = Positive(*j) ? j->share : 1.0;
  VirtualTime(*j) = j->start;
  j->finish = j->start + static_cast<double>(r.bytes) / weight;
  if (!j->queue.empty()) TagHead(*j);
  link_.Acquire(static_cast<double>(r.bytes));
  return Grant{r.ticket, id, r.bytes};
}

double FairQueue::TimeUntilNextGrant() const {
  if (queued_ == 0) return std::numeric_limits<double>::infinity();
  return link_.TimeUntilReady();
}

}  // namespace mr::shuffle
