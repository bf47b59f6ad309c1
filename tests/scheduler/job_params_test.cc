// The per-job parameters' table (scheduler/job_params.h): its rows are well-formed, their
// defaults are the struct's, and Validate and SetJobParam speak the words `mr run` always has.
#include "scheduler/job_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <limits>
#include <set>
#include <string>

namespace mr::sched {
namespace {

TEST(JobParamsTest, EveryRowSetsExactlyTheMemberOfItsType) {
  std::set<std::string> keys, flags;
  for (const JobParamRow& row : JobParamTable()) {
    SCOPED_TRACE(row.key);
    EXPECT_TRUE(keys.insert(row.key).second) << "key twice";
    EXPECT_NE(row.name, nullptr);
    EXPECT_TRUE(flags.insert(row.flag).second) << "flag twice";
    EXPECT_NE(row.help, nullptr);
    ASSERT_NE(row.default_text, nullptr);
    const int members =
        (row.text != nullptr) + (row.number != nullptr) + (row.on != nullptr) + (row.count != nullptr);
    EXPECT_EQ(members, 1);
    if (row.choices != nullptr) {
      EXPECT_EQ(row.type, JobParamType::kText) << "choices name texts";
    }
    switch (row.type) {
      case JobParamType::kText:
        EXPECT_NE(row.text, nullptr);
        EXPECT_GT(row.hi, 0) << "a text needs a length bound";
        break;
      case JobParamType::kNumber:
      case JobParamType::kBytes:
      case JobParamType::kDuration:
        EXPECT_NE(row.number, nullptr);
        EXPECT_LT(row.lo, row.hi);
        break;
      case JobParamType::kSwitch:
        EXPECT_NE(row.on, nullptr);
        break;
      case JobParamType::kCount:
        EXPECT_NE(row.count, nullptr);
        EXPECT_LT(row.lo, row.hi);
        EXPECT_LE(row.hi, 2147483647.0) << "an int";
        break;
    }
  }
}

// Each row's default, parsed as the command line parses it, is the struct's default: what
// `mr run --help` shows is what a job gets without the flag.
TEST(JobParamsTest, TheRowsDefaultsAreTheStructsDefaults) {
  JobParams parsed;
  parsed.pool = "not the default";
  parsed.weight = 7;
  parsed.hint_map_seconds = parsed.hint_shuffle_bytes = parsed.hint_reduce_seconds = 9;
  parsed.speculative = false;
  parsed.queue = "not the default";
  parsed.metric = "makespan";
  parsed.deadline = 3;
  parsed.sla = "1:1";
  parsed.min_slots = parsed.max_slots = 4;
  for (const JobParamRow& row : JobParamTable()) {
    ASSERT_TRUE(SetJobParam(row, row.default_text, &parsed).ok()) << row.key;
  }
  EXPECT_TRUE(parsed == JobParams{});
  EXPECT_TRUE(JobParams{}.Validate().ok());
}

Status ValidateWith(void (*change)(JobParams&), ParamNames names = ParamNames::kFlag) {
  JobParams p;
  change(p);
  return p.Validate(names);
}

TEST(JobParamsTest, ValidateNamesTheFlagWithTheWordingMrRunHasAlwaysUsed) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  struct Case {
    void (*change)(JobParams&);
    const char* message;
  };
  static double bad;
  const Case cases[] = {
      {[](JobParams& p) { p.weight = 0; }, "--weight must be positive"},
      {[](JobParams& p) { p.weight = -2; }, "--weight must be positive"},
      {[](JobParams& p) { p.weight = 2e6; }, "--weight must be at most 1000000"},
      {[](JobParams& p) { p.hint_map_seconds = -1; }, "--hint-map-seconds must be a finite number >= 0"},
      {[](JobParams& p) { p.hint_shuffle_bytes = 2e18; }, "--hint-shuffle-bytes must be at most 1e+18"},
      {[](JobParams& p) { p.hint_reduce_seconds = bad; }, "--hint-reduce-seconds must be a finite number >= 0"},
      {[](JobParams& p) { p.pool = std::string(300, 'p'); }, "--pool must be at most 256 bytes"},
      {[](JobParams& p) { p.queue = std::string(257, 'q'); }, "--queue must be at most 256 bytes"},
  };
  for (double v : {nan, inf, -inf}) {
    bad = v;
    for (const Case& c : cases) {
      Status s = ValidateWith(c.change);
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.message;
      EXPECT_EQ(s.message(), c.message);
    }
  }
  EXPECT_EQ(ValidateWith([](JobParams& p) { p.weight = std::nan(""); }).message(), "--weight must be positive");
  EXPECT_EQ(ValidateWith([](JobParams& p) { p.weight = 0; }, ParamNames::kKey).message(),
            "'weight' must be positive");
  EXPECT_EQ(ValidateWith([](JobParams& p) { p.hint_reduce_seconds = -1; }, ParamNames::kName).message(),
            "reduce-seconds hint must be a finite number >= 0");
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.weight = 1e6; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.hint_map_seconds = 0; }).ok());
}

