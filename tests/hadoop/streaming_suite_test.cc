// Hadoop Streaming jobs written as Hadoop users write them (python3 scripts in
// tests/hadoop/data), each run through `mr hadoop jar hadoop-streaming.jar ...` with the
// command line a Hadoop user types, compared byte for byte with the output Hadoop's
// documented behaviour gives. Each test writes the derivation beside its expected output:
// - splits (FileInputFormat.getSplits, old API): goal = total bytes / mapreduce.job.maps
//   (default 2); split size = max(minsize, min(goal, block size)); a file is cut into
//   splits of that size while remaining / size > 1.1; a line belongs to the split in which
//   the byte before its first byte lies (LineRecordReader: a split skips its first partial
//   line and reads while its position <= its end).
// - partitions: HashPartitioner on Text = (WritableComparator.hashBytes(key) & MAX_INT) % R,
//   hashBytes = 31-hash starting at 1 over the key's signed bytes.
// - keys sort bytewise (Text's comparator); a reducer's line is cut at the first tab
//   (stream.num.reduce.output.key.fields = 1); TextOutputFormat writes key TAB value, so a
//   line without a tab is written "key<TAB>".
// - output files are part-00000 ... (the old API's names).
#include <string>
#include <vector>

#include "tests/hadoop/suite_fixture.h"

namespace mr::testing {
namespace {

constexpr const char* kJar = "jar /opt/hadoop/share/hadoop/tools/lib/hadoop-streaming-3.3.6.jar ";

// Hadoop's HashPartitioner on a Text key (the equation, written from Hadoop's docs).
int TextPartition(const std::string& key, int reducers) {
  int32_t h = 1;
  for (char c : key) h = static_cast<int32_t>(31u * static_cast<uint32_t>(h) + static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c))));
  return (h & 0x7fffffff) % reducers;
}

