#include "jobs/subprocess.h"

#include <gtest/gtest.h>

namespace mr::jobs {
namespace {

std::vector<std::string> Filter(const std::string& cmd, std::string_view input, Status* s) {
  std::vector<std::string> lines;
  *s = RunFilter(cmd, input, [&](std::string_view l) { lines.emplace_back(l); });
  return lines;
}

TEST(RunFilterTest, PassesLinesThrough) {
  Status s;
  auto lines = Filter("cat", "a\n\nb c\nlast", &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "", "b c", "last"}));
}

TEST(RunFilterTest, LargeInputAndOutputDoNotDeadlock) {
  // Far more than a pipe buffer in both directions at once.
  std::string input;
  for (int i = 0; i < 200000; ++i) input += "line " + std::to_string(i) + "\n";
  Status s;
  auto lines = Filter("cat", input, &s);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(lines.size(), 200000u);
  EXPECT_EQ(lines.back(), "line 199999");
}

TEST(RunFilterTest, NonZeroExitNamesCommandAndCode) {
  Status s;
  Filter("cat >/dev/null; exit 3", "x\n", &s);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("exit 3"), std::string::npos);
  EXPECT_NE(s.message().find("code 3"), std::string::npos);
}

TEST(RunFilterTest, ChildThatIgnoresStdinIsNotKilledBySigpipe) {
  std::string input(4 << 20, 'x');
  Status s;
  auto lines = Filter("echo done", input, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lines, std::vector<std::string>{"done"});
}

}  // namespace
}  // namespace mr::jobs
