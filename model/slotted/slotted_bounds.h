// Two schedules of the slotted model ("Minimizing total flow time of MapReduce jobs") that
// are computed directly rather than by a live policy:
//  - the SRPT lower bound (the paper's Lemma 1): every slot the N machines go to the jobs
//    with the least total remaining work (map + reduce units), as many machines as a job has
//    units left, ignoring that reduce work must wait for the maps. No feasible schedule,
//    preemptive or not, has a smaller total flow time.
//  - DSRPT (the paper's Delayed SRPT, Theorem 4): maps exactly as in that SRPT schedule (a
//    job's first M_i units are its maps); the reduce units SRPT ran in slot t join a FIFO
//    queue at slot t + 1, served with the machines SRPT's maps leave free (N - M_t^S). It
//    is feasible for the preemptive model; ASRPT is meant to be no worse.
//  - the non-preemptive floor (not in the paper; it states the gap between policies): a
//    job's maps need ceil(M_i / N) slots and its longest reduce task, R_max_i units, runs
//    on one machine slot after slot once started, after the maps; so in the non-preemptive
//    model no schedule gives job i a flow time below ceil(M_i / N) + R_max_i, and no
//    schedule's total is below the sum. What a policy adds above it is all that ordering
//    can change.
// All return the same SlottedResult as RunSlotted (slots recorded on request for the first
// two). Pure.
#pragma once

#include <span>

#include "common/status.h"
#include "model/slotted/slotted_sim.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model {

// InvalidArgument for machines < 1 or jobs out of arrival order.
Result<SlottedResult> SrptLowerBound(std::span<const SlottedJob> jobs, int machines,
                                     bool record_schedule = false);
Result<SlottedResult> DelayedSrpt(std::span<const SlottedJob> jobs, int machines,
                                  bool record_schedule = false);
// Per job: flow ceil(M_i / N) + R_max_i, finish a_i + flow - 1. Same errors.
Result<SlottedResult> NonPreemptiveFloor(std::span<const SlottedJob> jobs, int machines);

}  // namespace mr::model
