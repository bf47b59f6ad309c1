#include "master/task_assignment.h"

#include "master/job_paths.h"

namespace mr::master {

namespace {
// The fields every assignment of a task carries.
proto::Assignment BaseAssignment(const JobRecord& job, proto::TaskKind kind, int index, uint32_t attempt,
                                 bool unified) {
  proto::Assignment a;
  a.set_job_id(job.id);
  a.set_kind(kind);
  a.set_index(static_cast<uint32_t>(index));
  a.set_attempt(attempt);
  a.set_num_maps(static_cast<uint32_t>(job.maps.size()));
  a.set_unified_slot(unified);
  *a.mutable_spec() = job.spec;
  return a;
}
}  // namespace

void SplitToProto(const jobs::Split& split, proto::InputSplit* out) {
  out->set_path(split.path);
  out->set_file_index(split.file_index);
  out->set_offset(split.offset);
  out->set_length(split.length);
  out->set_host(split.host);
  out->set_nominal_offset(split.nominal_offset);
  out->set_nominal_length(split.nominal_length);
}

jobs::Split SplitFromProto(const proto::InputSplit& split) {
  return jobs::Split{split.path(),        split.file_index(),     split.offset(), split.length(),
                     split.host(),        split.nominal_offset(), split.nominal_length()};
}

proto::Assignment MakeMapAssignment(const JobRecord& job, int index, bool unified) {
  const MapTask& m = job.maps[index];
  proto::Assignment a = BaseAssignment(job, proto::MAP, index, m.attempt, unified);
  if (!m.split.path.empty()) SplitToProto(m.split, a.mutable_split());
  return a;
}

proto::Assignment MakeReduceAssignment(const JobRecord& job, int index, bool place_only) {
  const ReduceTask& t = job.reduces[index];
  proto::Assignment a = BaseAssignment(job, proto::REDUCE, index, t.attempt, t.unified);
  a.set_place_only(place_only);
  if (!place_only) a.set_temp_output(ReduceAttemptFile(job.spec, index, t.attempt));
  return a;
}

proto::Assignment MakeReduceBackupAssignment(const JobRecord& job, int index) {
  const ReduceTask::Backup& b = *job.reduces[index].backup;
  proto::Assignment a = BaseAssignment(job, proto::REDUCE, index, b.attempt, b.unified);
  a.set_place_only(b.attempt == 0);
  if (b.attempt != 0) a.set_temp_output(ReduceAttemptFile(job.spec, index, b.attempt));
  return a;
}

size_t ReplyBudget(const proto::HeartbeatReply& reply) {
  size_t used = reply.ByteSizeLong();
  return used >= kMaxReplyBytes ? 0 : kMaxReplyBytes - used;
}

}  // namespace mr::master
