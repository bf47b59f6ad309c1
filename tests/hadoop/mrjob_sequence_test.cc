// mrjob's `-r hadoop` runner on mrlab: the exact sequence of `hadoop` command lines mrjob
// issues for a one-step job (version check; fs calls on hdfs:///user/$USER/tmp/mrjob/...;
// `jar` with -files URI#NAME, -D properties, the key-field partitioner mrjob adds for
// SORT_VALUES, -cmdenv, each task as `/bin/sh -ex setup-wrapper.sh python3 mr_job.py
// --step-num=0 --mapper`; counters read back from stderr's `Counters:` block; the output
// read and the temporary directory removed), run with `hadoop` a script on the PATH that
// runs `mr hadoop`, as an mrjob user would install it. mrjob itself is not needed: the
// commands are written here as mrjob's hadoop runner and filesystem build them.
#include <regex>
#include <string>

#include "tests/hadoop/suite_fixture.h"

namespace mr::testing {
namespace {

TEST_F(HadoopSuite, MrjobHadoopRunnerCommandSequence) {
  // `hadoop` on the PATH: the shim docs/streaming.md tells users to install.
  const char* src = std::getenv("MR_SOURCE_DIR");
  ASSERT_EQ(Sh("mkdir -p " + d_ + "/bin && cp " + std::string(src) + "/scripts/hadoop-shims/hadoop " + d_ +
               "/bin/hadoop && chmod +x " + d_ + "/bin/hadoop")
                .exit_code,
            0);
  const std::string env = "cd " + d_ + " && export PATH=" + d_ + "/bin:$PATH MR_BIN=" + MrBin() +
                          " MR_MASTER= MR_HDFS_ROOT=" + d_ + "/hdfs USER=tester && ";
  auto hadoop = [&](const std::string& args) { return Sh(env + "hadoop " + args); };
  Write("input.txt", "The cat\nthe Dog the\ncat\n");
  const std::string tmp = "hdfs:///user/tester/tmp/mrjob/mr_job.tester.20261128.000000.000000";

  auto version = hadoop("version");
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_TRUE(std::regex_search(version.out, std::regex("^Hadoop (\\S+)"))) << version.out;

  // Uploads: mkdir -p, put, listed back.
  ASSERT_EQ(hadoop("fs -mkdir -p " + tmp + "/files/wd").exit_code, 0);
  ASSERT_EQ(hadoop("fs -put " + d_ + "/mr_job.py " + tmp + "/files/wd/mr_job.py").exit_code, 0);
  ASSERT_EQ(hadoop("fs -put " + d_ + "/setup-wrapper.sh " + tmp + "/files/wd/setup-wrapper.sh").exit_code, 0);
  ASSERT_EQ(hadoop("fs -put " + d_ + "/input.txt " + tmp + "/files/input.txt").exit_code, 0);
  auto ls = hadoop("fs -ls -R " + tmp + "/files");
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_TRUE(std::regex_search(
      "\n" + ls.out, std::regex("\n-rw-r--r--   1 \\S+ \\S+ +24 \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d " + tmp + "/files/input.txt\n")))
      << ls.out;
  auto du = hadoop("fs -du " + tmp + "/files/input.txt");
  EXPECT_EQ(du.out, "24  24  " + tmp + "/files/input.txt\n");
  EXPECT_EQ(hadoop("fs -ls " + tmp + "/output").exit_code, 1);  // mrjob: the output must not exist yet

  // The step, as mrjob writes it (SORT_VALUES: two key fields, partitioned on the first).
  const std::string task = "/bin/sh -ex setup-wrapper.sh python3 mr_job.py --step-num=0";
  auto jar = hadoop("jar /usr/lib/hadoop-mapreduce/hadoop-streaming.jar -files '" + tmp +
                    "/files/wd/mr_job.py#mr_job.py," + tmp + "/files/wd/setup-wrapper.sh#setup-wrapper.sh' " +
                    "-D mapreduce.job.reduces=2 -D mapreduce.partition.keypartitioner.options=-k1,1 " +
                    "-D stream.num.map.output.key.fields=1 -cmdenv PYTHONIOENCODING=utf_8 " +
                    "-partitioner org.apache.hadoop.mapred.lib.KeyFieldBasedPartitioner " + "-input " + tmp +
                    "/files/input.txt -output " + tmp + "/output -mapper '" + task + " --mapper' -combiner '" +
                    task + " --combiner' -reducer '" + task + " --reducer'");
  ASSERT_EQ(jar.exit_code, 0) << jar.err;
  // Counters, as mrjob's parser reads them: "Counters: N", then a group at one indent and
  // its counters, deeper, as NAME=AMOUNT. mr_job.py counted 3 lines.
  EXPECT_TRUE(std::regex_search(jar.err, std::regex("\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d INFO mapreduce.Job: "
                                                    "Counters: \\d+\n")))
      << jar.err;
  EXPECT_NE(jar.err.find("\n\tmr_job\n\t\tlines=3\n"), std::string::npos) << jar.err;
  EXPECT_NE(jar.err.find("INFO streaming.StreamJob: Output directory: " + tmp + "/output\n"), std::string::npos);

  // The output, read back as mrjob does (ls, then cat of each part), and copied out.
  auto out_ls = hadoop("fs -ls " + tmp + "/output");
  ASSERT_EQ(out_ls.exit_code, 0) << out_ls.err;
  EXPECT_NE(out_ls.out.find(tmp + "/output/part-00000\n"), std::string::npos) << out_ls.out;
  EXPECT_NE(out_ls.out.find(tmp + "/output/part-00001\n"), std::string::npos) << out_ls.out;
  auto cat = hadoop("fs -cat " + tmp + "/output/part-*");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  // Keys are JSON strings; KeyFieldBasedPartitioner -k1,1 hashes the first field's bytes
  // (31-hash from 0, signed 32-bit, & MAX_INT, % 2): "cat" with its quotes = 34445870 -> 0,
  // "dog" = 34488712 -> 0, "the" = 34958579 -> 1. Part 0 then part 1, each sorted bytewise.
  EXPECT_EQ(cat.out, "\"cat\"\t2\n\"dog\"\t1\n\"the\"\t3\n");
  ASSERT_EQ(hadoop("fs -copyToLocal " + tmp + "/output/part-00001 " + d_ + "/local-part").exit_code, 0);
  EXPECT_EQ(ReadFile(d_ + "/local-part"), "\"the\"\t3\n");
  ASSERT_EQ(hadoop("fs -touchz " + tmp + "/done").exit_code, 0);
  EXPECT_EQ(hadoop("fs -test -z " + tmp + "/done").exit_code, 0);

  // Cleanup, as mrjob's: rm -R -f -skipTrash; then nothing is left.
  ASSERT_EQ(hadoop("fs -rm -R -f -skipTrash " + tmp).exit_code, 0);
  EXPECT_FALSE(PathExists(d_ + "/hdfs/user/tester/tmp/mrjob/mr_job.tester.20261128.000000.000000"));
  EXPECT_EQ(hadoop("fs -rm -R -f -skipTrash " + tmp).exit_code, 0);  // -f: a missing path is fine
  // An fs option mrlab does not know is refused by name.
  auto bad = hadoop("fs -chmod 755 " + tmp);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-chmod"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace mr::testing
