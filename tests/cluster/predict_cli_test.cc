// `mr model predict` on a real recorded run: three small synthetic jobs under fifo on a
// local two-worker cluster, then the master's traces replayed under fifo (a prediction: every
// job, its measured and predicted response, the error summary) and under maxsrpt (a
// what-if). The errors are printed for the record, not asserted: a unit test holds no
// timing bound (docs/experiments.md, "Replay", has the measured ones).
#include <iostream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(PredictCliTest, ReplaysARecordedFifoRun) {
  TempDir tmp("mr-predict-cli-test");
  const std::string d = tmp.path();
  ClusterProcess cluster(d + "/cluster", 2,
                         "--policy fifo --map-slots 1 --reduce-slots 1 --shuffle-bandwidth 20MB/s");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();
  for (int i = 1; i <= 3; ++i) {
    auto submit = Sh(MrBin() + " submit synthetic --maps " + std::to_string(2 + i) +
                     " --map-seconds 0.3 --map-bytes 2MB --reducers 1 --reduce-seconds 0.1" +
                     " --hint-map-seconds " + std::to_string(0.3 * (2 + i)) + " --output " + d + "/out" +
                     std::to_string(i) + master);
    ASSERT_EQ(submit.exit_code, 0) << submit.err;
  }
  for (const char* job : {"job-000001", "job-000002", "job-000003"}) {
    ASSERT_TRUE(WaitForStatus(cluster.address(), job,
                              [](const nlohmann::json& j) { return j.value("state", "") == "SUCCEEDED"; }, 120))
        << job;
  }
  const std::string predict = MrBin() + " model predict --trace " + d + "/cluster/state" +
                              " --workers 2 --map-slots 1 --reduce-slots 1 --shuffle-bandwidth ";

  auto own = Sh(predict + "20MB/s --policy fifo");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  std::vector<std::string> lines = Lines(own.out);
  ASSERT_GE(lines.size(), 5u) << own.out;
  EXPECT_EQ(lines[0], "job,name,arrival,maps,reducers,measured,predicted,error,shuffle_done");
  const std::regex row(R"(job-00000([123]),synthetic,[0-9.]+,([345]),1,[0-9.]+,[0-9.]+,-?[0-9.]+,[0-9.]+)");
  for (int i = 1; i <= 3; ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[i], m, row)) << lines[i];
    EXPECT_EQ(std::stoi(m[1]), i);
    EXPECT_EQ(std::stoi(m[2]), 2 + i);
  }
  EXPECT_EQ(lines[4].rfind("# mode=prediction policy=fifo recorded_policy=fifo jobs=3 excluded=0", 0), 0u)
      << own.out;
  EXPECT_NE(own.out.find("# abs_error_median="), std::string::npos) << own.out;
  std::cout << "recorded fifo run replayed under fifo:\n" << own.out;

  auto fitted = Sh(predict + "measured --policy fifo");
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  EXPECT_NE(fitted.out.find("# shuffle_bandwidth measured from the fetches of 2 source workers"),
            std::string::npos)
      << fitted.out;
  std::cout << "with the measured link rate:\n" << fitted.out;

  // The same cluster described by an experiment file gives the same prediction.
  ASSERT_TRUE(WriteStringToFile(d + "/exp.yaml", R"(name: recorded
cluster:
  workers:
    - {count: 2, map_slots: 1, reduce_slots: 1, shuffle_bandwidth: 20MB/s}
workload: {generator: synthetic, params: {jobs: 3, load: 0.5, max_seconds: 1m}}
policies: [fifo]
)").ok());
  const std::string from_file = MrBin() + " model predict --trace " + d + "/cluster/state --cluster-from " + d +
                                "/exp.yaml --policy fifo";
  auto same = Sh(from_file);
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(same.out, own.out);
  EXPECT_EQ(same.out.find("receiver_links=on"), std::string::npos) << same.out;
  // cluster.receiver_links: on reaches the simulator (its '# cluster:' line says so; local's
  // default is off, above).
  ASSERT_TRUE(WriteStringToFile(d + "/exp-recv.yaml", R"(name: recorded
cluster:
  receiver_links: on
  workers:
    - {count: 2, map_slots: 1, reduce_slots: 1, shuffle_bandwidth: 20MB/s}
workload: {generator: synthetic, params: {jobs: 3, load: 0.5, max_seconds: 1m}}
policies: [fifo]
)").ok());
  auto recv = Sh(MrBin() + " model predict --trace " + d + "/cluster/state --cluster-from " + d +
                 "/exp-recv.yaml --policy fifo");
  ASSERT_EQ(recv.exit_code, 0) << recv.err;
  EXPECT_NE(recv.out.find(" receiver_links=on\n"), std::string::npos) << recv.out;
  auto both = Sh(from_file + " --workers 2");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("give --cluster-from or --workers, not both"), std::string::npos) << both.err;

  auto what_if = Sh(predict + "20MB/s --policy maxsrpt");
  ASSERT_EQ(what_if.exit_code, 0) << what_if.err;
  EXPECT_NE(what_if.out.find("# mode=what-if policy=maxsrpt recorded_policy=fifo jobs=3"), std::string::npos)
      << what_if.out;
  EXPECT_EQ(what_if.out.find("abs_error_median"), std::string::npos) << what_if.out;

  auto bad = Sh(predict + "20MB/s --policy nosuch");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.err.find("nosuch"), std::string::npos) << bad.err;
  auto missing = Sh(MrBin() + " model predict --trace " + d + "/nothing --policy fifo --workers 1 --map-slots 1"
                    " --reduce-slots 1 --shuffle-bandwidth 1MB/s");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find(d + "/nothing"), std::string::npos) << missing.err;
}

TEST(PredictCliTest, ModelHelpListsPredict) {
  auto help = Sh(MrBin() + " model --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("\n  tasksim "), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("\n  predict     replay a recorded run's traces"), std::string::npos) << help.out;
  auto own = Sh(MrBin() + " model predict --help");
  EXPECT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("--cluster-from"), std::string::npos) << own.out;
}

}  // namespace
}  // namespace mr::testing
