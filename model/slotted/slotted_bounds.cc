#include "model/slotted/slotted_bounds.h"

#include <algorithm>
#include <deque>

namespace mr::model {
namespace {

// A job in the SRPT schedule: its map units are its first units.
struct SrptJob {
  size_t input = 0;
  int64_t maps_left = 0;
  int64_t reduce_left = 0;
  int64_t left() const { return maps_left + reduce_left; }
};

// What SRPT ran for one job in one slot, in the order SRPT served the jobs.
struct Served {
  size_t input = 0;
  int64_t maps = 0;
  int64_t reduces = 0;
};

// SRPT over total remaining work, one slot at a time.
class Srpt {
 public:
  Srpt(std::span<const SlottedJob> jobs, int machines) : jobs_(jobs), machines_(machines) {}
  bool done() const { return next_ == jobs_.size() && active_.empty(); }
  // Runs slot t; returns what each served job ran (maps before reduces) and moves the
  // jobs that finished to `finished`.
  const std::vector<Served>& Step(int64_t t, std::vector<size_t>* finished);

 private:
  std::span<const SlottedJob> jobs_;
  int machines_;
  size_t next_ = 0;
  std::vector<SrptJob> active_;
  std::vector<Served> served_;
};

const std::vector<Served>& Srpt::Step(int64_t t, std::vector<size_t>* finished) {
  for (; next_ < jobs_.size() && jobs_[next_].arrival <= t; ++next_) {
    active_.push_back({next_, jobs_[next_].maps, jobs_[next_].reduce_units()});
  }
  // Least remaining first; ties to the earlier arrival (stable on input order).
  std::stable_sort(active_.begin(), active_.end(),
                   [](const SrptJob& a, const SrptJob& b) { return a.left() < b.left(); });
  served_.clear();
  int64_t free = machines_;
  for (SrptJob& j : active_) {
    if (free == 0) break;
    Served s{j.input, std::min(free, j.maps_left), 0};
    free -= s.maps;
    s.reduces = std::min(free, j.reduce_left);
    free -= s.reduces;
    j.maps_left -= s.maps;
    j.reduce_left -= s.reduces;
    served_.push_back(s);
  }
  finished->clear();
  for (const SrptJob& j : active_) {
    if (j.left() == 0) finished->push_back(j.input);
  }
  std::erase_if(active_, [](const SrptJob& j) { return j.left() == 0; });
  // Keep arrival order among equals for the next stable sort.
  std::sort(active_.begin(), active_.end(),
            [](const SrptJob& a, const SrptJob& b) { return a.input < b.input; });
  return served_;
}

Status CheckInput(std::span<const SlottedJob> jobs, int machines) {
  if (machines < 1) return Status::InvalidArgument("machines must be >= 1");
  for (size_t i = 1; i < jobs.size(); ++i) {
    if (jobs[i].arrival < jobs[i - 1].arrival) {
      return Status::InvalidArgument("jobs must be in arrival order (job " + std::to_string(i + 1) + ")");
    }
  }
  return Status::Ok();
}

// Collects finish slots, flow times and the optional per-slot record.
class Recorder {
 public:
  Recorder(std::span<const SlottedJob> jobs, bool record) : jobs_(jobs), record_(record) {
    r_.finish.assign(jobs.size(), 0);
    r_.flow_time.assign(jobs.size(), 0);
  }
  void Finish(size_t input, int64_t t) {
    r_.finish[input] = t;
    r_.flow_time[input] = t - jobs_[input].arrival + 1;
    r_.total_flow_time += r_.flow_time[input];
    r_.last_slot = std::max(r_.last_slot, t);
  }
  // Per slot: (input, map units, reduce units) in any order.
  void Slot(int64_t t, std::vector<Served> ran) {
    if (!record_) return;
    std::sort(ran.begin(), ran.end(), [](const Served& a, const Served& b) { return a.input < b.input; });
    std::string line = std::to_string(t) + ":";
    for (size_t i = 0; i < ran.size(); ++i) {
      if (i > 0 && ran[i].input == ran[i - 1].input) continue;  // merged below
      int64_t m = 0, r = 0;
      for (size_t k = i; k < ran.size() && ran[k].input == ran[i].input; ++k) m += ran[k].maps, r += ran[k].reduces;
      if (m + r == 0) continue;
      line += " " + std::to_string(ran[i].input + 1);
      if (m > 0) line += "m" + std::to_string(m);
      if (r > 0) line += "r" + std::to_string(r);
    }
    r_.slots.push_back(std::move(line));
  }
  SlottedResult Take() { return std::move(r_); }

