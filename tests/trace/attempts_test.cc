// The attempts read from a trace (trace/attempts.h): pairing, order, master restarts.
#include "trace/attempts.h"

#include <gtest/gtest.h>

#include "trace/reader.h"

namespace mr::trace {
namespace {

std::vector<Event> Parse(const char* text) {
  auto events = ParseTraceLines(text);
  EXPECT_TRUE(events.ok()) << events.status().ToString();
  return events.ok() ? *events : std::vector<Event>{};
}

TEST(AttemptsTest, ParseTaskId) {
  ASSERT_TRUE(ParseTaskId("m-00003").has_value());
  EXPECT_EQ(ParseTaskId("m-00003")->kind, 'm');
  EXPECT_EQ(ParseTaskId("m-00003")->index, 3);
  EXPECT_EQ(ParseTaskId("r-123456789")->index, 123456789);
  EXPECT_EQ(ParseTaskId("r-1")->kind, 'r');
  for (const char* bad : {"", "m-", "x-1", "m1", "m-1a", "m--1", "m-1234567890", "M-1"}) {
    EXPECT_FALSE(ParseTaskId(bad).has_value()) << bad;
  }
}

TEST(AttemptsTest, PairsStartsAndEndsInEndOrder) {
  auto attempts = CollectAttempts(Parse(R"(
{"event":"attempt_start","t":1,"task":"m-00000","attempt":1,"worker":1,"slot":"map"}
{"event":"attempt_start","t":1,"task":"m-00001","attempt":2,"worker":2,"slot":"map"}
{"event":"attempt_start","t":2,"task":"r-00000","attempt":3,"worker":2,"slot":"reduce"}
{"event":"attempt_end","t":3,"task":"m-00001","attempt":2,"worker":2,"start":1.1,"status":"ok"}
{"event":"share","t":3,"share":1.0}
{"event":"attempt_end","t":4,"task":"m-00000","attempt":1,"worker":1,"start":1.2,"status":"failed","error":"x"}
{"event":"attempt_end","t":5,"task":"m-00002","attempt":4,"worker":1,"status":"lost"}
)"));
  ASSERT_EQ(attempts.size(), 4u);
  EXPECT_EQ(attempts[0].task, "m-00001");  // ended first
  ASSERT_TRUE(attempts[0].ref.has_value());
  EXPECT_EQ(attempts[0].ref->kind, 'm');
  EXPECT_EQ(attempts[0].ref->index, 1);
  EXPECT_EQ(attempts[0].attempt, 2);
  ASSERT_TRUE(attempts[0].started && attempts[0].ended);
  EXPECT_DOUBLE_EQ(attempts[0].started->t, 1);
  EXPECT_EQ(attempts[0].ended->start, 1.1);
  EXPECT_EQ(attempts[1].task, "m-00000");
  EXPECT_EQ(attempts[1].ended->status, "failed");
  EXPECT_EQ(attempts[2].task, "m-00002");  // an end without a start
  EXPECT_FALSE(attempts[2].started.has_value());
  EXPECT_EQ(attempts[3].task, "r-00000");  // still running: after the ended ones
  EXPECT_FALSE(attempts[3].ended.has_value());
  EXPECT_FALSE(attempts[3].restart.has_value());
}

TEST(AttemptsTest, AMasterRestartEndsWhatItFoundRunning) {
  auto attempts = CollectAttempts(Parse(R"(
{"event":"attempt_start","t":1,"task":"m-00000","attempt":1,"worker":1}
{"event":"attempt_start","t":1,"task":"m-00001","attempt":2,"worker":2}
{"event":"attempt_end","t":2,"task":"m-00001","attempt":2,"worker":2,"start":1,"status":"ok"}
{"event":"master_restart","t":3,"reduces_committed":0,"maps_awaiting":1}
{"event":"master_restart","t":4,"reduces_committed":0,"maps_awaiting":1}
{"event":"attempt_start","t":5,"task":"m-00000","attempt":3,"worker":1}
)"));
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_FALSE(attempts[0].restart.has_value());  // m-00001 had ended
  EXPECT_EQ(attempts[1].task, "m-00000");
  EXPECT_EQ(attempts[1].restart, 3.0);  // the first restart
  EXPECT_EQ(attempts[2].attempt, 3);
  EXPECT_FALSE(attempts[2].restart.has_value());  // started after it
}

TEST(AttemptsTest, RequireNumberNamesTheEventAndKey) {
  EXPECT_EQ(*RequireNumber(std::optional<int64_t>(4), EventType::kAttemptEnd, "worker", "job-000002"), 4);
  auto missing = RequireNumber(std::optional<int64_t>(), EventType::kAttemptEnd, "worker", "job-000002");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "job-000002: attempt_end without a numeric 'worker'");
}

}  // namespace
}  // namespace mr::trace
