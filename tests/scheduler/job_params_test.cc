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
    const int members = (row.text != nullptr) + (row.number != nullptr) + (row.on != nullptr);
    EXPECT_EQ(members, 1);
    switch (row.type) {
      case JobParamType::kText:
        EXPECT_NE(row.text, nullptr);
        EXPECT_GT(row.hi, 0) << "a text needs a length bound";
        break;
      case JobParamType::kNumber:
      case JobParamType::kBytes:
        EXPECT_NE(row.number, nullptr);
        EXPECT_LT(row.lo, row.hi);
        break;
      case JobParamType::kSwitch:
        EXPECT_NE(row.on, nullptr);
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
