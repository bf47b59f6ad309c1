// Traces written by the master before the trace module (tests/trace/data/README.md) read
// back, every line of them, and are written again byte for byte: the writer writes what
// the master always wrote, and the reader knows every event and field in them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "common/file_util.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace mr::trace {
namespace {

std::string SourceDir() {
  const char* src = std::getenv("MR_SOURCE_DIR");
  return src != nullptr ? src : "";
}

void ExpectSameBytes(const std::string& path, std::set<EventType>* seen) {
  SCOPED_TRACE(path);
  Result<std::string> text = ReadFileToString(path);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  size_t pos = 0, lines = 0;
  while (pos < text->size()) {
    const size_t nl = text->find('\n', pos);
    ASSERT_NE(nl, std::string::npos) << "the master ends every line";
    const std::string line = text->substr(pos, nl - pos);
    pos = nl + 1;
    ++lines;
    Result<Event> e = ParseEvent(line);
    ASSERT_TRUE(e.ok()) << line << ": " << e.status().ToString();
    EXPECT_NE(TypeOf(*e), EventType::kUnknown) << line;
    seen->insert(TypeOf(*e));
    EXPECT_EQ(EventJson(*e), line);
  }
  EXPECT_GT(lines, 10u);
}

TEST(FixtureTest, EveryLineReadsAndWritesBackTheSameBytes) {
  ASSERT_FALSE(SourceDir().empty()) << "run under ctest (it sets MR_SOURCE_DIR)";
  std::set<EventType> seen;
  for (const char* f : {"tests/trace/data/run/job-000001.jsonl", "tests/trace/data/run/job-000002.jsonl",
                        "tests/trace/data/run/job-000003.jsonl", "tests/web/data/wordcount_3workers.jsonl"}) {
    ExpectSameBytes(JoinPath(SourceDir(), f), &seen);
  }
  // What the small run shows of the format.
  for (EventType t : {EventType::kJobSubmit, EventType::kJobStart, EventType::kEstimate, EventType::kDecision,
                      EventType::kShare, EventType::kAttemptStart, EventType::kAttemptEnd, EventType::kReducePlace,
                      EventType::kFetchStart, EventType::kFetchEnd, EventType::kServed, EventType::kCommit,
                      EventType::kBlacklist, EventType::kMapsDone, EventType::kJobEnd}) {
    EXPECT_TRUE(seen.count(t)) << EventTypeName(t);
  }
}

TEST(FixtureTest, ReadsTheFixtureAsAFile) {
  Result<std::vector<Event>> events = ReadTraceFile(JoinPath(SourceDir(), "tests/trace/data/run/job-000003.jsonl"));
  ASSERT_TRUE(events.ok()) << events.status().ToString();
  const auto& submit = std::get<JobSubmit>(events->front());
  EXPECT_EQ(submit.job, "job-000003");
  EXPECT_EQ(submit.kind, "streaming");
  EXPECT_EQ(submit.maps, 3);
  int failed = 0;
  for (const Event& e : *events) {
    if (const auto* end = std::get_if<AttemptEnd>(&e); end && end->status == "failed") {
      ++failed;
      EXPECT_EQ(end->stderr_tail, "oops\n");
      EXPECT_NE(end->error->find("exited with code 3"), std::string::npos);
    }
  }
  EXPECT_EQ(failed, 10);
  const auto& end = std::get<JobEnd>(events->back());
  EXPECT_EQ(end.status, "failed");
  EXPECT_FALSE(end.sojourn.has_value());  // its maps never all finished
}

}  // namespace
}  // namespace mr::trace
