// `mr run` / `mr submit`'s job flags (cli/job_options.h): the help lists the same flags with the
// same texts as before the per-job flags were generated from their table (minus the four
// removed stubs), the flags become the JobRequest they say, and the experiment runner's
// request for a job is the spec the flags would have given.
#include "cli/job_options.h"

#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <unistd.h>

#include <ctime>
#include <sstream>

#include "cli/experiment_cluster.h"
#include "common/file_util.h"

namespace mr::cli {
namespace {

// `mr run --help`'s job options as main printed them before the table, with FLEX's terms
// (issue 25) as rows of the per-job parameters' table.
constexpr const char* kJobOptionsHelp =
    "  --job arg                      job: wordcount, sort, grep, synthetic, \n"
    "                                 streaming\n"
    "  -i [ --input ] arg             input files, directories or quoted glob \n"
    "                                 patterns ('data/*.txt': mr expands them, as \n"
    "                                 Hadoop does); in a directory, names starting \n"
    "                                 with '_' or '.' are skipped and subdirectories\n"
    "                                 are read only with --recursive\n"
    "  --recursive                    read input directories' subdirectories too \n"
    "                                 (hidden names skipped)\n"
    "  --input-server arg             HOST:PORT of the data server (mr data-server) \n"
    "                                 on the host that holds the inputs: the master \n"
    "                                 and the workers read them from it, so they \n"
    "                                 need not be on every machine; --input paths \n"
    "                                 are then absolute paths on that host \n"
    "                                 (docs/multi-host.md)\n"
    "  -o [ --output ] arg            output directory (must not exist)\n"
    "  --output-server arg            HOST:PORT of the data server (mr data-server \n"
    "                                 --export-output DIR) on the host where the \n"
    "                                 output directory is to be: the tasks push \n"
    "                                 their parts there and the master commits them \n"
    "                                 there, so no shared file system is needed; \n"
    "                                 --output is then an absolute path on that \n"
    "                                 host, under an exported output directory \n"
    "                                 (docs/multi-host.md, \"Outputs\")\n"
    "  -r [ --reducers ] arg (=1)     number of reduce tasks, 1..10000 (each is a \n"
    "                                 task, a part file and a partition in every \n"
    "                                 map's output: more would be bookkeeping, not \n"
    "                                 work)\n"
    "  --split-size arg (=32MiB)      input split size, at least 4KiB (smaller would\n"
    "                                 turn one input into millions of maps)\n"
    "  --slow-start arg (=0.05)       fraction of maps done before reducers start \n"
    "                                 fetching\n"
    "  --sort-buffer arg (=100MiB)    map-side sort buffer (as Hadoop's io.sort.mb)\n"
    "  --name arg                     job name (default: the job kind)\n"
    "  --pool arg                     fair scheduler pool\n"
    "  --weight arg (=1)              fair scheduler weight\n"
    "  --hint-map-seconds arg (=0)    size hint: total map slot-seconds\n"
    "  --hint-shuffle-bytes arg (=0)  size hint: total shuffle bytes\n"
    "  --hint-reduce-seconds arg (=0) size hint: total reduce slot-seconds (for \n"
    "                                 policies that share unified slots, e.g. asrpt)\n"
    "  --speculative arg (=on)        on: a slow running map or reduce may get a \n"
    "                                 backup attempt on another worker (LATE, \n"
    "                                 docs/speculation.md); off: never\n"
    "  --queue arg                    capacity scheduler queue (--policy capacity; \n"
    "                                 \"\" = the queue named default)\n"
    "  --metric arg                   flex: the metric this job is scheduled for; \"\"\n"
    "                                 = the cluster's --flex-metric (one of: \n"
    "                                 response-time, weighted-response-time, \n"
    "                                 stretch, makespan, max-stretch, tardy-jobs, \n"
    "                                 weighted-tardy-jobs, tardiness, max-tardiness,\n"
    "                                 lateness, max-lateness, sla)\n"
    "  --deadline arg (=0)            flex: the job's deadline, seconds after \n"
    "                                 submission (90, 90s, +90s, 2h; mr run/submit \n"
    "                                 also take an absolute time: \n"
    "                                 2026-05-01T12:00:00Z or @EPOCH_SECONDS); 0 = \n"
    "                                 none\n"
    "  --sla arg                      flex: SLA steps d1:p1,d2:p2,... \n"
    "                                 (pseudo-deadlines in seconds after submission,\n"
    "                                 penalties; both increasing) for --metric sla\n"
    "  --min-slots arg (=0)           flex: at least this many slots in each phase \n"
    "                                 (above the pool's minimum); 0 = none\n"
    "  --max-slots arg (=0)           flex: at most this many slots in each phase; 0\n"
    "                                 = the phase's remaining tasks\n"
    "  --pattern arg                  grep: extended regular expression\n"
    "  --maps arg (=0)                synthetic: number of map tasks\n"
    "  --map-seconds arg              synthetic: CPU seconds per map\n"
    "  --map-bytes arg                synthetic: bytes emitted per map\n"
    "  --reduce-seconds arg           synthetic: CPU seconds per reduce\n"
    "  --seed arg                     synthetic: random seed\n"
    "  --work arg                     synthetic: burn (default): work burns CPU; \n"
    "                                 sleep: a task holds its slot for its work time\n"
    "                                 without CPU, an emulation for clusters with \n"
    "                                 more slots than cores\n"
    "  --mapper arg                   streaming: mapper command (a /bin/sh command \n"
    "                                 line)\n"
    "  --reducer arg                  streaming: reducer command (default: the \n"
    "                                 identity reducer)\n"
    "  --combiner arg                 streaming: combiner command, run on each \n"
    "                                 sorted run of a map's output\n"
    "  --hadoop-conf arg              streaming: Hadoop properties, KEY=VALUE one \n"
    "                                 per line (docs/streaming.md); mr hadoop jar \n"
    "                                 fills it from -D\n"
    "  --cmdenv arg                   streaming: NAME=VALUE for the programs' \n"
    "                                 environment, one per line\n"
    "  --files arg                    streaming: files copied into each task's \n"
    "                                 working directory, PATH[#NAME] one per line\n"
    "  --dialect arg                  streaming: mrlab (default: commands through \n"
    "                                 /bin/sh -c, --split-size splits) or hadoop (as\n"
    "                                 mr hadoop jar: Hadoop Streaming's command \n"
    "                                 splitting and input splits)\n"
    "  --param arg                    extra job parameter KEY=VALUE\n";

TEST(JobOptionsTest, HelpListsTheSameFlagsWithTheSameTexts) {
  po::options_description desc("mr run");
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  std::ostringstream out;
  out << desc;
  EXPECT_EQ(out.str(), std::string("mr run:\n") + kJobOptionsHelp);
}

// Parses `args` (after the subcommand) as `mr run` does.
po::variables_map ParseRun(std::vector<std::string> args) {
  po::options_description desc;
  po::positional_options_description positional;
  AddJobOptions(desc, positional);
  args.insert(args.begin(), "run");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  po::variables_map vm;
  po::store(po::command_line_parser(static_cast<int>(argv.size()), argv.data()).options(desc).positional(positional).run(),
            vm);
  po::notify(vm);
  return vm;
}

Result<jobs::JobRequest> Request(std::vector<std::string> args) { return JobRequestFromFlags(ParseRun(std::move(args))); }

TEST(JobOptionsTest, WithoutFlagsTheRequestHasTheDefaults) {
  Result<jobs::JobRequest> r = Request({"wordcount", "--output", "out"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  jobs::JobRequest defaults;
  EXPECT_EQ(r->job, "wordcount");
  EXPECT_EQ(r->output, "out");
  EXPECT_TRUE(r->inputs.empty());
  EXPECT_FALSE(r->recursive);
  EXPECT_EQ(r->reducers, defaults.reducers);
  EXPECT_EQ(r->split_bytes, defaults.split_bytes);
  EXPECT_DOUBLE_EQ(r->slow_start, defaults.slow_start);
  EXPECT_EQ(r->sort_buffer_bytes, defaults.sort_buffer_bytes);
  EXPECT_EQ(r->name, "");
  EXPECT_TRUE(r->params.empty());
  EXPECT_TRUE(r->scheduling == sched::JobParams{});
}

TEST(JobOptionsTest, FlagsBecomeTheRequestTheySay) {
  Result<jobs::JobRequest> r =
      Request({"synthetic", "-o", "out", "--maps", "3", "--map-bytes", "1KiB", "--reducers", "2", "--split-size",
               "1MiB", "--sort-buffer", "1MiB", "--slow-start", "0.5", "--name", "n", "--pool", "batch", "--weight",
               "2", "--hint-map-seconds", "12.5", "--hint-shuffle-bytes", "10MiB", "--hint-reduce-seconds", "4",
               "--speculative", "off", "--queue", "small", "--param", "seed=7", "--metric", "sla", "--deadline", "+2m", "--sla",
               "30:1,90:5", "--min-slots", "2", "--max-slots", "6"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_maps, 3u);
  EXPECT_EQ(r->params, (jobs::Params{{"map_bytes", "1024"}, {"seed", "7"}}));
  EXPECT_EQ(r->reducers, 2u);
  EXPECT_EQ(r->split_bytes, 1u << 20);
  EXPECT_EQ(r->sort_buffer_bytes, 1u << 20);
  EXPECT_DOUBLE_EQ(r->slow_start, 0.5);
  EXPECT_EQ(r->name, "n");
  sched::JobParams want;
  want.pool = "batch";
  want.weight = 2;
  want.hint_map_seconds = 12.5;
  want.hint_shuffle_bytes = 10 << 20;
  want.hint_reduce_seconds = 4;
  want.speculative = false;
  want.queue = "small";
  want.metric = "sla";
  want.deadline = 120;
  want.sla = "30:1,90:5";
  want.min_slots = 2;
  want.max_slots = 6;
  EXPECT_TRUE(r->scheduling == want);
}

// --deadline: a duration passes through; an absolute time becomes its distance from now.
TEST(JobOptionsTest, AnAbsoluteDeadlineBecomesSecondsAfterNow) {
  const double now = 1777636800;  // 2026-05-01T12:00:00Z
  EXPECT_EQ(*DeadlineAfterSubmission("90s", now), "90s");
  EXPECT_EQ(*DeadlineAfterSubmission("+2h", now), "+2h");
  EXPECT_EQ(*DeadlineAfterSubmission("2026-05-01T12:01:30Z", now), "90");
  EXPECT_EQ(*DeadlineAfterSubmission("2026-05-01T12:02Z", now), "120");
  EXPECT_EQ(*DeadlineAfterSubmission("2026-05-01T14:00:00+02:00", now - 60), "60")
      << "the same instant as 12:00Z, a minute from now";
  EXPECT_EQ(*DeadlineAfterSubmission("2026-05-01T11:30:00-01:00", now), "1800") << "12:30Z";
  EXPECT_EQ(*DeadlineAfterSubmission("@1777637100", now), "300");
  EXPECT_EQ(DeadlineAfterSubmission("@1777636800", now).status().message(), "--deadline @1777636800 is not in the future");
  EXPECT_FALSE(DeadlineAfterSubmission("2026-05-01T12:00:00+2", now).ok());
  EXPECT_FALSE(DeadlineAfterSubmission("2026-13-01T12:00:00Z", now).ok());
  EXPECT_FALSE(DeadlineAfterSubmission("@soon", now).ok());
  // Local time without a zone, as mktime reads it.
  std::tm tm{};
  tm.tm_year = 2026 - 1900, tm.tm_mon = 4, tm.tm_mday = 1, tm.tm_hour = 12, tm.tm_isdst = -1;
  const double local = static_cast<double>(mktime(&tm));
  EXPECT_EQ(*DeadlineAfterSubmission("2026-05-01T12:00:10", local), "10");
}

TEST(JobOptionsTest, FlexFlagsAreCheckedAcrossEachOtherAtTheClient) {
  EXPECT_EQ(Request({"wordcount", "--metric", "tardiness"}).status().message(), "--metric tardiness needs --deadline");
  EXPECT_EQ(Request({"wordcount", "--min-slots", "4", "--max-slots", "2"}).status().message(),
            "--min-slots 4 is above --max-slots 2");
  EXPECT_EQ(Request({"wordcount", "--sla", "9:1,3:2"}).status().message(),
            "--sla: SLA pseudo-deadlines must increase: 9 then 3");
  EXPECT_EQ(Request({"wordcount", "--deadline", "2020-01-01T00:00:00Z"}).status().message(),
            "--deadline 2020-01-01T00:00:00Z is not in the future");
  Result<jobs::JobRequest> abs = Request({"wordcount", "--metric", "tardiness", "--deadline", "@1900000000"});
  ASSERT_TRUE(abs.ok()) << abs.status().ToString();
  EXPECT_GT(abs->scheduling.deadline, 5e7) << "2030-03-17 is years away";
  EXPECT_EQ(Request({"wordcount", "--deadline", "@4102444800"}).status().message(),
            "--deadline must be at most 1000000000")
      << "2100-01-01 is beyond the deadline's range (about 31 years)";
}

TEST(JobOptionsTest, ValuesTheFlagsLibraryCannotCheckAreRefusedWithTheirMessages) {
  EXPECT_EQ(Request({"wordcount", "--speculative", "maybe"}).status().message(),
            "--speculative must be on or off, not 'maybe'");
  EXPECT_EQ(Request({"wordcount", "--param", "novalue"}).status().message(), "--param 'novalue' is not KEY=VALUE");
  EXPECT_FALSE(Request({"wordcount", "--split-size", "lots"}).ok());
  EXPECT_FALSE(Request({"wordcount", "--hint-shuffle-bytes", "lots"}).ok());
}

// `mr run wordcount --reducer 3`: --reducer is streaming's; before, it became a parameter
// wordcount refused with "(known: none)". Now the flag is named as another job's, with the
// nearest flags wordcount takes and its own list.
TEST(JobOptionsTest, AnotherJobsFlagIsRefusedWithTheNearestFlagsOfThisJob) {
  const Status s = Request({"wordcount", "--output", "out", "--reducer", "3"}).status();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "--reducer is a flag of streaming, not of wordcount (did you mean --reducers?); wordcount's own flags: "
            "none (mr help run)");
  const Status m = Request({"grep", "--output", "out", "--maps", "3"}).status();
  EXPECT_NE(m.message().find("--maps is a flag of synthetic, not of grep"), std::string::npos) << m.message();
  // A job's own flag, and a flag shared by all jobs, are taken.
  EXPECT_TRUE(Request({"synthetic", "--output", "out", "--maps", "3"}).ok());
  EXPECT_TRUE(Request({"streaming", "--output", "out", "--reducer", "cat", "--mapper", "cat"}).ok());
}

// Parses `args` as `mr run` does and builds the spec for a cluster of `slots`.
Result<proto::JobSpec> Spec(std::vector<std::string> args, const jobs::ClusterSlots* slots) {
  return BuildJobSpec(ParseRun(std::move(args)), slots);
}

// mr run's embedded cluster: flags left at their defaults follow the input's size and the
// slots; flags the user gave stay as given; without slots (a remote master) nothing changes.
TEST(JobOptionsTest, DefaultSizesFollowTheInputOnAKnownCluster) {
  TempDir dir("mr-job-options-test");
  const std::string in = JoinPath(dir.path(), "big.txt");
  ASSERT_TRUE(WriteFileAtomically(in, "x\n").ok());
  ASSERT_EQ(::truncate(in.c_str(), 512 << 20), 0);  // sparse: no disk used
  const jobs::ClusterSlots slots{2, 2};
  constexpr uint64_t kMiB = 1 << 20;
  Result<proto::JobSpec> s = Spec({"sort", "--input", in, "--output", JoinPath(dir.path(), "o")}, &slots);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->reducers(), 2u);
  EXPECT_EQ(s->split_bytes(), 64 * kMiB);
  EXPECT_EQ(s->sort_buffer_bytes(), 100 * kMiB);
  s = Spec({"sort", "--input", in, "--output", JoinPath(dir.path(), "o"), "--reducers", "1", "--split-size", "128MiB"},
           &slots);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->reducers(), 1u);
  EXPECT_EQ(s->split_bytes(), 128 * kMiB);
  EXPECT_EQ(s->sort_buffer_bytes(), 192 * kMiB);  // follows the user's split
  s = Spec({"sort", "--input", in, "--output", JoinPath(dir.path(), "o")}, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->reducers(), 1u);
  EXPECT_EQ(s->split_bytes(), 32 * kMiB);
  // A small input keeps the fixed defaults even on a known cluster.
  const std::string small = JoinPath(dir.path(), "small.txt");
  ASSERT_TRUE(WriteFileAtomically(small, "b\na\n").ok());
  s = Spec({"sort", "--input", small, "--output", JoinPath(dir.path(), "o")}, &slots);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->reducers(), 1u);
  EXPECT_EQ(s->split_bytes(), 32 * kMiB);
}

// The experiment runner builds its request directly (no argv): the spec is the one the
// `mr submit synthetic` flags it used to print and parse give.
TEST(JobOptionsTest, TheExperimentRunnersRequestIsTheSpecItsFlagsGave) {
  TempDir dir("mr-job-options-test");
  model::TaskJob j;
  j.maps = 4;
  j.map_seconds = 0.25;
  j.map_bytes = 2048;
  j.reducers = 2;
  j.reduce_seconds = 0.5;
  j.params.pool = "p";
  j.params.weight = 3;
  j.params.hint_map_seconds = 1;
  j.params.hint_shuffle_bytes = 8192;
  j.params.hint_reduce_seconds = 1;
  const std::string out = JoinPath(dir.path(), "out");
  Result<proto::JobSpec> direct = jobs::MakeJobSpec(
      ExperimentJobRequest(j, "job-1", out, 0.25, experiment::WorkMode::kSleep, false), jobs::LocalInputs());
  ASSERT_TRUE(direct.ok()) << direct.status().ToString();

  Result<jobs::JobRequest> flags = Request(
      {"synthetic", "--name", "job-1", "--output", out, "--maps", "4", "--map-seconds", "0.25", "--map-bytes", "2048",
       "--reducers", "2", "--reduce-seconds", "0.5", "--slow-start", "0.25", "--hint-map-seconds", "1",
       "--hint-reduce-seconds", "1", "--hint-shuffle-bytes", "8192", "--pool", "p", "--weight", "3", "--work",
       "sleep", "--speculative", "off"});
  ASSERT_TRUE(flags.ok()) << flags.status().ToString();
  Result<proto::JobSpec> parsed = jobs::MakeJobSpec(*flags, jobs::LocalInputs());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*direct, *parsed))
      << direct->DebugString() << "\nvs\n" << parsed->DebugString();
}

}  // namespace
}  // namespace mr::cli