const JobParamRow& Row(const char* key) {
  for (const JobParamRow& row : JobParamTable()) {
    if (std::string(row.key) == key) return row;
  }
  ADD_FAILURE() << "no row " << key;
  return JobParamTable()[0];
}

TEST(JobParamsTest, SetJobParamParsesEachTypeAsTheCommandLineWritesIt) {
  JobParams p;
  ASSERT_TRUE(SetJobParam(Row("pool"), "batch", &p).ok());
  EXPECT_EQ(p.pool, "batch");
  ASSERT_TRUE(SetJobParam(Row("queue"), "small", &p).ok());
  EXPECT_EQ(p.queue, "small");
  ASSERT_TRUE(SetJobParam(Row("weight"), "2.5", &p).ok());
  EXPECT_DOUBLE_EQ(p.weight, 2.5);
  ASSERT_TRUE(SetJobParam(Row("hint_shuffle_bytes"), "10MiB", &p).ok());
  EXPECT_DOUBLE_EQ(p.hint_shuffle_bytes, 10 * 1048576.0);
  ASSERT_TRUE(SetJobParam(Row("speculative"), "off", &p).ok());
  EXPECT_FALSE(p.speculative);

  EXPECT_EQ(SetJobParam(Row("speculative"), "maybe", &p).message(), "--speculative must be on or off, not 'maybe'");
  EXPECT_EQ(SetJobParam(Row("weight"), "heavy", &p).message(), "--weight must be a number, not 'heavy'");
  EXPECT_EQ(SetJobParam(Row("weight"), "0", &p).message(), "--weight must be positive");
  EXPECT_EQ(SetJobParam(Row("speculative"), "maybe", &p, ParamNames::kKey).message(),
            "'speculative' must be on or off, not 'maybe'");
  EXPECT_FALSE(SetJobParam(Row("hint_shuffle_bytes"), "lots", &p).ok());

  // A duration: seconds after submission, "+" optional; a count: a whole number.
  for (const char* text : {"90", "90s", "+90s", "1.5m", "+1.5m"}) {
    ASSERT_TRUE(SetJobParam(Row("deadline"), text, &p).ok()) << text;
    EXPECT_DOUBLE_EQ(p.deadline, 90) << text;
  }
  ASSERT_TRUE(SetJobParam(Row("deadline"), "2h", &p).ok());
  EXPECT_DOUBLE_EQ(p.deadline, 7200);
  EXPECT_EQ(SetJobParam(Row("deadline"), "soon", &p).message(), "--deadline must be a duration (90, 90s, 2h), not 'soon'");
  EXPECT_FALSE(SetJobParam(Row("deadline"), "-5", &p).ok());
  ASSERT_TRUE(SetJobParam(Row("min_slots"), "3", &p).ok());
  EXPECT_EQ(p.min_slots, 3);
  EXPECT_EQ(SetJobParam(Row("max_slots"), "2.5", &p).message(),
            "--max-slots must be a whole number in [0, 1000000], not '2.5'");
  EXPECT_FALSE(SetJobParam(Row("max_slots"), "-1", &p).ok());
  EXPECT_FALSE(SetJobParam(Row("max_slots"), "99999999999", &p).ok());
}

