// Hadoop Streaming's command line read into `mr run streaming`, hdfs:// names, counters.
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hadoop/hdfs_paths.h"
#include "hadoop/job_output.h"
#include "common/file_util.h"
#include "hadoop/streaming_args.h"
#include "jobs/streaming_conf.h"

namespace mr::hadoop {
namespace {

bool HasPair(const std::vector<std::string>& v, const std::string& a, const std::string& b) {
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i] == a && v[i + 1] == b) return true;
  }
  return false;
}

class StreamingArgsTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("MR_HDFS_ROOT", "/srv/hdfs", 1); }
  void TearDown() override { ::unsetenv("MR_HDFS_ROOT"); }
};

TEST_F(StreamingArgsTest, HdfsNamesMapToTheRoot) {
  EXPECT_EQ(*LocalPath("hdfs:///user/a/in"), "/srv/hdfs/user/a/in");
  EXPECT_EQ(*LocalPath("hdfs://namenode:8020/user/a"), "/srv/hdfs/user/a");
  EXPECT_EQ(*LocalPath("hdfs:/x"), "/srv/hdfs/x");
  EXPECT_EQ(*LocalPath("file:///tmp/x"), "/tmp/x");
  EXPECT_EQ(*LocalPath("rel/x"), "rel/x");
  auto s3 = LocalPath("s3://bucket/key");
  ASSERT_FALSE(s3.ok());
  EXPECT_NE(s3.status().message().find("s3://"), std::string::npos);
}

TEST_F(StreamingArgsTest, GenericAndStreamingOptionsBecomeMrRunFlags) {
  auto inv = ParseStreamingArgs({"-D", "mapreduce.job.name=wc", "-Dmapreduce.job.queuename=batch", "-input",
                                 "hdfs:///in/a,hdfs:///in/b", "-output", "hdfs:///out", "-mapper", "python3 m.py",
                                 "-reducer", "org.apache.hadoop.mapred.lib.IdentityReducer", "-numReduceTasks", "3",
                                 "-cmdenv", "K=V", "-verbose"});
  ASSERT_TRUE(inv.ok()) << inv.status().ToString();
  const auto& a = inv->run_args;
  EXPECT_EQ(a.front(), "streaming");
  EXPECT_TRUE(HasPair(a, "--dialect", "hadoop"));
  EXPECT_TRUE(HasPair(a, "--mapper", "python3 m.py"));
  EXPECT_TRUE(std::find(a.begin(), a.end(), "--reducer") == a.end()) << "IdentityReducer: no reducer command";
  EXPECT_TRUE(HasPair(a, "--input", "/srv/hdfs/in/a"));
  EXPECT_TRUE(HasPair(a, "--input", "/srv/hdfs/in/b"));
  EXPECT_TRUE(HasPair(a, "--output", "/srv/hdfs/out"));
  EXPECT_TRUE(HasPair(a, "--reducers", "3"));
  EXPECT_TRUE(HasPair(a, "--name", "wc"));
  EXPECT_TRUE(HasPair(a, "--pool", "batch"));
  EXPECT_TRUE(HasPair(a, "--cmdenv", "K=V"));
  EXPECT_EQ(inv->output, "/srv/hdfs/out");
}

// -numReduceTasks 0 and -reducer NONE are a map-only job: mr run --reducers 0.
TEST_F(StreamingArgsTest, MapOnlyJobs) {
  for (const auto& extra : std::vector<std::vector<std::string>>{{"-numReduceTasks", "0"}, {"-reducer", "NONE"}}) {
    std::vector<std::string> args = {"-input", "/in", "-output", "/out", "-mapper", "cat"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto inv = ParseStreamingArgs(args);
    ASSERT_TRUE(inv.ok()) << inv.status().ToString();
    EXPECT_TRUE(HasPair(inv->run_args, "--reducers", "0")) << extra[0];
  }
}

TEST_F(StreamingArgsTest, RefusalsNameTheOption) {
  const std::vector<std::string> base = {"-input", "/in", "-output", "/out", "-mapper", "cat"};
  auto refused = [&](std::vector<std::string> extra, const std::string& named) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = ParseStreamingArgs(args);
    EXPECT_FALSE(r.ok()) << named;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find(named), std::string::npos) << r.status().message();
    }
  };
  refused({"-libjars", "x.jar"}, "-libjars");
  refused({"-archives", "a.zip"}, "-archives");
  refused({"-conf", "site.xml"}, "-conf");
  refused({"-io", "typedbytes"}, "typedbytes");
  refused({"-nosuch"}, "-nosuch");
  refused({"-mapdebug", "x"}, "-mapdebug");
  refused({"-D", "mapreduce.map.speculative=false", "-D", "mapreduce.reduce.speculative=true"}, "speculative");
  auto missing = ParseStreamingArgs({"-input", "/in", "-mapper", "cat"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("-output"), std::string::npos);
}

// Hadoop's job client's counters record, which mrjob parses: a log4j line, then groups at
// one tab and counters at two.
TEST(JobOutputTest, CountersAsHadoopsJobClientLogsThem) {
  std::ostringstream err;
  PrintCounters({{"map.records_in", 3}, {"user.WordCount,Lines", 3}, {"map.work_ms", 7}}, 0, err);
  const std::string s = err.str();
  const std::string tail = " INFO mapreduce.Job: Counters: 3\n\tMap-Reduce Framework\n\t\tMap input records=3\n"
                           "\tWordCount\n\t\tLines=3\n\tmrlab\n\t\tmap.work_ms=7\n";
  ASSERT_GE(s.size(), tail.size());
  EXPECT_EQ(s.substr(s.size() - tail.size()), tail);
}

// docs/streaming.md names every option and property the tables know, and what mrlab does.
TEST(StreamingDocsTest, EveryOptionAndPropertyIsDocumented) {
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  auto doc = ReadFileToString(std::string(src) + "/docs/streaming.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  for (const StreamingOption& o : StreamingOptions()) {
    EXPECT_NE(doc->find("| `-" + std::string(o.name)), std::string::npos) << "-" << o.name;
  }
  for (const jobs::HadoopProperty& p : jobs::HadoopProperties()) {
    EXPECT_NE(doc->find("| `" + std::string(p.name) + "`"), std::string::npos) << p.name;
    if (p.deprecated != nullptr) {
      EXPECT_NE(doc->find("`" + std::string(p.deprecated) + "`"), std::string::npos) << p.deprecated;
    }
  }
}

}  // namespace
}  // namespace mr::hadoop
