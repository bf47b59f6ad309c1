// The policy table and its options: rows are well-formed, option values are validated
// against their row, --policy-options files are strict, command-line flags win over a file,
// and docs/policies.md's policy list matches the built-in rows, their traits included.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/file_util.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_table.h"

namespace mr::sched {
namespace {

const PolicyRow& Row(std::string_view name) {
  const PolicyRow* row = FindPolicy(name);
  EXPECT_NE(row, nullptr) << name;
  return *row;
}

TEST(PolicyTableTest, OptionNamesAreUniqueFlagsAndDefaultsAreValid) {
  std::set<std::string> seen = {"policy", kPolicyOptionsFlag};
  for (const PolicyRow& row : PolicyTable()) {
    EXPECT_FALSE(std::string(row.summary).empty()) << row.name;
    for (const OptionSpec& o : row.options) {
      EXPECT_TRUE(seen.insert(o.name).second) << "option name used twice: " << o.name;
      if (o.default_text != nullptr) {
        EXPECT_TRUE(ParseOptionValue(o, o.default_text).ok()) << o.name;
      }
    }
    auto resolved = ResolvePolicyOptions(row.name, {});
    ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  }
}

TEST(PolicyTableTest, TheClassTakesItsNameFromTheRow) {
  for (const PolicyRow& row : PolicyTable()) {
    auto s = CreateScheduler(row.name);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    // The same characters, and the row's own storage: the name is not spelled twice.
    EXPECT_EQ((*s)->name().data(), row.name);
  }
  EXPECT_EQ(DefaultPolicy(), BuiltinPolicies()[0].name);
}

// A trait that names something names what exists: the round option is one of the row's
// options and a duration; the fluid counterpart is checked where the fluid table lives
// (tests/model/policies_test.cc).
TEST(PolicyTableTest, TraitsNameTheRowsOwnOptions) {
  for (const PolicyRow& row : PolicyTable()) {
    if (row.traits.round_option == nullptr) continue;
    const OptionSpec* round = nullptr;
    for (const OptionSpec& o : row.options) {
      if (std::string_view(o.name) == row.traits.round_option) round = &o;
    }
    ASSERT_NE(round, nullptr) << row.name << ": round option " << row.traits.round_option;
    EXPECT_EQ(round->type, OptionType::kDuration) << row.name;
  }
}

TEST(PolicyTableTest, AnOptionThePolicyDoesNotDeclareIsRejected) {
  PolicyOptions o;
  o.SetValue("klps-k", int64_t{3});
  auto s = CreateScheduler("fifo", o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.status().message(), "policy fifo has no option 'klps-k' (its options: none)");
}

TEST(PolicyTableTest, ResolvedOptionsCarryDefaultsAndGivenValues) {
  auto defaults = ResolvePolicyOptions("klps", {});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->Int("klps-k"), 100);
  PolicyOptions given;
  ASSERT_TRUE(given.Set(Row("klps").options[0], "7").ok());
  auto resolved = ResolvePolicyOptions("klps", given);
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->Int("klps-k"), 7);
  auto fair = ResolvePolicyOptions("fair", {});
  ASSERT_TRUE(fair.ok());
  EXPECT_FALSE(fair->Has("pools"));  // no default: absent unless given
}

TEST(PolicyOptionsTest, ValuesAreParsedByTypeAndCheckedAgainstTheRange) {
  const OptionSpec i{"n", OptionType::kInt, "1", "", 1, 10};
  const OptionSpec d{"x", OptionType::kDouble, nullptr, "", 0, 1};
  const OptionSpec b{"buf", OptionType::kBytes, nullptr, "", 1024, 1 << 30};
  const OptionSpec t{"wait", OptionType::kDuration, nullptr, "", 0.1, 60};
  EXPECT_EQ(std::get<int64_t>(ParseOptionValue(i, "10").value()), 10);
  EXPECT_EQ(ParseOptionValue(i, "11").status().message(), "n must be int in 1..10, got '11'");
  EXPECT_FALSE(ParseOptionValue(i, "2.5").ok());
  EXPECT_FALSE(ParseOptionValue(i, "").ok());
  EXPECT_DOUBLE_EQ(std::get<double>(ParseOptionValue(d, "0.25").value()), 0.25);
  EXPECT_EQ(ParseOptionValue(d, "2").status().message(), "x must be double in [0, 1], got '2'");
  EXPECT_EQ(std::get<int64_t>(ParseOptionValue(b, "2KiB").value()), 2048);
  EXPECT_FALSE(ParseOptionValue(b, "1000").ok());
  EXPECT_DOUBLE_EQ(std::get<double>(ParseOptionValue(t, "30s").value()), 30);
}

