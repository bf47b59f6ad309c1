// Counters end to end on a real cluster: word count's user counter (wordcount.words,
// every word its mappers read) reaches `mr status --json`, the `mr status JOB` detail and
// the trace's job_end, and each map's attempt_end carries its own counters (spills,
// combine, user) that sum to the job's; the combine ratio is the counters' quotient.
#include <regex>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

TEST(CountersTest, UserCounterReachesStatusAndTrace) {
  TempDir tmp("mr-counters-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 512u << 10, 91);
  ClusterProcess cluster(d + "/cluster", 2);
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();
  auto run = Sh(MrBin() + " run wordcount --quiet --input " + d + "/in.txt --output " + d +
                "/wc --reducers 2 --split-size 128KiB" + master);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // What the counter must say: the words in the input, which is also the sum of the counts.
  int64_t words = std::stoll(Sh("tr -cs 'A-Za-z' '\\n' < " + d + "/in.txt | grep -c .").out);
  int64_t counted = std::stoll(Sh("cat " + d + "/wc/part-r-* | awk '{s += $2} END {print s}'").out);
  ASSERT_GT(words, 10000);
  ASSERT_EQ(counted, words);

  auto js = Sh(MrBin() + " status --json job-000001" + master);
  ASSERT_EQ(js.exit_code, 0) << js.err;
  nlohmann::json st = nlohmann::json::parse(js.out);
  const auto& c = st.at("counters");
  EXPECT_EQ(c.value("user.wordcount.words", int64_t{-1}), words) << c.dump();
  ASSERT_GT(c.value("combine.records_in", int64_t{0}), 0);
  EXPECT_DOUBLE_EQ(st.at("combine_ratio").get<double>(),
                   static_cast<double>(c.at("combine.records_out").get<int64_t>()) /
                       static_cast<double>(c.at("combine.records_in").get<int64_t>()));

  auto detail = Sh(MrBin() + " status job-000001" + master);
  ASSERT_EQ(detail.exit_code, 0) << detail.err;
  EXPECT_TRUE(std::regex_search(detail.out, std::regex("\n  user\\.wordcount\\.words +" + std::to_string(words) +
                                                       "\n")))
      << detail.out;
  EXPECT_TRUE(std::regex_search(detail.out, std::regex(R"(\n  combine ratio +[0-9]\.[0-9]{3} \(combine)")))
      << detail.out;

  int64_t from_attempts = 0, spills = -1, job_end = -1;
  int maps = 0;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) {
    if (e.at("event") == "job_end") job_end = e.at("counters").value("user.wordcount.words", int64_t{-1});
    if (e.at("event") != "attempt_end" || e.at("status") != "ok" || e.at("task").get<std::string>()[0] != 'm') {
      continue;
    }
    maps++;
    ASSERT_TRUE(e.contains("counters")) << e.dump();
    const auto& ac = e.at("counters");
    from_attempts += ac.value("user.wordcount.words", int64_t{0});
    EXPECT_TRUE(ac.contains("combine.records_in")) << ac.dump();
    spills = std::max<int64_t>(spills, ac.value("map.spills", int64_t{-1}));
    // Records and bytes are fields of the event, not repeated among its counters.
    EXPECT_FALSE(ac.contains("map.records_in")) << ac.dump();
  }
  EXPECT_GE(maps, 4);
  EXPECT_EQ(from_attempts, words);
  EXPECT_GE(spills, 0);
  EXPECT_EQ(job_end, words);
}

}  // namespace
}  // namespace mr::testing
