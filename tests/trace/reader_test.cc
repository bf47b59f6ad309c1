// The reader's contract (trace/reader.h): bad lines named by number, what is tolerated.
#include "trace/reader.h"

#include <gtest/gtest.h>

namespace mr::trace {
namespace {

TEST(ReaderTest, ParsesLinesAndSkipsBlankOnes) {
  auto ev = ParseTraceLines("{\"event\":\"job_submit\",\"t\":1}\n\n  \r\n{\"event\":\"job_end\",\"t\":2.5}\n");
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  ASSERT_EQ(ev->size(), 2u);
  EXPECT_EQ(TypeOf((*ev)[0]), EventType::kJobSubmit);
  EXPECT_EQ(TypeOf((*ev)[1]), EventType::kJobEnd);
  EXPECT_DOUBLE_EQ(TimeOf((*ev)[1]), 2.5);
  EXPECT_EQ(JobOf((*ev)[1]), "");
}

TEST(ReaderTest, NamesTheBadLine) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"{\"event\":\"a\",\"t\":1}\n{\"event\":\"b\",\"t\":1}\n{not json\n", "line 3: not valid JSON"},
                        Case{"{\"event\":\"a\"}\n", "line 1: missing numeric field \"t\""},
                        Case{"{\"event\":\"a\",\"t\":\"1\"}\n", "line 1: missing numeric field \"t\""},
                        Case{"\n{\"t\":1}\n", "line 2: missing string field \"event\""},
                        Case{"{\"event\":7,\"t\":1}\n", "line 1: missing string field \"event\""},
                        Case{"[1,2]\n", "line 1: not a JSON object"}}) {
    auto ev = ParseTraceLines(c.text);
    ASSERT_FALSE(ev.ok()) << c.text;
    EXPECT_EQ(ev.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(ev.status().message(), c.message);
  }
}

TEST(ReaderTest, UnknownEventsAndFieldsAreTolerated) {
  auto ev = ParseTraceLines(
      R"({"event":"from_the_future","t":3,"job":"job-000002","x":[1]}
{"event":"share","t":4,"job":"job-000002","share":0.5,"new_field":{"a":1}})");
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  ASSERT_EQ(ev->size(), 2u);
  const auto& u = std::get<Unknown>((*ev)[0]);
  EXPECT_EQ(u.name, "from_the_future");
  EXPECT_EQ(u.job, "job-000002");
  EXPECT_DOUBLE_EQ(u.t, 3);
  EXPECT_EQ(std::get<Share>((*ev)[1]).share, 0.5);
}

TEST(ReaderTest, AFieldOfTheWrongKindReadsAsAbsent) {
  auto ev = ParseEvent(
      R"({"event":"attempt_end","t":9,"job":7,"task":3,"attempt":"1","worker":2.9,"start":null,)"
      R"("bytes_in":-5,"bytes_out":7.5,"records_in":1e30,"status":"ok","counters":{"a":1,"b":"x","c":2.5}})");
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  const auto& e = std::get<AttemptEnd>(*ev);
  EXPECT_EQ(e.job, "");                 // not a string
  EXPECT_FALSE(e.task.has_value());     // a number
  EXPECT_FALSE(e.attempt.has_value());  // a string
  EXPECT_EQ(e.worker, 2);               // the integer part
  EXPECT_FALSE(e.start.has_value());    // null
  EXPECT_FALSE(e.bytes_in.has_value()); // negative
  EXPECT_EQ(e.bytes_out, 7u);
  EXPECT_FALSE(e.records_in.has_value());  // beyond 64 bits
  EXPECT_FALSE(e.records_out.has_value()); // missing
  EXPECT_EQ(e.status, "ok");
  EXPECT_EQ(e.counters, (Counters{{"a", 1}, {"c", 2}}));
}

TEST(ReaderTest, TaskListsKeepOtherEntriesAsText) {
  auto ev = ParseEvent(R"({"event":"decision","t":1,"tasks":["m-00001",3]})");
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(std::get<Decision>(*ev).tasks, (std::vector<std::string>{"m-00001", "3"}));
}

TEST(ReaderTest, ParsesArrays) {
  auto ev = ParseTraceArray("[{\"event\":\"a\",\"t\":1}]");
  ASSERT_TRUE(ev.ok());
  EXPECT_EQ(ev->size(), 1u);
  EXPECT_EQ(ParseTraceArray("{}").status().message(), "trace is not a JSON array");
  EXPECT_EQ(ParseTraceArray("[{\"event\":\"a\",\"t\":1},{\"t\":1}]").status().message(),
            "event 1: missing string field \"event\"");
}

TEST(ReaderTest, MissingFile) {
  auto ev = ReadTraceFile("/nonexistent/trace.jsonl");
  ASSERT_FALSE(ev.ok());
  EXPECT_EQ(ev.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace mr::trace
