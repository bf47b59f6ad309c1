#include "web/trace_reader.h"

#include <gtest/gtest.h>

namespace mr::web {
namespace {

TEST(TraceReaderTest, ParsesLinesAndSkipsBlankOnes) {
  auto ev = ParseTraceLines("{\"event\":\"job_submit\",\"t\":1}\n\n{\"event\":\"job_end\",\"t\":2.5}\n");
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  ASSERT_EQ(ev->size(), 2u);
  EXPECT_EQ((*ev)[1]["event"], "job_end");
}

TEST(TraceReaderTest, NamesTheBadLine) {
  auto ev = ParseTraceLines("{\"event\":\"a\",\"t\":1}\n{\"event\":\"b\",\"t\":1}\n{not json\n");
  ASSERT_FALSE(ev.ok());
  EXPECT_EQ(ev.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(ev.status().message().find("line 3"), std::string::npos) << ev.status().message();
  auto missing = ParseTraceLines("{\"event\":\"a\"}\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("line 1: missing numeric field \"t\""), std::string::npos);
  EXPECT_FALSE(ParseTraceLines("[1,2]\n").ok());
}

TEST(TraceReaderTest, ParsesArrays) {
  auto ev = ParseTraceArray("[{\"event\":\"a\",\"t\":1}]");
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(ev->size(), 1u);
  EXPECT_FALSE(ParseTraceArray("{}").ok());
  EXPECT_FALSE(ParseTraceArray("[{\"t\":1}]").ok());
}

TEST(TraceReaderTest, MissingFile) {
  auto ev = ReadTraceFile("/nonexistent/trace.jsonl");
  ASSERT_FALSE(ev.ok());
  EXPECT_EQ(ev.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace mr::web
