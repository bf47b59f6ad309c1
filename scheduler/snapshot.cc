#include "scheduler/snapshot.h"

namespace mr::sched {

const char* EstimateSourceName(EstimateSource s) {
  switch (s) {
    case EstimateSource::kNone: return "none";
    case EstimateSource::kHint: return "hint";
    case EstimateSource::kProfile: return "profile";
    case EstimateSource::kOnline: return "online";
  }
  return "unknown";
}

}  // namespace mr::sched
