#include "master/job_seal.h"

#include "common/file_util.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/profile_extract.h"

namespace mr::master {

SealResult SealJobTrace(const SealWork& work) {
  SealResult r;
  r.job_id = work.job_id;
  if (work.trace_written) work.trace_written();  // first: a reader after the seal sees job_end
  if (!work.succeeded) {
    r.profile = Status::FailedPrecondition("the job did not succeed");
    // No store: the tracker could not reach it and said so; a local path of the same name
    // is not the job's.
    if (work.store != nullptr) r.output = work.store->RemoveAll(work.output);
    return r;
  }
  const jobs::OutputStore& store = work.store != nullptr ? *work.store : jobs::LocalOutputs();
  r.output = store.Put(JoinPath(work.output, "_SUCCESS"), "");
  if (r.output.ok()) r.output = store.PutFile(work.trace_path, JoinPath(work.output, "_trace.jsonl"));
  Status rm = store.RemoveAll(JoinPath(work.output, "_temporary"));
  if (r.output.ok()) r.output = rm;
  r.parsed = work.profile_fold == nullptr;
  Result<model::JobProfile> profile =
      r.parsed ? model::ExtractProfileFromFile(work.trace_path) : work.profile_fold->Profile();
  if (!profile.ok()) {
    r.profile = profile.status();
    return r;
  }
  profile->name = work.name;
  r.aria_profile = model::ProfileToJson(*profile);
  return r;
}

}  // namespace mr::master
