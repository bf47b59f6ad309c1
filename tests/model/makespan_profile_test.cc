// A job's ARIA profile measured from a small hand-written trace (profile_extract.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "model/makespan/profile_extract.h"
#include "trace/reader.h"

namespace mr::model {
namespace {

// 3 maps and 2 reduces, one reduce slot: r-00000 is the first wave, r-00001 a later one that
// fetched m-00002's partition again inside its slot. m-00001's first attempt failed.
constexpr const char* kTrace = R"(
{"event":"job_submit","job":"job-000007","t":99.5,"name":"sortjob","kind":"synthetic","maps":3,"reduces":2}
{"event":"attempt_start","job":"job-000007","t":100.0,"task":"m-00000","attempt":1,"worker":1,"slot":"map"}
{"event":"attempt_start","job":"job-000007","t":100.0,"task":"m-00001","attempt":1,"worker":2,"slot":"map"}
{"event":"attempt_end","job":"job-000007","t":104.0,"task":"m-00000","attempt":1,"worker":1,"start":100.0,"status":"ok","bytes_in":1000,"bytes_out":300}
{"event":"attempt_end","job":"job-000007","t":105.0,"task":"m-00001","attempt":1,"worker":2,"start":100.0,"status":"failed","bytes_in":400}
{"event":"reduce_place","job":"job-000007","t":104.1,"task":"r-00000","worker":1,"maps_done":1}
{"event":"reduce_place","job":"job-000007","t":104.1,"task":"r-00001","worker":2,"maps_done":1}
{"event":"fetch_end","job":"job-000007","t":104.2,"task":"r-00000","map":"m-00000","status":"ok","bytes":150}
{"event":"fetch_end","job":"job-000007","t":104.3,"task":"r-00001","map":"m-00000","status":"ok","bytes":150}
{"event":"attempt_start","job":"job-000007","t":104.0,"task":"m-00002","attempt":1,"worker":1,"slot":"map"}
{"event":"attempt_end","job":"job-000007","t":108.0,"task":"m-00001","attempt":2,"worker":2,"start":105.0,"status":"ok","bytes_in":1000,"bytes_out":300}
{"event":"fetch_end","job":"job-000007","t":108.3,"task":"r-00000","map":"m-00001","status":"ok","bytes":150}
{"event":"fetch_end","job":"job-000007","t":108.4,"task":"r-00001","map":"m-00001","status":"ok","bytes":150}
{"event":"attempt_end","job":"job-000007","t":110.0,"task":"m-00002","attempt":1,"worker":1,"start":104.0,"status":"ok","bytes_in":500,"bytes_out":200}
{"event":"maps_done","job":"job-000007","t":110.05,"sojourn":10.55}
{"event":"fetch_end","job":"job-000007","t":110.5,"task":"r-00001","map":"m-00002","status":"ok","bytes":100}
{"event":"fetch_end","job":"job-000007","t":111.0,"task":"r-00000","map":"m-00002","status":"ok","bytes":100}
{"event":"fetch_end","job":"job-000007","t":112.0,"task":"r-00000","map":"m-00002","status":"failed"}
{"event":"attempt_end","job":"job-000007","t":116.0,"task":"r-00000","attempt":1,"worker":1,"start":111.2,"status":"ok","bytes_out":40}
{"event":"fetch_end","job":"job-000007","t":117.0,"task":"r-00001","map":"m-00002","status":"ok","bytes":100}
{"event":"attempt_end","job":"job-000007","t":120.0,"task":"r-00001","attempt":1,"worker":2,"start":116.1,"status":"ok","bytes_out":60}
{"event":"job_end","job":"job-000007","t":120.1,"status":"ok","response_time":20.6}
)";

std::vector<trace::Event> Events(const std::string& text) {
  Result<std::vector<trace::Event>> events = trace::ParseTraceLines(text);
  EXPECT_TRUE(events.ok()) << events.status().ToString();
  return events.ok() ? *events : std::vector<trace::Event>{};
}

TEST(ProfileExtractTest, TheHandWrittenTrace) {
  Result<JobProfile> p = ExtractProfile(Events(kTrace));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->name, "sortjob");
  EXPECT_EQ(p->maps, 3);
  EXPECT_EQ(p->reduces, 2);
  // Maps, each its successful attempt: 104 − 100 = 4, 108 − 105 = 3, 110 − 104 = 6.
  EXPECT_NEAR(p->map.avg, 13.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(p->map.max, 6);
  // Reduces: 116 − 111.2 = 4.8 and 120 − 116.1 = 3.9.
  EXPECT_NEAR(p->reduce.avg, 4.35, 1e-12);
  EXPECT_NEAR(p->reduce.max, 4.8, 1e-12);
  // M_end = 110. r-00000 started (111.2) before the first reduce end (116): first wave, its
  // last ok fetch at 111 (the failed one at 112 does not count): Sh1 = 111 − 110 = 1.
  EXPECT_NEAR(p->first_shuffle.avg, 1, 1e-12);
  EXPECT_NEAR(p->first_shuffle.max, 1, 1e-12);
  // r-00001 started at 116.1, after 116: a later wave; its last fetch ended at 117, in its
  // slot: Sh_typ = 117 − 116.1 = 0.9.
  EXPECT_NEAR(p->typical_shuffle.avg, 0.9, 1e-12);
  EXPECT_NEAR(p->typical_shuffle.max, 0.9, 1e-12);
  // Bytes of the successful attempts only: 1000 + 1000 + 500 in, 300 + 300 + 200 shuffled,
  // 40 + 60 out.
  EXPECT_EQ(p->input_bytes, 2500u);
  EXPECT_EQ(p->shuffle_bytes, 800u);
  EXPECT_EQ(p->output_bytes, 100u);
  // Measured: maps 100 → 110, reduces 110 → 120.
  EXPECT_NEAR(p->measured_map_stage, 10, 1e-12);
  EXPECT_NEAR(p->measured_reduce_stage, 10, 1e-12);
}

TEST(ProfileExtractTest, OneWaveHasNoTypicalShuffle) {
  // Both reduces start before either ends: one wave; Sh1 from both.
  std::string text = kTrace;
  const std::string late = R"("start":116.1,"status":"ok","bytes_out":60})";
  text.replace(text.find(late), late.size(), R"("start":111.5,"status":"ok","bytes_out":60})");
  Result<JobProfile> p = ExtractProfile(Events(text));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Sh1: r-00000 1, r-00001 117 − 110 = 7.
  EXPECT_NEAR(p->first_shuffle.avg, 4, 1e-12);
  EXPECT_NEAR(p->first_shuffle.max, 7, 1e-12);
  EXPECT_DOUBLE_EQ(p->typical_shuffle.max, 0);
}

TEST(ProfileExtractTest, RefusesWhatIsNotAProfile) {
  std::string failed = kTrace;
  failed.replace(failed.find(R"("status":"ok","response_time")"), 13, R"("status":"failed")");
  EXPECT_EQ(ExtractProfile(Events(failed)).status().message(), "job-000007: the job ended failed, not ok");
  std::string unfinished = kTrace;
  unfinished.erase(unfinished.find(R"({"event":"job_end")"));
  EXPECT_EQ(ExtractProfile(Events(unfinished)).status().message(),
            "job-000007: no job_end: the job has not finished");
  std::string no_start = kTrace;
  const std::string s = R"("start":104.0,"status":"ok","bytes_in":500)";
  no_start.replace(no_start.find(s), s.size(), R"("status":"ok","bytes_in":500)");
  EXPECT_EQ(ExtractProfile(Events(no_start)).status().message(),
            "job-000007: attempt_end without a numeric 'start'");
  EXPECT_EQ(ExtractProfileFromFile("no-such-trace.jsonl").status().code(), StatusCode::kNotFound);
}

TEST(ProfileExtractTest, FromAFile) {
  {
    std::ofstream f("job.jsonl");
    f << kTrace;
  }
  Result<JobProfile> p = ExtractProfileFromFile("job.jsonl");
  std::remove("job.jsonl");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->maps, 3);
}

}  // namespace
}  // namespace mr::model