// FLEX's fields checked across each other, in the words of each way of naming them.
TEST(JobParamsTest, ContradictoryFlexCombinationsAreOneLineErrors) {
  struct Case {
    void (*change)(JobParams&);
    const char* flag;  // the message with ParamNames::kFlag
    const char* key;   // with ParamNames::kKey
  };
  const Case cases[] = {
      {[](JobParams& p) { p.metric = "speed"; },
       "--metric: unknown metric 'speed' (one of: response-time, weighted-response-time, stretch, makespan, "
       "max-stretch, tardy-jobs, weighted-tardy-jobs, tardiness, max-tardiness, lateness, max-lateness, sla)",
       nullptr},
      {[](JobParams& p) { p.metric = "tardiness"; }, "--metric tardiness needs --deadline",
       "'metric' tardiness needs 'deadline'"},
      {[](JobParams& p) { p.metric = "max-lateness"; }, "--metric max-lateness needs --deadline", nullptr},
      {[](JobParams& p) { p.metric = "tardy-jobs"; }, "--metric tardy-jobs needs --deadline", nullptr},
      {[](JobParams& p) { p.metric = "sla"; }, "--metric sla needs --sla", "'metric' sla needs 'sla'"},
      {[](JobParams& p) { p.sla = "30:1,20:2"; }, "--sla: SLA pseudo-deadlines must increase: 30 then 20", nullptr},
      {[](JobParams& p) { p.sla = "30:2,40:1"; }, "--sla: SLA penalties must increase: 2 then 1", nullptr},
      {[](JobParams& p) { p.sla = "0:1"; },
       "--sla: pseudo-deadlines are seconds after submission, so must be > 0, got 0", nullptr},
      {[](JobParams& p) { p.min_slots = 5, p.max_slots = 3; }, "--min-slots 5 is above --max-slots 3",
       "'min_slots' 5 is above 'max_slots' 3"},
      {[](JobParams& p) { p.min_slots = -1; }, "--min-slots must be a whole number >= 0", nullptr},
  };
  for (const Case& c : cases) {
    Status s = ValidateWith(c.change);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.flag;
    EXPECT_EQ(s.message(), c.flag);
    if (c.key != nullptr) {
      EXPECT_EQ(ValidateWith(c.change, ParamNames::kKey).message(), c.key);
    }
  }
  EXPECT_EQ(ValidateWith([](JobParams& p) { p.metric = "tardiness"; }, ParamNames::kName).message(),
            "metric tardiness needs deadline");
  // What each metric needs, given, is fine; a deadline or SLA with another metric is allowed
  // (the experiment report judges every metric), and so is a minimum with no maximum.
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.metric = "tardiness", p.deadline = 60; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.metric = "sla", p.sla = "30:1,60:2"; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.metric = "stretch", p.deadline = 60, p.sla = "9:1"; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.min_slots = 5; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.min_slots = 3, p.max_slots = 3; }).ok());
  EXPECT_TRUE(ValidateWith([](JobParams& p) { p.deadline = 60; }).ok()) << "the metric may be the cluster's";
}

// docs/jobs.md's table of per-job parameters lists every row (step 4 of "Adding a per-job
// parameter"), with its key.
TEST(JobParamsTest, TheDocsListEveryParameter) {
  const char* root = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(root, nullptr) << "run through ctest";
  std::ifstream in(std::string(root) + "/docs/jobs.md");
  ASSERT_TRUE(in) << "docs/jobs.md";
  std::stringstream text;
  text << in.rdbuf();
  for (const JobParamRow& row : JobParamTable()) {
    const std::string line_start = std::string("| `--") + row.flag + " ";
    const size_t at = text.str().find(line_start);
    ASSERT_NE(at, std::string::npos) << "docs/jobs.md has no row for --" << row.flag;
    const std::string line = text.str().substr(at, text.str().find('\n', at) - at);
    EXPECT_NE(line.find(std::string("`") + row.key + "`"), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace mr::sched