 private:
  std::span<const SlottedJob> jobs_;
  bool record_;
  SlottedResult r_;
};

}  // namespace

Result<SlottedResult> SrptLowerBound(std::span<const SlottedJob> jobs, int machines,
                                     bool record_schedule) {
  MR_RETURN_IF_ERROR(CheckInput(jobs, machines));
  Srpt srpt(jobs, machines);
  Recorder rec(jobs, record_schedule);
  std::vector<size_t> finished;
  for (int64_t t = 1; !srpt.done(); ++t) {
    rec.Slot(t, srpt.Step(t, &finished));
    for (size_t i : finished) rec.Finish(i, t);
  }
  return rec.Take();
}

Result<SlottedResult> DelayedSrpt(std::span<const SlottedJob> jobs, int machines,
                                  bool record_schedule) {
  MR_RETURN_IF_ERROR(CheckInput(jobs, machines));
  Srpt srpt(jobs, machines);
  Recorder rec(jobs, record_schedule);
  std::vector<int64_t> maps_left(jobs.size()), reduce_left(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    maps_left[i] = jobs[i].maps;
    reduce_left[i] = jobs[i].reduce_units();
  }
  std::deque<Served> queue;     // reduce units SRPT ran, delayed by one slot, FIFO
  std::vector<Served> delayed;  // SRPT's reduce units of the previous slot
  std::vector<Served> ran;
  std::vector<size_t> finished;
  size_t done = 0;
  for (int64_t t = 1; done < jobs.size(); ++t) {
    for (const Served& s : delayed) queue.push_back(s);
    delayed.clear();
    ran.clear();
    int64_t free = machines;
    // Maps exactly as SRPT; their jobs' SRPT reduce units join the queue next slot.
    for (const Served& s : srpt.done() ? std::vector<Served>() : srpt.Step(t, &finished)) {
      if (s.maps > 0) {
        ran.push_back({s.input, s.maps, 0});
        free -= s.maps;
        maps_left[s.input] -= s.maps;
        if (maps_left[s.input] == 0 && reduce_left[s.input] == 0) rec.Finish(s.input, t), ++done;
      }
      if (s.reduces > 0) delayed.push_back({s.input, 0, s.reduces});
    }
    // Then the queue, first come first served, on the machines the maps left.
    while (free > 0 && !queue.empty()) {
      Served& head = queue.front();
      const int64_t n = std::min(free, head.reduces);
      ran.push_back({head.input, 0, n});
      free -= n;
      head.reduces -= n;
      reduce_left[head.input] -= n;
      if (reduce_left[head.input] == 0) rec.Finish(head.input, t), ++done;
      if (head.reduces == 0) queue.pop_front();
    }
    rec.Slot(t, ran);
  }
  return rec.Take();
}

}  // namespace mr::model

namespace mr::model {

Result<SlottedResult> NonPreemptiveFloor(std::span<const SlottedJob> jobs, int machines) {
  if (machines < 1) return Status::InvalidArgument("machines must be >= 1");
  for (size_t i = 1; i < jobs.size(); ++i) {
    if (jobs[i].arrival < jobs[i - 1].arrival) {
      return Status::InvalidArgument("jobs must be in arrival order (job " + std::to_string(i + 1) + ")");
    }
  }
  SlottedResult r;
  for (const SlottedJob& j : jobs) {
    const int64_t map_slots = (j.maps + machines - 1) / machines;
    const int64_t longest = j.reduces.empty() ? 0 : *std::max_element(j.reduces.begin(), j.reduces.end());
    const int64_t flow = map_slots + longest;
    r.flow_time.push_back(flow);
    r.finish.push_back(j.arrival + flow - 1);
    r.total_flow_time += flow;
    r.last_slot = std::max(r.last_slot, r.finish.back());
  }
  return r;
}

}  // namespace mr::model
