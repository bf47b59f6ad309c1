// What an Assignment message carries for one task attempt, and the bounds on a heartbeat
// reply's size that decide whether it can be sent.
#pragma once

#include <cstddef>

#include "master/job.h"
#include "master/message_checks.h"
#include "mr.pb.h"

namespace mr::master {

// What one heartbeat reply may carry (docs/protocol.md, "Message size"): the master sends
// no frame larger than it reads (kMaxControlFrameBytes), far below a worker's read limit,
// so a big job spec can never break a worker's connection. Assignments and locations share
// kMaxReplyBytes; the rest (shares, finished jobs, envelope) fits in the margin. An
// assignment is mostly its job spec; one larger than kMaxAssignmentBytes cannot be sent.
inline constexpr size_t kMaxReplyBytes = kMaxControlFrameBytes - (64u << 10);
inline constexpr size_t kMaxAssignmentBytes = kMaxReplyBytes - (64u << 10);
inline constexpr size_t kAssignmentOverheadBytes = 16;  // tag, length and attempt-number slack

// A split as assignments and the store carry it (proto::InputSplit, its host included),
// and back: written once here for the assignment, the store and recovery.
void SplitToProto(const jobs::Split& split, proto::InputSplit* out);
jobs::Split SplitFromProto(const proto::InputSplit& split);

// Map `index` of job with its split, as attempt m.attempt (the caller may set another).
proto::Assignment MakeMapAssignment(const JobRecord& job, int index, bool unified);
// Reduce `index` as attempt t.attempt: a placement (place_only: start fetching) or a run
// (writes its output to ReduceAttemptFile).
proto::Assignment MakeReduceAssignment(const JobRecord& job, int index, bool place_only);
// Reduce `index`'s backup: its placement while it has no attempt yet, then its run.
// REQUIRES: job.reduces[index].backup.
proto::Assignment MakeReduceBackupAssignment(const JobRecord& job, int index);
// Bytes still free in a heartbeat reply under kMaxReplyBytes.
size_t ReplyBudget(const proto::HeartbeatReply& reply);

}  // namespace mr::master
