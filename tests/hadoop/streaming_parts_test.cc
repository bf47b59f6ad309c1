// The pure parts of Streaming as Hadoop runs it, each against Hadoop's documented rule
// (written here as the equation, not read from mrlab's output): FileInputFormat's cuts,
// splitArgs, the reporter protocol, the partitioners' hashes, KeyFieldBasedComparator's
// order, the task environment's names, Hadoop's byte sizes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "jobs/hadoop_splits.h"
#include "jobs/key_fields.h"
#include "jobs/program_line.h"
#include "jobs/streaming_conf.h"
#include "jobs/streaming_program.h"

namespace mr::jobs {
namespace {

using Cuts = std::vector<std::pair<uint64_t, uint64_t>>;

// While remaining / size > 1.1 a split of `size`; the rest is the last split.
TEST(HadoopCutsTest, SplitSlopOfTenPercent) {
  EXPECT_EQ(HadoopCuts(23, 11), (Cuts{{0, 11}, {11, 12}}));   // 23/11 = 2.09; 12/11 = 1.09
  EXPECT_EQ(HadoopCuts(21, 10), (Cuts{{0, 10}, {10, 11}}));   // 11/10 = 1.1 is not > 1.1
  EXPECT_EQ(HadoopCuts(22, 10), (Cuts{{0, 10}, {10, 10}, {20, 2}}));  // 12/10 = 1.2 > 1.1
  EXPECT_EQ(HadoopCuts(5, 10), (Cuts{{0, 5}}));
  EXPECT_TRUE(HadoopCuts(0, 10).empty());
}

// StreamUtil.splitArgs: spaces outside quotes cut words; quotes group and are dropped.
TEST(SplitCommandLineTest, QuotesGroupWordsWithoutAShell) {
  EXPECT_EQ(SplitCommandLine("python3 m.py 'a b' \"c d\""),
            (std::vector<std::string>{"python3", "m.py", "a b", "c d"}));
  EXPECT_EQ(SplitCommandLine("cat"), (std::vector<std::string>{"cat"}));
  EXPECT_EQ(SplitCommandLine("a  b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(SplitCommandLine("echo $HOME|wc"), (std::vector<std::string>{"echo", "$HOME|wc"}));  // no shell
}

TEST(ReporterLineTest, CountersAndStatus) {
  auto c = ParseReporterLine("reporter:counter:Group A,Name,5", "reporter:");
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->counter);
  EXPECT_EQ(c->group, "Group A");
  EXPECT_EQ(c->name, "Name");
  EXPECT_EQ(c->amount, 5);
  auto s = ParseReporterLine("reporter:status:half way", "reporter:");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->status, "half way");
  EXPECT_FALSE(ParseReporterLine("some log line", "reporter:").has_value());
  auto bad = ParseReporterLine("reporter:counter:G,C,x", "reporter:");
  ASSERT_TRUE(bad.has_value());
  EXPECT_FALSE(bad->counter);
  EXPECT_FALSE(bad->status.has_value());
}

// Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1], as Java's docs define it.
TEST(PartitionerHashTest, JavaAndHadoopHashes) {
  EXPECT_EQ(JavaStringHash("hello"), 99162322);
  EXPECT_EQ(JavaStringHash(""), 0);
  // HashPartitioner on Text: hashBytes = 31-hash from 1; "a" = 31 + 97 = 128 -> 0 of 2,
  // "b" = 129 -> 1 of 2; masked non-negative, modulo R.
  EXPECT_EQ(TextHashPartition("a", 2), 0u);
  EXPECT_EQ(TextHashPartition("b", 2), 1u);
  EXPECT_EQ(TextHashPartition("b", 3), 129u % 3);
  // KeyFieldBasedPartitioner -k1,1: 31-hash from 0 of the first field's bytes.
  auto opts = KeyFieldOptions::Parse("-k1,1", "\t");
  ASSERT_TRUE(opts.ok()) << opts.status().ToString();
  EXPECT_EQ(KeyFieldPartition(&*opts, "x\t2", 2), 120u % 2);
  EXPECT_EQ(KeyFieldPartition(&*opts, "y\t2", 2), 121u % 2);
  EXPECT_EQ(KeyFieldPartition(&*opts, "wy\t2", 7), (119u * 31 + 121) % 7);
}

// KeyFieldBasedComparator -k1,1 -k2,2nr: first field bytewise, second numeric descending;
// the sortable keys sort bytewise in that order and give their keys back.
TEST(SortableKeyTest, OrdersAsTheComparator) {
  auto opts = KeyFieldOptions::Parse("-k1,1 -k2,2nr", "\t");
  ASSERT_TRUE(opts.ok()) << opts.status().ToString();
  std::vector<std::string> keys = {"x\t2", "x\t10", "w\t3", "x\t1", "x\t-4", "w\t20"};
  std::vector<std::string> sortable;
  for (const auto& k : keys) sortable.push_back(SortableKey(*opts, k));
  std::sort(sortable.begin(), sortable.end());
  std::vector<std::string> back;
  for (const auto& s : sortable) back.emplace_back(OriginalKey(s));
  EXPECT_EQ(back, (std::vector<std::string>{"w\t20", "w\t3", "x\t10", "x\t2", "x\t1", "x\t-4"}));
}

// PipeMapRed's environment: every property, its name's non-alphanumerics as '_'.
TEST(StreamingEnvironmentTest, PropertiesAndTaskIds) {
  StreamingConf conf;
  conf.conf.Set("my.property", "42");
  conf.cmdenv = {"GREETING=hi"};
  TaskIdentity t;
  t.job_id = 7;
  t.index = 3;
  t.attempt = 1;
  t.input_path = "/data/in.txt";
  t.input_start = 100;
  t.input_length = 50;
  char* base[] = {nullptr};
  auto env = StreamingEnvironment(conf, t, base);
  auto has = [&env](const std::string& kv) { return std::find(env.begin(), env.end(), kv) != env.end(); };
  EXPECT_TRUE(has("my_property=42"));
  EXPECT_TRUE(has("GREETING=hi"));
  EXPECT_TRUE(has("mapreduce_task_id=task_0_0007_m_000003"));
  EXPECT_TRUE(has("mapreduce_job_id=job_0_0007"));
  EXPECT_TRUE(has("mapreduce_task_ismap=true"));
  EXPECT_TRUE(has("mapreduce_map_input_start=100"));
  EXPECT_TRUE(has("mapreduce_map_input_length=50"));
  EXPECT_EQ(HadoopAttemptId(t), "attempt_0_0007_m_000003_1");
}

TEST(HadoopBytesTest, BinarySuffixes) {
  EXPECT_EQ(*ParseHadoopBytes("128m"), uint64_t{128} << 20);
  EXPECT_EQ(*ParseHadoopBytes("1G"), uint64_t{1} << 30);
  EXPECT_EQ(*ParseHadoopBytes("4096"), 4096u);
  EXPECT_FALSE(ParseHadoopBytes("12x").ok());
}

TEST(StreamingConfTest, RefusedPropertiesAndClassesAreNamed) {
  Params p = {{"mapper", "cat"}, {"dialect", "hadoop"}, {"conf", "mapreduce.output.fileoutputformat.compress=true"}};
  auto c = ParseStreamingConf("streaming", p);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("mapreduce.output.fileoutputformat.compress"), std::string::npos);
  p["conf"] = "mapred.reduce.tasks=3";  // a request property: the dialect hadoop applies it in front
  EXPECT_TRUE(ParseStreamingConf("streaming", p).ok());
  p["dialect"] = "mrlab";
  EXPECT_FALSE(ParseStreamingConf("streaming", p).ok());
}

}  // namespace
}  // namespace mr::jobs
