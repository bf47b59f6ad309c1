// The event names are spelled once: every type has one name, every name one type.
#include "trace/event.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mr::trace {
namespace {

TEST(EventTest, EveryTypeHasOneNameAndBack) {
  std::set<std::string> names;
  for (int i = 1; i < kEventTypes; ++i) {
    const auto type = static_cast<EventType>(i);
    const std::string_view name = EventTypeName(type);
    ASSERT_FALSE(name.empty()) << i;
    EXPECT_TRUE(names.insert(std::string(name)).second) << name << " twice";
    EXPECT_EQ(EventTypeFromName(name), type) << name;
  }
  EXPECT_EQ(names.size(), 22u);  // issue 25 added "allocation"
  EXPECT_EQ(EventTypeName(EventType::kUnknown), "");
  EXPECT_EQ(EventTypeFromName("no_such_event"), EventType::kUnknown);
  EXPECT_EQ(EventTypeFromName(""), EventType::kUnknown);
}

TEST(EventTest, AccessorsReadTheAlternative) {
  Event e = AttemptEnd{.t = 5.5, .job = "job-000002", .task = "m-00001"};
  EXPECT_EQ(TypeOf(e), EventType::kAttemptEnd);
  EXPECT_EQ(NameOf(e), "attempt_end");
  EXPECT_DOUBLE_EQ(TimeOf(e), 5.5);
  EXPECT_EQ(JobOf(e), "job-000002");
  SetJob(e, "job-000003");
  EXPECT_EQ(std::get<AttemptEnd>(e).job, "job-000003");
  Event u = Unknown{.t = 1, .job = "", .name = "from_the_future"};
  EXPECT_EQ(TypeOf(u), EventType::kUnknown);
  EXPECT_EQ(NameOf(u), "from_the_future");
}

}  // namespace
}  // namespace mr::trace
