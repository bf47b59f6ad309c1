#include "master/job_paths.h"

#include <cstdio>

#include "common/file_util.h"

namespace mr::master {

std::string PartName(int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "part-r-%05d", index);
  return buf;
}

std::string ReduceAttemptFile(const proto::JobSpec& spec, int index, uint32_t attempt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "_temporary/attempt-r-%05d-%u", index, attempt);
  return JoinPath(JoinPath(spec.output(), buf), PartName(index));
}

std::string MapPartName(int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "part-m-%05d", index);
  return buf;
}

std::string MapAttemptFile(const proto::JobSpec& spec, int index, uint32_t attempt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "_temporary/attempt-m-%05d-%u", index, attempt);
  return JoinPath(JoinPath(spec.output(), buf), MapPartName(index));
}

}  // namespace mr::master
