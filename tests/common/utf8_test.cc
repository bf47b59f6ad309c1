// Regression: a task error with a Latin-1 file name made a heartbeat
// unparsable (proto3 strings must be UTF-8), so the worker lost its tasks.
#include "common/utf8.h"

#include <gtest/gtest.h>

#include "mr.pb.h"

namespace mr {
namespace {

TEST(Utf8Test, ValidTextUnchanged) {
  EXPECT_EQ(SanitizeUtf8("plain"), "plain");
  EXPECT_EQ(SanitizeUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(Utf8Test, InvalidBytesReplaced) {
  EXPECT_EQ(SanitizeUtf8("caf\xe9.txt"), "caf?.txt");           // Latin-1
  EXPECT_EQ(SanitizeUtf8("\xc0\xaf"), "??");                    // overlong
  EXPECT_EQ(SanitizeUtf8("\xed\xa0\x80"), "???");               // surrogate
  EXPECT_EQ(SanitizeUtf8("end\xe2\x82"), "end??");              // truncated
}

TEST(Utf8Test, SanitisedErrorSurvivesTheWire) {
  proto::TaskReport r;
  r.set_error(SanitizeUtf8("cannot open /data/caf\xe9.txt"));
  proto::TaskReport back;
  ASSERT_TRUE(back.ParseFromString(r.SerializeAsString()));
  EXPECT_EQ(back.error(), "cannot open /data/caf?.txt");
}

}  // namespace
}  // namespace mr