TEST_F(HadoopSuite, WordCountWithTwoReducersAndCounters) {
  Write("in.txt", "apple banana apple\ncherry banana apple\ndate\n");
  auto r = Hadoop(std::string(kJar) +
                  "-files wc_mapper.py,wc_reducer.py -input in.txt -output out -mapper wc_mapper.py "
                  "-reducer wc_reducer.py -numReduceTasks 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Counts: apple 3, banana 2, cherry 1, date 1; each word to its TextPartition, sorted.
  std::string want[2];
  for (const auto& [w, n] : std::vector<std::pair<std::string, int>>{{"apple", 3}, {"banana", 2}, {"cherry", 1},
                                                                     {"date", 1}}) {
    want[TextPartition(w, 2)] += w + "\t" + std::to_string(n) + "\n";
  }
  EXPECT_EQ(Part("out", 0), want[0]);
  EXPECT_EQ(Part("out", 1), want[1]);
  EXPECT_TRUE(PathExists(d_ + "/out/_SUCCESS"));
  EXPECT_FALSE(PathExists(d_ + "/out/part-r-00000"));
  // reporter:counter:WordCount,Lines,1 once per input line: 3, in Hadoop's Counters block.
  EXPECT_NE(r.err.find(" INFO mapreduce.Job: Counters: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n\tWordCount\n\t\tLines=3\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Map input records=3\n"), std::string::npos) << r.err;
  // The same counter in the job's trace (what mr status and the page show).
  bool in_trace = false;
  for (const auto& e : ReadTrace(d_ + "/out/_trace.jsonl")) {
    if (e.at("event") == "job_end") in_trace = e.at("counters").value("user.WordCount,Lines", 0) == 3;
  }
  EXPECT_TRUE(in_trace);
}

// On a running cluster ($MR_MASTER): the counters and the reducer's reporter:status: line
// ("reduced", written by wc_reducer.py) are what `mr status JOB` shows.
TEST_F(HadoopSuite, CountersAndStatusLineInMrStatus) {
  ClusterProcess cluster(d_ + "/cluster", 2);
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  Write("in.txt", "apple banana apple\ncherry banana apple\ndate\n");
  auto r = Sh("cd " + d_ + " && MR_MASTER=" + cluster.address() + " MR_HDFS_ROOT=" + d_ + "/hdfs " + MrBin() +
              " hadoop " + kJar +
              "-files wc_mapper.py,wc_reducer.py -input in.txt -output out -mapper wc_mapper.py -reducer wc_reducer.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto st = Sh(MrBin() + " status job-000001 --master " + cluster.address());
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_NE(st.out.find("\ntask status:\n  r-00000: reduced\n"), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("user.WordCount,Lines"), std::string::npos) << st.out;
}

// The 6.5840 lab's inverted index: the mapper reads its document's name from
// mapreduce_map_input_file. Three inputs (two in one -input, comma-separated) of 23, 17 and
// 16 bytes: goal 56 / 2 = 28, so each file is one split.
TEST_F(HadoopSuite, InvertedIndexReadsTheInputFileFromTheEnvironment) {
  Write("doc1.txt", "the cat sat\non the mat\n");
  Write("doc2.txt", "the dog\nsat down\n");
  Write("doc3.txt", "a cat and a dog\n");
  auto r = Hadoop(std::string(kJar) +
                  "-files index_mapper.py,index_reducer.py -input doc1.txt,doc2.txt -input doc3.txt -output idx "
                  "-mapper index_mapper.py -reducer index_reducer.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("idx", 0),
            "a\t1 doc3.txt\nand\t1 doc3.txt\ncat\t2 doc1.txt,doc3.txt\ndog\t2 doc2.txt,doc3.txt\n"
            "down\t1 doc2.txt\nmat\t1 doc1.txt\non\t1 doc1.txt\nsat\t2 doc1.txt,doc2.txt\nthe\t2 doc1.txt,doc2.txt\n");
}

// A combiner that does all the aggregation: the output shows each map's sums. words.txt is
// "b a b\nc a\nb b a\n", 16 bytes: goal 16 / 2 = 8, cuts [0,8) and [8,16). "c a" starts at
// 6 (byte 5 in the first split), "b b a" at 10 (byte 9 in the second): map 0 reads
// "b a b", "c a" (a 2, b 2, c 1), map 1 "b b a" (a 1, b 2). The reducer lists the values.
TEST_F(HadoopSuite, CombinerSumsEachMapsSplitAsHadoopCutsIt) {
  Write("words.txt", "b a b\nc a\nb b a\n");
  auto r = Hadoop(std::string(kJar) +
                  "-files wc_mapper.py,sum_combiner.py,list_reducer.py -input words.txt -output comb "
                  "-mapper wc_mapper.py -combiner sum_combiner.py -reducer list_reducer.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("comb", 0), "a\t1,2\nb\t2,2\nc\t1\n");
  // With -D mapreduce.job.maps=1 the whole file is one split: one sum per word.
  auto one = Hadoop(std::string(kJar) +
                    "-D mapreduce.job.maps=1 -files wc_mapper.py,sum_combiner.py,list_reducer.py -input words.txt "
                    "-output comb1 -mapper wc_mapper.py -combiner sum_combiner.py -reducer list_reducer.py");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(Part("comb1", 0), "a\t3\nb\t4\nc\t1\n");
}

// A secondary sort: two key fields, KeyFieldBasedComparator -k1,1 -k2,2nr (first field
// ascending, second numeric descending), KeyFieldBasedPartitioner -k1,1 (the 31-hash of the
// first field's bytes from 0: "x" = 120 -> 0, "y" = 121 -> 1, "w" = 119 -> 1 of 2).
TEST_F(HadoopSuite, SecondarySortWithKeyFields) {
  Write("pairs.txt", "x\t2\tp\nx\t10\tq\ny\t1\tr\nx\t1\ts\ny\t7\tt\nw\t3\tu\n");
  auto r = Hadoop(std::string(kJar) +
                  "-D stream.num.map.output.key.fields=2 "
                  "-D mapreduce.job.output.key.comparator.class=org.apache.hadoop.mapred.lib.KeyFieldBasedComparator "
                  "-D mapreduce.partition.keycomparator.options='-k1,1 -k2,2nr' "
                  "-D mapreduce.partition.keypartitioner.options=-k1,1 "
                  "-partitioner org.apache.hadoop.mapred.lib.KeyFieldBasedPartitioner -numReduceTasks 2 "
                  "-input pairs.txt -output sorted -mapper cat -reducer cat");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("sorted", 0), "x\t10\tq\nx\t2\tp\nx\t1\ts\n");
  EXPECT_EQ(Part("sorted", 1), "w\t3\tu\ny\t7\tt\ny\t1\tr\n");
}

// The task's environment, Hadoop's way: every property with its dots as underscores (-D
// my.property=42 -> my_property), the task's own (ids, split start and length), -cmdenv.
// doc.txt is 23 bytes: cuts [0,11) and [11,23); no -reducer: the identity reducer.
TEST_F(HadoopSuite, TaskEnvironmentAsHadoopSetsIt) {
  Write("doc.txt", "the cat sat\non the mat\n");
  auto r = Hadoop(std::string(kJar) +
                  "-D my.property=42 -cmdenv GREETING=hi -file env_mapper.py -input doc.txt -output env "
                  "-mapper env_mapper.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("env", 0),
            "000000\tmapreduce_task_ismap=true mapreduce_task_partition=0 mapreduce_map_input_start=0 "
            "mapreduce_map_input_length=11 mapreduce_job_id=job_0_0001 mapreduce_task_id=task_0_0001_m_000000 "
            "my_property=42 GREETING=hi\n"
            "000011\tmapreduce_task_ismap=true mapreduce_task_partition=1 mapreduce_map_input_start=11 "
            "mapreduce_map_input_length=12 mapreduce_job_id=job_0_0001 mapreduce_task_id=task_0_0001_m_000001 "
            "my_property=42 GREETING=hi\n"
            "file\tdoc.txt\nfile\tdoc.txt\n");
}

// k-means' step with a side file (-file centroids.txt) and -cmdenv KMEANS_K=2: points
// (0,0) (1,1) (0,1) go to centroid 0 at (0,0), (9,9) (10,10) to centroid 1 at (10,10); the
// third centroid is not used (K=2). New centroids: (1/3, 2/3) and (9.5, 9.5).
TEST_F(HadoopSuite, KMeansStepWithSideFileAndCmdenv) {
  Write("centroids.txt", "0 0\n10 10\n5 5\n");
  Write("points.txt", "0 0\n1 1\n9 9\n0 1\n10 10\n");
  auto r = Hadoop(std::string(kJar) +
                  "-file kmeans_mapper.py -file kmeans_reducer.py -file centroids.txt -cmdenv KMEANS_K=2 "
                  "-input points.txt -output km -mapper kmeans_mapper.py -reducer kmeans_reducer.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("km", 0), "0\t0.333 0.667\n1\t9.500 9.500\n");
}

// Key-only records: a mapper line without a tab is all key, empty value; the identity
// reducer's TextOutputFormat writes "key<TAB>". Sorted bytewise.
TEST_F(HadoopSuite, KeyOnlyRecordsAreWrittenWithATab) {
  Write("doc.txt", "the cat sat\non the mat\n");
  auto r = Hadoop(std::string(kJar) + "-file words_only_mapper.py -input doc.txt -output ko -mapper words_only_mapper.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("ko", 0), "cat\t\nmat\t\non\t\nsat\t\nthe\t\nthe\t\n");
}

// The command is split as Hadoop splits it (quotes group, no shell), from the task's
// directory; a#alias names a shipped file. One line of input: one map, one line out.
TEST_F(HadoopSuite, CommandLinesSplitLikeHadoopAndFileAliases) {
  Write("one.txt", "x\n");
  auto r = Hadoop(std::string(kJar) +
                  "-files echo_args_mapper.py#echo.py -input one.txt -output args "
                  "-mapper \"python3 echo.py 'a b' c\" -D mapreduce.job.maps=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("args", 0), "args\ta b|c\n");
}

// A map-only job (-numReduceTasks 0): each map writes its own records, unsorted, in the
// order its mapper wrote them, to part-0000M. doc.txt is 23 bytes: cuts [0,11) and [11,23)
// ("on the mat" starts at 12, its preceding byte in the second split).
TEST_F(HadoopSuite, MapOnlyJobWritesEachMapsRecordsInOrder) {
  Write("doc.txt", "the cat sat\non the mat\n");
  auto r = Hadoop(std::string(kJar) +
                  "-file words_only_mapper.py -input doc.txt -output mo -mapper words_only_mapper.py "
                  "-numReduceTasks 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("mo", 0), "the\t\ncat\t\nsat\t\n");
  EXPECT_EQ(Part("mo", 1), "on\t\nthe\t\nmat\t\n");
  EXPECT_FALSE(PathExists(d_ + "/mo/part-00002"));
  // -reducer NONE is the same job.
  auto none = Hadoop(std::string(kJar) +
                     "-file words_only_mapper.py -input doc.txt -output mo2 -mapper words_only_mapper.py "
                     "-reducer NONE");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(Part("mo2", 0) + Part("mo2", 1), Part("mo", 0) + Part("mo", 1));
}

// A gzip input is read decompressed, whole (one split): the word count of the plain text.
TEST_F(HadoopSuite, GzipInputIsReadAsHadoopReadsIt) {
  Write("in.txt", "b a b\nc a\nb b a\n");
  ASSERT_EQ(Sh("gzip " + d_ + "/in.txt").exit_code, 0);
  auto r = Hadoop(std::string(kJar) +
                  "-files wc_mapper.py,wc_reducer.py -input in.txt.gz -output gz -mapper wc_mapper.py "
                  "-reducer wc_reducer.py");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Part("gz", 0), "a\t3\nb\t4\nc\t1\n");
}

// What mrlab cannot do is refused by name, exit 2, and nothing is run.
TEST_F(HadoopSuite, UnsupportedOptionsAreRefusedByName) {
  Write("in.txt", "a\n");
  const std::string base = std::string(kJar) + "-input in.txt -output no -mapper cat ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-libjars x.jar", "-libjars"},
      {"-io typedbytes", "-io typedbytes"},
      {"-D mapreduce.output.fileoutputformat.compress=true", "mapreduce.output.fileoutputformat.compress"},
      {"-inputreader StreamXmlRecord", "-inputreader"},
      {"-partitioner com.example.MyPartitioner", "com.example.MyPartitioner"},
      {"-reducer aggregate", "aggregate"},
      {"-lazyOutput", "-lazyOutput"},
      {"-bogus", "-bogus"},
      {"-D mapreduce.job.output.key.comparator.class=com.example.Cmp", "com.example.Cmp"},
  };
  for (const auto& [args, named] : cases) {
    auto r = Hadoop(base + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << "\n" << r.err;
    EXPECT_FALSE(PathExists(d_ + "/no")) << args;
  }
  auto jar = Hadoop("jar hadoop-examples.jar wordcount in.txt out");
  EXPECT_EQ(jar.exit_code, 2);
  EXPECT_NE(jar.err.find("Hadoop Streaming jobs only"), std::string::npos) << jar.err;
}

}  // namespace
}  // namespace mr::testing