TEST(PolicyOptionsTest, DurationOutOfRangeNamesTheRange) {
  const OptionSpec t{"wait", OptionType::kDuration, nullptr, "", 0.1, 60};
  EXPECT_DOUBLE_EQ(std::get<double>(ParseOptionValue(t, "1m").value()), 60);
  EXPECT_EQ(ParseOptionValue(t, "2m").status().message(), "wait must be duration in [0.1, 60], got '2m'");
}

TEST(PolicyOptionsFileTest, ReadsNameValueLinesWithComments) {
  auto o = ParsePolicyOptions("# klps settings\n\n  klps-k = 12   # the running-job limit\n", "k.opts", "klps",
                              Row("klps").options);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->Int("klps-k"), 12);
  auto quoted = ParsePolicyOptions("pools = \"/tmp/a #b.txt\"  # quoted keeps the '#'\n", "f.opts", "fair",
                                   Row("fair").options);
  ASSERT_TRUE(quoted.ok()) << quoted.status().ToString();
  EXPECT_EQ(quoted->String("pools"), "/tmp/a #b.txt");
}

TEST(PolicyOptionsFileTest, AnUnknownOptionNamesItTheFileTheLineAndThePolicysOptions) {
  auto o = ParsePolicyOptions("klps-k = 3\npools = x\n", "k.opts", "klps", Row("klps").options);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(o.status().message(), "k.opts:2: policy klps has no option 'pools' (its options: klps-k)");
}

TEST(PolicyOptionsFileTest, ABadValueNamesTheOptionAndTheRange) {
  auto o = ParsePolicyOptions("klps-k = 0\n", "k.opts", "klps", Row("klps").options);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().message(), "k.opts:1: klps-k must be int in 1..2147483647, got '0'");
  EXPECT_EQ(ParsePolicyOptions("klps-k 3\n", "k.opts", "klps", Row("klps").options).status().message(),
            "k.opts:1: expected 'name = value'");
  // A '#' before the '=' comments the '=' out.
  EXPECT_EQ(ParsePolicyOptions("klps-k # = 3\n", "k.opts", "klps", Row("klps").options).status().message(),
            "k.opts:1: expected 'name = value'");
  EXPECT_EQ(ParsePolicyOptions("klps-k = 3\nklps-k = 4\n", "k.opts", "klps", Row("klps").options)
                .status()
                .message(),
            "k.opts:2: klps-k is set twice");
}

TEST(PolicyFlagsTest, FlagsWinOverTheFileAndOtherPoliciesFlagsAreCheckedThenIgnored) {
  TempDir dir("policy-flags");
  std::string file = JoinPath(dir.path(), "k.opts");
  ASSERT_TRUE(WriteStringToFile(file, "klps-k = 5\n").ok());
  auto from_file = PolicyOptionsFromFlags("klps", {{kPolicyOptionsFlag, file}});
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  EXPECT_EQ(from_file->Int("klps-k"), 5);
  auto flag_wins = PolicyOptionsFromFlags("klps", {{kPolicyOptionsFlag, file}, {"klps-k", "9"}});
  ASSERT_TRUE(flag_wins.ok());
  EXPECT_EQ(flag_wins->Int("klps-k"), 9);

  // --pools with --policy klps: accepted (as always) and not passed to klps.
  auto other = PolicyOptionsFromFlags("klps", {{"pools", "/nowhere"}});
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->Has("pools"));
  EXPECT_TRUE(CreateScheduler("klps", *other).ok());
  // ... but still checked against its own row.
  auto bad = PolicyOptionsFromFlags("fifo", {{"klps-k", "0"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "--klps-k must be int in 1..2147483647, got '0'");

  // The file is strict: an option of another policy is an error.
  auto strict = PolicyOptionsFromFlags("fifo", {{kPolicyOptionsFlag, file}});
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().message(), file + ":1: policy fifo has no option 'klps-k' (its options: none)");
  auto missing = PolicyOptionsFromFlags("fifo", {{kPolicyOptionsFlag, file + ".missing"}});
  ASSERT_FALSE(missing.ok());
}

