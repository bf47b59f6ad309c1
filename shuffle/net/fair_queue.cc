#include "shuffle/net/fair_queue.h"

#include <algorithm>

namespace mr::shuffle {

namespace {
constexpr size_t kPruneThreshold = 256;
}  // namespace

FairQueue::FairQueue(double capacity, double burst, const Clock* clock, double resume_grace)
    : clock_(clock), resume_grace_(resume_grace), link_(capacity, burst, clock) {}

void FairQueue::SetShares(const std::map<uint64_t, double>& shares) {
  shares_ = shares;
  for (auto& [id, j] : jobs_) {
    auto it = shares_.find(id);
    double share = it == shares_.end() ? 0.0 : it->second;
    bool moved_class = (share > 0) != Positive(j);
    j.share = share;
    // Tags of the two classes live on different virtual clocks: restart at the new one's now.
    if (moved_class) {
      j.finish = VirtualTime(j);
      if (!j.queue.empty()) TagHead(j);
    }
  }
  Prune();
}

void FairQueue::Prune() {
  // An idle job whose finish tag is behind its class clock carries no state worth keeping,
  // once its resume grace is over.
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const JobState& j = it->second;
    bool idle = j.queue.empty() && j.finish <= (Positive(j) ? v_positive_ : v_lending_) && !Resuming(j);
    it = idle ? jobs_.erase(it) : std::next(it);
  }
}

// SFQ's start tag is max(V, finish). A job whose queue ran dry only because its sender
// was busy (sending the chunk, waking up, opening the next fetch) would lose the turns the
// others took meanwhile, and with it much of its share: measured, a 0.9/0.1 split gave
// the small job +22 %. So within the grace a job resumes behind V, by at most the virtual
// time of `resume_grace` seconds of the class's link, or of the largest single turn in the
// class (one turn of a small-share job is a long stretch of virtual time): it reclaims the
// turns it lost, but a job that cannot keep up with its share never builds a larger debt.
void FairQueue::TagHead(JobState& j) {
  double v = VirtualTime(j);
  j.start = std::max(v, j.finish);
  if (j.finish < v && Resuming(j)) j.start = std::max(j.finish, v - ResumeCredit(j));
}

double FairQueue::ResumeCredit(const JobState& j) const {
  // Virtual time advances at capacity / (sum of the class's weights) per second.
  double weights = 0, step = 0;
  for (const auto& [id, o] : jobs_) {
    if (Positive(o) != Positive(j)) continue;
    weights += Positive(o) ? o.share : 1.0;
    step = std::max(step, o.last_step);
  }
  return std::max(step, weights > 0 ? resume_grace_ * std::max(0.0, link_.rate()) / weights : 0.0);
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
  // A resumed job may start behind V; V itself never goes back, so newcomers gain nothing.
  VirtualTime(*j) = std::max(VirtualTime(*j), j->start);
  j->last_step = static_cast<double>(r.bytes) / weight;
  j->finish = j->start + j->last_step;
  j->last_grant = clock_->Now();
  if (!j->queue.empty()) TagHead(*j);
  link_.Acquire(static_cast<double>(r.bytes));
  return Grant{r.ticket, id, r.bytes};
}

double FairQueue::TimeUntilNextGrant() const {
  if (queued_ == 0) return std::numeric_limits<double>::infinity();
  return link_.TimeUntilReady();
}

}  // namespace mr::shuffle
