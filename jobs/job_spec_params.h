// The per-job parameters (scheduler/job_params.h) in and out of a JobSpec, generically: each
// row of the field table names its JobSpec field, read and written by protobuf reflection, so
// a new parameter needs no code here. Pure functions, thread-safe.
#pragma once

#include "common/status.h"
#include "mr.pb.h"
#include "scheduler/job_params.h"

namespace mr::jobs {

// The parameters a spec carries. A field at its zero value ("", 0, false) reads as the row's
// default, so a spec from a client that never heard of a parameter gets the default (and a
// weight of 0, which the wire has always read as 1, stays 1). Not validated.
sched::JobParams JobParamsFromSpec(const proto::JobSpec& spec);
// Writes every parameter into spec's field (a switch as set when it is off its default).
void JobParamsToSpec(const sched::JobParams& params, proto::JobSpec* spec);
// Ok if every row of the table has a singular JobSpec field of its type (string for text,
// double for numbers, byte sizes and durations, bool for switches, uint32 for counts); else Internal naming the row. The
// conversions above skip a row that fails it; tests/jobs/job_request_test.cc checks it.
Status CheckJobParamFields();

}  // namespace mr::jobs