TEST(PolicyFlagsTest, ARelativePathInTheFileIsRelativeToTheFile) {
  TempDir dir("policy-flags");
  ASSERT_TRUE(MakeDirs(JoinPath(dir.path(), "conf")).ok());
  std::string file = JoinPath(dir.path(), "conf/fair.opts");
  ASSERT_TRUE(WriteStringToFile(file, "pools = pools.txt\n").ok());
  auto o = PolicyOptionsFromFlags("fair", {{kPolicyOptionsFlag, file}});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->String("pools"), JoinPath(dir.path(), "conf/pools.txt"));
  ASSERT_TRUE(WriteStringToFile(file, "pools = /etc/mr/pools.txt\n").ok());
  EXPECT_EQ(PolicyOptionsFromFlags("fair", {{kPolicyOptionsFlag, file}})->String("pools"), "/etc/mr/pools.txt");
}

TEST(PolicyFlagsTest, EveryOptionIsAFlagWithThePolicyInItsHelp) {
  std::vector<PolicyFlag> flags = PolicyOptionFlags();
  size_t options = 0;
  for (const PolicyRow& row : PolicyTable()) {
    for (const OptionSpec& o : row.options) {
      ASSERT_LT(options, flags.size());
      EXPECT_EQ(flags[options].name, o.name);
      EXPECT_EQ(flags[options].help, std::string(row.name) + ": " + o.help);
      EXPECT_EQ(flags[options].is_path, o.type == OptionType::kPath);
      ++options;
    }
  }
  ASSERT_EQ(flags.size(), options + 1);
  EXPECT_EQ(flags.back().name, kPolicyOptionsFlag);
  EXPECT_TRUE(IsPolicyPathFlag("pools"));
  EXPECT_TRUE(IsPolicyPathFlag(kPolicyOptionsFlag));
  EXPECT_FALSE(IsPolicyPathFlag("klps-k"));
}

// A row's traits as docs/policies.md's list shows them: what differs from a plain policy.
std::string TraitsText(const PolicyTraits& t) {
  std::vector<std::string> parts;
  if (!t.work_conserving) parts.push_back("not work-conserving");
  if (t.reduces_wait_for_maps) parts.push_back("reduces wait for all maps");
  if (t.memory == RoundMemory::kServiceTurns) parts.push_back("memory: turns");
  if (t.memory == RoundMemory::kOther) parts.push_back("memory: other");
  if (t.fluid != nullptr) parts.push_back("fluid: `" + std::string(t.fluid) + "`");
  if (t.round_option != nullptr) parts.push_back("round: `--" + std::string(t.round_option) + "`");
  if (t.bound == Bound::kSlottedSrpt) parts.push_back("bound: slotted SRPT");
  if (!t.uses_size_estimates) parts.push_back("no size estimates");
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text.empty() ? "none" : text;
}

// The line docs/policies.md's "Policy list" holds for a row.
std::string DocLine(const PolicyRow& row) {
  std::string options;
  for (const OptionSpec& o : row.options) {
    if (!options.empty()) options += "; ";
    options += "`--" + std::string(o.name) + "` " + std::string(OptionTypeName(o.type));
    if (o.default_text != nullptr) options += ", default " + std::string(o.default_text);
    if (!OptionRange(o).empty()) options += ", " + OptionRange(o);
    options += ": " + std::string(o.help);
  }
  return "| `" + std::string(row.name) + "` | " + row.summary + " | " + (options.empty() ? "none" : options) + " | " +
         TraitsText(row.traits) + " |";
}

TEST(PolicyDocsTest, ThePolicyListInDocsMatchesTheTable) {
  auto doc = ReadFileToString(std::string(MR_SOURCE_DIR) + "/docs/policies.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  std::istringstream in(*doc);
  std::string line;
  std::vector<std::string> listed;
  bool in_list = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_list = line == "## Policy list";
    if (in_list && line.rfind("| `", 0) == 0) listed.push_back(line);
  }
  std::vector<std::string> want;
  for (const PolicyRow& row : BuiltinPolicies()) want.push_back(DocLine(row));
  std::string expected;
  for (const std::string& w : want) expected += w + "\n";
  EXPECT_EQ(listed, want) << "docs/policies.md, section \"## Policy list\", should list:\n" << expected;
}

}  // namespace
}  // namespace mr::sched
