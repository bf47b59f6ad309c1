// Which store holds a job's output directory (jobs/output_store.h): the data server its
// spec names (JobSpec.output_server; docs/multi-host.md "Outputs"), else the tracker's
// output_store (the shared file system). Every touch of a job's output by the master goes
// through it: the claim and existence check at submit, the commit of an accepted attempt,
// _SUCCESS and the trace copy (job_seal.h), and the removal of a failed, killed or
// superseded attempt's files.
#pragma once

#include "common/status.h"
#include "jobs/output_store.h"
#include "master/tracker_state.h"
#include "mr.pb.h"

namespace mr::master {

// FailedPrecondition if the spec names an output server and the tracker has no way to reach one.
Result<const jobs::OutputStore*> OutputStoreOf(const TrackerOptions& options, const proto::JobSpec& spec);

}  // namespace mr::master
