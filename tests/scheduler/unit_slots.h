// A tiny slotted MapReduce system in the units of "Minimizing total flow time of
// MapReduce jobs", for hand-worked policy tests: one worker with N unified slots, time
// slot t at snap.now = t, map tasks of 1 unit, each reduce task of a given number of
// units. Non-preemptive: a started reduce holds its slot until done (shown as running).
// Preemptive: every unfinished reduce unit is a ready reduce of 1 unit. A task given a
// slot in slot t does one unit in it; reduces become ready the slot after the job's last
// map. Records each slot's assignments per job and each job's flow time f - a + 1, and
// fails the test on any reduce placed before its job's maps are done.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "scheduler/scheduler.h"
#include "test_util.h"

namespace mr::sched::testing {

struct UnitJob {
  int arrival = 0;
  int maps = 0;
  std::vector<int> reduces;  // units of each reduce task
};

struct UnitSlot {
  std::map<JobId, int> maps, reduces;  // tasks started in the slot, per job (ids from 1)
  ShareMap map_shares;
};

struct UnitRun {
  std::vector<UnitSlot> slots;
  std::map<JobId, int> flow;  // f - a + 1
  int total_flow = 0;
};

inline UnitRun RunUnitSlots(Scheduler& policy, const std::vector<UnitJob>& jobs, int machines,
                            bool preemptive, int max_slots = 200) {
  struct State {
    int maps_done = 0;
    std::vector<int> left;      // units left per reduce task
    std::vector<bool> started;  // non-preemptive: holds a slot
    bool done = false;
  };
  std::vector<State> st(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    st[i].left = jobs[i].reduces;
    st[i].started.assign(jobs[i].reduces.size(), false);
  }
  UnitRun run;
  for (int t = 0; t < max_slots && run.flow.size() < jobs.size(); ++t) {
    Snapshot snap;
    snap.now = t;
    int held = 0;
    for (size_t i = 0; i < jobs.size(); ++i) {
      const UnitJob& u = jobs[i];
      State& s = st[i];
      if (u.arrival > t || s.done) continue;
      JobView j = MakeJob(static_cast<JobId>(i + 1), 0, u.arrival);
      j.maps_total = u.maps;
      j.maps_done = s.maps_done;
      for (int m = s.maps_done; m < u.maps; ++m) j.pending_maps.push_back(m);
      const int units_left = std::accumulate(s.left.begin(), s.left.end(), 0);
      const bool maps_over = s.maps_done == u.maps;
      if (preemptive) {
        j.reduces_total = std::accumulate(u.reduces.begin(), u.reduces.end(), 0);
        j.reduces_done = j.reduces_total - units_left;
        for (int r = 0; maps_over && r < units_left; ++r) j.ready_reduces.push_back({r, 1});
      } else {
        j.reduces_total = static_cast<int>(u.reduces.size());
        for (size_t r = 0; r < s.left.size(); ++r) {
          if (s.left[r] == 0) {
            ++j.reduces_done;
          } else if (s.started[r]) {
            ++j.reduces_running;
            ++held;
            j.running.push_back({TaskKind::kReduce, static_cast<int>(r), 1, 1, SlotKind::kUnified});
          } else if (maps_over) {
            j.ready_reduces.push_back({static_cast<int>(r), 1});
          }
        }
      }
      j.estimate.source = j.estimate.reduce_source = EstimateSource::kHint;
      j.estimate.map_seconds_total = u.maps;
      j.estimate.map_seconds_remaining = u.maps - s.maps_done;
      j.estimate.reduce_seconds_total = std::accumulate(u.reduces.begin(), u.reduces.end(), 0);
      j.estimate.reduce_seconds_remaining = units_left;
      snap.jobs.push_back(std::move(j));
    }
    snap.workers.push_back(MakeWorker(1, 0, 0, machines));
    snap.workers[0].free_unified = machines - held;
    Decision d = policy.Schedule(snap);
    EXPECT_TRUE(CheckContract(snap, d)) << "slot " << t;
    UnitSlot rec;
    rec.map_shares = d.map_shares;
    for (const Assignment& a : d.assignments) {
      const size_t i = a.job - 1;
      if (a.kind == TaskKind::kMap) {
        ++rec.maps[a.job];
        ++st[i].maps_done;  // one unit: done at the end of the slot
      } else {
        EXPECT_EQ(st[i].maps_done, jobs[i].maps) << "slot " << t << ": reduce of job " << a.job
                                                 << " before its maps are done";
        ++rec.reduces[a.job];
        if (preemptive) {
          auto it = std::find_if(st[i].left.begin(), st[i].left.end(), [](int l) { return l > 0; });
          --*it;
        } else {
          st[i].started[a.index] = true;
        }
      }
    }
    for (size_t i = 0; i < jobs.size(); ++i) {
      State& s = st[i];
      if (jobs[i].arrival > t || s.done) continue;
      if (!preemptive) {
        for (size_t r = 0; r < s.left.size(); ++r) {
          if (s.started[r] && s.left[r] > 0) --s.left[r];
        }
      }
      if (s.maps_done == jobs[i].maps && std::all_of(s.left.begin(), s.left.end(), [](int l) { return l == 0; })) {
        s.done = true;
        run.flow[static_cast<JobId>(i + 1)] = t - jobs[i].arrival + 1;
        run.total_flow += t - jobs[i].arrival + 1;
      }
    }
    run.slots.push_back(std::move(rec));
  }
  EXPECT_EQ(run.flow.size(), jobs.size()) << "not every job finished";
  return run;
}

}  // namespace mr::sched::testing
