// What a worker keeps on disk when its registration is void (the master restarted or
// lost it): the finished map outputs, which a restarted master may adopt instead of
// running those maps again (proto RegisterWorker.held_outputs). Heartbeat thread only.
#pragma once

#include <string>
#include <vector>

#include "mr.pb.h"

namespace mr::worker {

// Keeps the finished map outputs (a data file whose index, written last, reads back with
// its checksums) in the job directories under `work_dir` and removes everything else
// there: reducers' fetched runs, spills and unfinished outputs of cancelled maps. Returns
// what was kept. REQUIRES: no task or fetch thread writes under `work_dir` meanwhile.
std::vector<proto::HeldMapOutput> KeepFinishedMapOutputs(const std::string& work_dir);

// Deletes one superseded map output of this worker (index first: the shuffle server then
// answers NotFound rather than serve a half-deleted output). Logs a failure.
void DeleteMapOutput(const std::string& work_dir, const proto::HeldMapOutput& d);

}  // namespace mr::worker
