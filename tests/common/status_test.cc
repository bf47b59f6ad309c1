#include "common/status.h"

#include <gtest/gtest.h>

namespace mr {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  MR_ASSIGN_OR_RETURN(int h, Half(x));
  MR_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(StatusTest, ResultPropagatesErrors) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Quarter(6).status().ToString(), "InvalidArgument: odd");
  EXPECT_EQ(Status::NotFound("x").WithContext("ctx").message(), "ctx: x");
}

}  // namespace
}  // namespace mr
