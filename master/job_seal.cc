#include "master/job_seal.h"

#include "common/file_util.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/profile_extract.h"
#include "trace/reader.h"

namespace mr::master {

SealResult SealJobTrace(const SealWork& work) {
  SealResult r;
  r.job_id = work.job_id;
  if (work.trace_written) work.trace_written();  // first: a reader after the seal sees job_end
  if (!work.succeeded) {
    r.profile = Status::FailedPrecondition("the job did not succeed");
    return r;
  }
  Result<std::string> text = ReadFileToString(work.trace_path);
  const jobs::OutputStore& store = work.store != nullptr ? *work.store : jobs::LocalOutputs();
  r.output = store.Put(JoinPath(work.output, "_SUCCESS"), "");
  if (r.output.ok()) r.output = text.ok() ? store.Put(JoinPath(work.output, "_trace.jsonl"), *text) : text.status();
  Status rm = store.RemoveAll(JoinPath(work.output, "_temporary"));
  if (r.output.ok()) r.output = rm;
  if (!text.ok()) {
    r.profile = text.status();
    return r;
  }
  Result<std::vector<trace::Event>> events = trace::ParseTraceLines(*text);
  std::string().swap(*text);  // the text's memory back before the profile's
  Result<model::JobProfile> profile =
      events.ok() ? model::ExtractProfile(*events) : Result<model::JobProfile>(events.status());
  if (!profile.ok()) {
    r.profile = profile.status();
    return r;
  }
  profile->name = work.name;
  r.aria_profile = model::ProfileToJson(*profile);
  return r;
}

}  // namespace mr::master
