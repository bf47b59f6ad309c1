// Protocol and software versions. The protocol version changes whenever a
// message changes incompatibly; peers with different versions refuse each other.
#pragma once

#include <cstdint>

namespace mr {

inline constexpr uint32_t kProtocolVersion = 1;
inline constexpr const char* kSoftwareVersion = "mrlab 0.1.0";
// Optional requests a master of this protocol version may serve, listed in
// HelloReply.features; a client sends one only if the master lists it.
inline constexpr const char* kFeatureWaitJob = "wait_job";
inline constexpr const char* kFeatureKillJob = "kill_job";
inline constexpr const char* kFeatureTaskAttempts = "task_attempts";
// A submit may be sent again with the same JobSpec.submission_id: the master answers with the
// job it already made for it.
inline constexpr const char* kFeatureSubmitRetry = "submit_retry";

}  // namespace mr
