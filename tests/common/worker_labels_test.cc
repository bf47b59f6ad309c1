// Worker labels (common/worker_labels.h): the KEY=VALUE syntax, the bounds a hostile or
// mistaken input meets (count, lengths, characters, a repeated key), sorting, lookups,
// and that a copy shares the list instead of copying it.
#include "common/worker_labels.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mr {
namespace {

std::string ErrorOf(const std::vector<std::string>& texts) {
  Result<WorkerLabels> r = WorkerLabels::Parse(texts);
  EXPECT_FALSE(r.ok()) << "accepted: " << (r.ok() ? r->ToString() : "");
  return r.ok() ? "" : r.status().message();
}

TEST(WorkerLabelsTest, ParsesSortsByKeyAndLooksUp) {
  auto l = WorkerLabels::Parse({"rack=r1", "class=fast", "zone=eu-west/1a:b"});
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(l->size(), 3u);
  EXPECT_EQ(l->ToString(), "class=fast,rack=r1,zone=eu-west/1a:b");
  std::vector<std::string> keys;
  for (const Label& x : *l) keys.push_back(x.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"class", "rack", "zone"}));
  ASSERT_NE(l->Find("rack"), nullptr);
  EXPECT_EQ(*l->Find("rack"), "r1");
  EXPECT_EQ(l->Find("rac"), nullptr);
  EXPECT_EQ(l->Find("zzz"), nullptr);
  EXPECT_TRUE(l->Has("class", "fast"));
  EXPECT_FALSE(l->Has("class", "slow"));
  EXPECT_FALSE(l->Has("gpu", "fast"));
}

TEST(WorkerLabelsTest, TheFirstEqualsSignSplitsAndTheOrderGivenDoesNotMatter) {
  auto a = WorkerLabels::Parse({"b=2", "a=1"});
  auto b = WorkerLabels::Make({{"a", "1"}, {"b", "2"}});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(*a == *b);
  EXPECT_FALSE(*a == WorkerLabels());
  EXPECT_NE(ErrorOf({"a=b=c"}).find("'a' value 'b=c'"), std::string::npos) << ErrorOf({"a=b=c"});
}

TEST(WorkerLabelsTest, NoneIsEmptyAndAllocatesNothing) {
  WorkerLabels none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), nullptr);
  EXPECT_EQ(none.ToString(), "");
  auto parsed = WorkerLabels::Parse({});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->begin(), nullptr);
}

TEST(WorkerLabelsTest, ACopySharesTheList) {
  auto l = WorkerLabels::Parse({"class=fast"});
  ASSERT_TRUE(l.ok());
  WorkerLabels copy = *l;
  EXPECT_EQ(copy.begin(), l->begin());  // the same storage: no per-label copy per snapshot
  EXPECT_EQ(copy.ToString(), "class=fast");
}

TEST(WorkerLabelsTest, RefusesBadSyntax) {
  EXPECT_NE(ErrorOf({"class"}).find("is not KEY=VALUE"), std::string::npos);
  EXPECT_NE(ErrorOf({"=fast"}).find("empty key"), std::string::npos);
  EXPECT_NE(ErrorOf({"class="}).find("empty value"), std::string::npos);
  EXPECT_NE(ErrorOf({"-class=fast"}).find("starting with a letter or digit"), std::string::npos);
  EXPECT_NE(ErrorOf({"cl ass=fast"}).find("must be letters"), std::string::npos);
  EXPECT_NE(ErrorOf({"class=fa st"}).find("value 'fa st'"), std::string::npos);
  EXPECT_NE(ErrorOf({"class=a,b"}).find("value 'a,b'"), std::string::npos);
  EXPECT_NE(ErrorOf({"k/x=v"}).find("label key 'k/x'"), std::string::npos);  // '/' only in values
  EXPECT_NE(ErrorOf({std::string("k=\x01\xff")}).find("value '?\?'"), std::string::npos);
}

TEST(WorkerLabelsTest, RefusesARepeatedKey) {
  EXPECT_NE(ErrorOf({"class=fast", "rack=1", "class=slow"}).find("'class' given twice"), std::string::npos);
  EXPECT_FALSE(WorkerLabels::Make({{"a", "1"}, {"a", "1"}}).ok());
}

TEST(WorkerLabelsTest, BoundsLengthsAndCount) {
  const std::string k63(63, 'k'), v63(63, 'v');
  auto longest = WorkerLabels::Parse({k63 + "=" + v63});
  ASSERT_TRUE(longest.ok()) << longest.status().ToString();
  EXPECT_NE(ErrorOf({k63 + "k=v"}).find("longer than 63 bytes"), std::string::npos);
  EXPECT_NE(ErrorOf({"k=" + v63 + "v"}).find("longer than 63 bytes"), std::string::npos);
  // A key too long to show is cut in the message, which stays one short line.
  std::string message = ErrorOf({std::string(100000, 'k') + "=v"});
  EXPECT_LT(message.size(), 200u) << message;

  std::vector<std::string> sixteen, seventeen;
  for (int i = 0; i < 17; ++i) (i < 16 ? sixteen : seventeen).push_back("k" + std::to_string(i) + "=v");
  seventeen.insert(seventeen.begin(), sixteen.begin(), sixteen.end());
  EXPECT_TRUE(WorkerLabels::Parse(sixteen).ok());
  EXPECT_NE(ErrorOf(seventeen).find("at most 16 labels per worker, got 17"), std::string::npos);
}

}  // namespace
}  // namespace mr
