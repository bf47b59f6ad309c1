// The profile's JSON object (docs/makespan.md, "Profile JSON"), shared by the profile's own
// text form (aria_profile.h), the jobs file and the plan file. Internal to model/makespan:
// no header outside this folder sees a JSON type. Pure functions; thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "model/makespan/aria_profile.h"

namespace mr::model {

nlohmann::json ProfileJsonObject(const JobProfile& profile);

// `where` prefixes every error ("jobs.json: job 2 (sort): profile: ..."). The object must
// have maps, reduces, map, reduce (each {avg, max}); first_shuffle, typical_shuffle, name,
// bytes and measured are optional (absent: 0, ""). Runs ValidateProfile.
Result<JobProfile> ProfileFromJsonObject(const nlohmann::json& object, const std::string& where);

// The number at `key` of `object`: InvalidArgument "WHERE: 'KEY' must be a number" when it is
// not one (or absent and no default is given).
Result<double> JsonNumber(const nlohmann::json& object, const char* key, const std::string& where,
                          const double* fallback = nullptr);
// An integer in [lo, hi]: InvalidArgument "WHERE: 'KEY' must be an integer in LO..HI".
Result<int64_t> JsonInteger(const nlohmann::json& object, const char* key, int64_t lo, int64_t hi,
                            const std::string& where, const int64_t* fallback = nullptr);

}  // namespace mr::model
