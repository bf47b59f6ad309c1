// Algorithm 1 of "Minimizing total flow time of MapReduce jobs" (ASRPT), the allocation
// of one slot: how many machines each job's map or reduce tasks get. A pure function of
// the job list, already in ASRPT's order (smallest available workload first), so the
// passes below are the paper's, line for line. Thread-safe.
#pragma once

#include <span>
#include <vector>

namespace mr::sched {

struct AsrptJob {
  // True while the job has unfinished map tasks: its schedulable tasks are maps; else
  // they are reduces (ready to start).
  bool map_phase = true;
  int schedulable = 0;  // J(i).SchedulableTasksNum: tasks that could take a machine now
  int map_load = 0;     // S(i).MapLoad: machines the virtual SRPT schedule gives its maps
  int kept = 0;         // reduces already holding a machine (non-preemptive), kept
  bool probe = false;   // size unknown and nothing measured yet: one map machine first
};

// Machines for each job (same order as `jobs`), kept reduces included, over `machines`
// machines:
//   d = machines - kept reduces (they stay where they are);
//   probes: one map machine to each probe job (not in the paper: a job of unknown size
//     has no virtual work, so this is how it gets measured);
//   pass 1: each map-phase job in order with map_load > 0 gets min(map_load, schedulable, d);
//   pass 2: each reduce-phase job in order gets min(schedulable, d);
//   pass 3: each map-phase job in order gets min(its schedulable tasks left, d).
// Returns the machines left idle (d at the end). `alloc` is overwritten.
int AllocateAsrpt(std::span<const AsrptJob> jobs, int machines, std::vector<int>* alloc);

}  // namespace mr::sched
