#include "shuffle/net/fetch_blame.h"

#include <algorithm>
#include <cmath>

namespace mr::shuffle {

proto::FetchCause FetchCauseOf(const Status& s) {
  switch (s.code()) {
    case StatusCode::kDataLoss:
    case StatusCode::kNotFound:
      return proto::FETCH_SOURCE_CORRUPT;
    case StatusCode::kIoError:
      return proto::FETCH_LOCAL;
    default:
      return proto::FETCH_UNREACHABLE;
  }
}

double FetchRetryDelay(uint32_t failures) {
  const int doublings = static_cast<int>(std::min<uint32_t>(std::max<uint32_t>(failures, 1) - 1, 16));
  return std::min(kMaxFetchRetryDelay, std::ldexp(kFirstFetchRetryDelay, doublings));
}

}  // namespace mr::shuffle
