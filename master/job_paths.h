// Where a job's committed and temporary output files live. One place, so the
// master's commit and the attempt's writer always agree.
#pragma once

#include <cstdint>
#include <string>

#include "mr.pb.h"

namespace mr::master {

std::string PartName(int index);  // part-r-00003
// OUTPUT/_temporary/attempt-r-00003-<attempt>/part-r-00003
std::string ReduceAttemptFile(const proto::JobSpec& spec, int index, uint32_t attempt);
// A map-only job's (reducers 0): part-m-00003, written by the map as
// OUTPUT/_temporary/attempt-m-00003-<attempt>/part-m-00003.
std::string MapPartName(int index);
std::string MapAttemptFile(const proto::JobSpec& spec, int index, uint32_t attempt);

}  // namespace mr::master
