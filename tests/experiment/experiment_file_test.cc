#include "experiment/experiment_file.h"

#include <gtest/gtest.h>

#include <string>

namespace mr::experiment {
namespace {

constexpr const char* kGood = R"(name: two-groups
cluster:
  workers:
    - {count: 2, map_slots: 2, reduce_slots: 1, speed: 1, shuffle_bandwidth: 20MB/s}
    - {count: 1, map_slots: 1, reduce_slots: 0, speed: 0.5, shuffle_bandwidth: 10MB/s}
  heartbeat_ms: 50
  slow_start: 0.5
workload:
  csv: jobs/day.csv
  seed: 7
  batch: true
policies: [fifo, {policy: klps, label: klps-2, options: {klps-k: 2}}, {policy: klps}]
repetitions: 3
)";

// The text with `from` (which must occur) replaced by `to`.
std::string With(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// Parses `text` and returns the error message ("" when it parsed).
std::string ErrorOf(const std::string& text) {
  Result<Experiment> e = ParseExperiment(text, "/exp/x.yaml");
  if (e.ok()) return "";
  EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument);
  return e.status().message();
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST(ExperimentFileTest, ParsesEverySection) {
  Result<Experiment> e = ParseExperiment(kGood, "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->name, "two-groups");
  EXPECT_EQ(e->source_path, "/exp/x.yaml");
  ASSERT_EQ(e->cluster.groups.size(), 2u);
  EXPECT_EQ(e->cluster.groups[0].count, 2);
  EXPECT_EQ(e->cluster.groups[0].map_slots, 2);
  EXPECT_EQ(e->cluster.groups[0].shuffle_bandwidth, 20e6);
  EXPECT_EQ(e->cluster.groups[1].reduce_slots, 0);
  EXPECT_EQ(e->cluster.groups[1].speed, 0.5);
  EXPECT_EQ(e->cluster.heartbeat_ms, 50u);
  EXPECT_EQ(e->cluster.slow_start, 0.5);
  EXPECT_EQ(e->workload.kind, WorkloadKind::kCsv);
  EXPECT_EQ(e->workload.path, "/exp/jobs/day.csv");  // relative to the experiment file
  EXPECT_EQ(e->workload.seed, 7u);
  EXPECT_TRUE(e->workload.batch);
  ASSERT_EQ(e->policies.size(), 3u);
  EXPECT_EQ(e->policies[0].policy, "fifo");
  EXPECT_EQ(e->policies[0].label, "fifo");
  EXPECT_EQ(e->policies[1].policy, "klps");
  EXPECT_EQ(e->policies[1].label, "klps-2");
  EXPECT_EQ(e->policies[1].options.at("klps-k"), "2");
  EXPECT_EQ(e->policies[2].label, "klps");
  EXPECT_TRUE(e->policies[2].options.empty());
  EXPECT_EQ(e->repetitions, 3);
}

TEST(ExperimentFileTest, DefaultsAndGeneratorParams) {
  Result<Experiment> e = ParseExperiment(R"(name: g
cluster: {workers: [{count: 3}]}
workload: {generator: synthetic, params: {jobs: 5, load: 0.5, max_seconds: 1m}}
policies: [maxsrpt]
)",
                                         "");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->cluster.groups[0].map_slots, 1);
  EXPECT_EQ(e->cluster.groups[0].shuffle_bandwidth, 0);  // unlimited
  EXPECT_EQ(e->cluster.heartbeat_ms, 20u);
  EXPECT_EQ(e->workload.kind, WorkloadKind::kGenerator);
  EXPECT_EQ(e->workload.generator, "synthetic");
  EXPECT_EQ(e->workload.params.at("max_seconds"), "1m");  // kept as typed
  EXPECT_EQ(e->workload.seed, 1u);
  EXPECT_FALSE(e->workload.batch);
  EXPECT_EQ(e->repetitions, 1);
}

TEST(ExperimentFileTest, UnknownKeysNameKeyPathAndLine) {
  std::string m = ErrorOf(With(kGood, "repetitions: 3", "repetitons: 3"));
  EXPECT_CONTAINS(m, "/exp/x.yaml:13: repetitons: unknown key");
  m = ErrorOf(With(kGood, "speed: 0.5", "sped: 0.5"));
  EXPECT_CONTAINS(m, ":5: cluster.workers[1].sped: unknown key");
  EXPECT_CONTAINS(m, "shuffle_bandwidth");  // the known keys are listed
  m = ErrorOf(With(kGood, "  seed: 7", "  sed: 7"));
  EXPECT_CONTAINS(m, ":10: workload.sed: unknown key");
}

TEST(ExperimentFileTest, BadValuesNameKeyPathAndLine) {
  EXPECT_CONTAINS(ErrorOf(With(kGood, "speed: 0.5", "speed: fast")),
                  ":5: cluster.workers[1].speed: must be a number in (0, 1000], got 'fast'");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "speed: 0.5", "speed: 0")), "cluster.workers[1].speed");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "10MB/s", "10 parsecs")),
                  ":5: cluster.workers[1].shuffle_bandwidth: ");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "heartbeat_ms: 50", "heartbeat_ms: -1")),
                  ":6: cluster.heartbeat_ms: ");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "slow_start: 0.5", "slow_start: 2")),
                  ":7: cluster.slow_start: ");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "batch: true", "batch: maybe")),
                  ":11: workload.batch: must be true or false");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "repetitions: 3", "repetitions: 0")), ":13: repetitions: ");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "name: two-groups", "name: a/b")),
                  ":1: name: must be a plain name");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "repetitions: 3", "repetitions: [3]")),
                  "repetitions: must be a value");
}

// report: what the summary and the plots show; defaults without the key.
TEST(ExperimentFileTest, TheReportKey) {
  Result<Experiment> plain = ParseExperiment(kGood, "/exp/x.yaml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->report.tail_percentile, 90);
  EXPECT_TRUE(plain->report.scatter && plain->report.cdf && plain->report.gantt);
  EXPECT_EQ(plain->report.gantt_job, "slowest");
  const std::string with = std::string(kGood) +
                           "report:\n  tail: 95\n  plots: [cdf, gantt]\n  gantt: {run: klps-2-3, job: 4}\n";
  Result<Experiment> e = ParseExperiment(with, "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->report.tail_percentile, 95);
  EXPECT_FALSE(e->report.scatter);
  EXPECT_TRUE(e->report.cdf && e->report.gantt);
  EXPECT_EQ(e->report.gantt_run, "klps-2-3");
  EXPECT_EQ(e->report.gantt_job, "4");

  EXPECT_CONTAINS(ErrorOf(With(with, "tail: 95", "tail: 100")), ":15: report.tail: ");
  EXPECT_CONTAINS(ErrorOf(With(with, "[cdf, gantt]", "[cdf, pie]")),
                  "report.plots[1]: unknown plot 'pie' (known: scatter, cdf, gantt)");
  EXPECT_CONTAINS(ErrorOf(With(with, "job: 4", "job: median")),
                  "report.gantt.job: gantt job must be slowest, fastest or a job's index");
  EXPECT_CONTAINS(ErrorOf(With(with, "run: klps-2-3", "run: klps-2-4")),
                  "gantt run 'klps-2-4' is not a run of this file");
  EXPECT_CONTAINS(ErrorOf(With(with, "tail: 95", "colour: 95")), ":15: report.colour: unknown key");
}

// report.band: how many simulations make a band, and how far each duration moves.
TEST(ExperimentFileTest, TheReportBand) {
  Result<Experiment> plain = ParseExperiment(kGood, "/exp/x.yaml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->report.band_runs, 8);
  EXPECT_DOUBLE_EQ(plain->report.band_jitter, 0.001);
  const std::string with = std::string(kGood) + "report:\n  band: {runs: 12, jitter: 5ms}\n";
  Result<Experiment> e = ParseExperiment(with, "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->report.band_runs, 12);
  EXPECT_DOUBLE_EQ(e->report.band_jitter, 0.005);
  Result<Experiment> off = ParseExperiment(With(with, "runs: 12", "runs: 0"), "/exp/x.yaml");
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  EXPECT_EQ(off->report.band_runs, 0);
  EXPECT_CONTAINS(ErrorOf(With(with, "runs: 12", "runs: 1")), "band runs must be 0 (no band) or at least 2");
  EXPECT_CONTAINS(ErrorOf(With(with, "runs: 12", "runs: 65")), "report.band.runs");
  EXPECT_CONTAINS(ErrorOf(With(with, "jitter: 5ms", "jitter: 2s")), "band jitter must be above 0 and at most 1s");
  EXPECT_CONTAINS(ErrorOf(With(with, "jitter: 5ms", "spread: 5ms")), "report.band.spread: unknown key");
  // The named variant: the prediction's band members also draw map times (default 0: off).
  EXPECT_DOUBLE_EQ(e->report.band_map_time_cv, 0);
  Result<Experiment> cv = ParseExperiment(With(with, "jitter: 5ms", "jitter: 5ms, map_time_cv: 0.069"), "/exp/x.yaml");
  ASSERT_TRUE(cv.ok()) << cv.status().ToString();
  EXPECT_DOUBLE_EQ(cv->report.band_map_time_cv, 0.069);
  EXPECT_CONTAINS(ErrorOf(With(with, "jitter: 5ms", "jitter: 5ms, map_time_cv: 1.5")), "report.band.map_time_cv");
}

TEST(ExperimentFileTest, MissingSectionsAndEmptyCluster) {
  EXPECT_CONTAINS(ErrorOf(With(kGood, "name: two-groups\n", "")), "missing key 'name'");
  EXPECT_CONTAINS(
      ErrorOf(
          "name: x\ncluster: {workers: []}\nworkload: {generator: synthetic}\npolicies: [fifo]\n"),
      ":2: cluster.workers: needs at least one worker group");
  EXPECT_CONTAINS(
      ErrorOf("name: x\ncluster: {workers: [{reduce_slots: 0}]}\nworkload: {generator: synthetic}\n"
              "policies: [fifo]\n"),
      "at least one map slot and one reduce slot");
  EXPECT_CONTAINS(ErrorOf(""), "an experiment file is a map");
}

TEST(ExperimentFileTest, PoliciesAndOptionsAreCheckedAgainstThePolicyTable) {
  std::string m = ErrorOf(With(kGood, "[fifo,", "[fiffo,"));
  EXPECT_CONTAINS(m, ":12: policies[0]: ");
  EXPECT_CONTAINS(m, "unknown policy 'fiffo'");
  EXPECT_CONTAINS(m, "maxsrpt");  // the known policies are listed
  m = ErrorOf(With(kGood, "{klps-k: 2}", "{klps-j: 2}"));
  EXPECT_CONTAINS(
      m,
      ":12: policies[1].options.klps-j: policy klps has no option 'klps-j' (its options: klps-k)");
  m = ErrorOf(With(kGood, "{klps-k: 2}", "{klps-k: 0}"));
  EXPECT_CONTAINS(m, "policies[1].options.klps-k: klps-k must be int in 1..");
  m = ErrorOf(With(kGood, "label: klps-2, ", ""));
  EXPECT_CONTAINS(
      m, "policies[2]: 'klps' is already in the list: give each run of a policy its own label");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "policies: [fifo, ", "policies: [{label: x}, ")),
                  "missing key 'policy'");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "{policy: klps}", "{policy: klps, k: 1}")),
                  "policies[2].k: unknown key");
}

TEST(ExperimentFileTest, RelativePolicyPathsAreAnchoredAtTheFile) {
  Result<Experiment> e = ParseExperiment(
      With(kGood, "policies: [fifo, ", "policies: [{policy: fair, options: {pools: pools.txt}}, "),
      "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->policies[0].options.at("pools"), "/exp/pools.txt");
}

TEST(ExperimentFileTest, StragglersPerWorkerGroup) {
  Result<Experiment> e = ParseExperiment(
      With(kGood, "speed: 0.5,", "speed: 0.5, straggler: {offset: 500ms, rate: 2, tail: pareto, shape: 2.5, seed: 9},"),
      "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_FALSE(e->cluster.groups[0].straggler.enabled);
  const StragglerSpec& s = e->cluster.groups[1].straggler;
  EXPECT_TRUE(s.enabled);
  EXPECT_DOUBLE_EQ(s.offset, 0.5);
  EXPECT_DOUBLE_EQ(s.rate, 2);
  EXPECT_EQ(s.tail, StragglerTail::kPareto);
  EXPECT_DOUBLE_EQ(s.shape, 2.5);
  EXPECT_EQ(s.seed, 9u);
  // Defaults: exp tail, seed 1.
  e = ParseExperiment(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s, rate: 0.5},"), "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->cluster.groups[0].straggler.tail, StragglerTail::kExp);
  EXPECT_EQ(e->cluster.groups[0].straggler.seed, 1u);

  std::string m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s},"));
  EXPECT_CONTAINS(m, ":4: cluster.workers[0].straggler");
  EXPECT_CONTAINS(m, "rate");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s, rate: 1, tail: weibull},"));
  EXPECT_CONTAINS(m, ":4: cluster.workers[0].straggler.tail: must be exp or pareto, got 'weibull'");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s, rate: 1, shape: 2},"));
  EXPECT_CONTAINS(m, "cluster.workers[0].straggler.shape: shape applies to the pareto tail only");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s, rate: 1, fraction: 0.1},"));
  EXPECT_CONTAINS(m, ":4: cluster.workers[0].straggler");
  EXPECT_CONTAINS(m, "fraction");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, straggler: {offset: 2s, rate: 0},"));
  EXPECT_CONTAINS(m, "cluster.workers[0].straggler.rate");
}

TEST(ExperimentFileTest, LabelsPerWorkerGroup) {
  Result<Experiment> e = ParseExperiment(
      With(kGood, "speed: 0.5,", "speed: 0.5, labels: {rack: r2, class: slow, gen: 3},"), "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE(e->cluster.groups[0].labels.empty());
  EXPECT_EQ(e->cluster.groups[1].labels.ToString(), "class=slow,gen=3,rack=r2");  // sorted by key

  std::string m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, labels: [fast],"));
  EXPECT_CONTAINS(m, ":4: cluster.workers[0].labels: labels is a map of KEY: VALUE");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, labels: {class: a b},"));
  EXPECT_CONTAINS(m, ":4: cluster.workers[0].labels: label 'class' value 'a b' must be");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, labels: {-x: 1},"));
  EXPECT_CONTAINS(m, "cluster.workers[0].labels: label key '-x'");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, labels: {class: fast, class: slow},"));
  EXPECT_CONTAINS(m, ":4:");
  EXPECT_CONTAINS(m, "class");
  m = ErrorOf(With(kGood, "speed: 1,", "speed: 1, labels: {class: {a: b}},"));
  EXPECT_CONTAINS(m, "cluster.workers[0].labels.class");
  std::string many = "speed: 1, labels: {";
  for (int i = 0; i < 17; ++i) many += "k" + std::to_string(i) + ": v, ";
  m = ErrorOf(With(kGood, "speed: 1,", many + "},"));
  EXPECT_CONTAINS(m, "cluster.workers[0].labels: at most 16 labels per worker, got 17");
}

TEST(ExperimentFileTest, PlacementsExpandEveryPolicyIntoOneRunEach) {
  Result<Experiment> e = ParseExperiment(
      With(kGood, "policies: [fifo, {policy: klps, label: klps-2, options: {klps-k: 2}}, {policy: klps}]",
           "policies: [fifo, {policy: fair, placement: {mode: mep, model: dtd, d: 100, label: mep100}}]\n"
           "placements: [pull, dep, {mode: mep, model: gg1, scv: [0.5, 1, 2], ca2: 0.3}]"),
      "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->policies.size(), 4u);
  EXPECT_EQ(e->policies[0].label, "fifo-pull");
  EXPECT_TRUE(e->policies[0].placement.empty());  // pull: no flags at all
  EXPECT_EQ(e->policies[1].label, "fifo-dep");
  EXPECT_EQ(e->policies[1].placement, (std::map<std::string, std::string>{{"placement", "dep"}}));
  EXPECT_EQ(e->policies[2].label, "fifo-mep");
  EXPECT_EQ(e->policies[2].placement,
            (std::map<std::string, std::string>{{"placement", "mep"}, {"placement-model", "gg1"},
                                                {"placement-scv", "0.5,1,2"}, {"placement-ca2", "0.3"}}));
  // Its own placement: not expanded, label as given.
  EXPECT_EQ(e->policies[3].label, "fair");
  EXPECT_EQ(e->policies[3].placement,
            (std::map<std::string, std::string>{{"placement", "mep"}, {"placement-model", "dtd"}, {"placement-d", "100"}}));
}

TEST(ExperimentFileTest, SpeculativeIsOffUnlessTheFileOrAPolicyEntrySaysOn) {
  Result<Experiment> e = ParseExperiment(kGood, "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  for (const PolicyRun& run : e->policies) EXPECT_FALSE(run.speculative) << run.label;
  // The file's default, and one entry that opts out again.
  e = ParseExperiment(With(With(kGood, "repetitions: 3", "repetitions: 3\nspeculative: on"), "{policy: klps}]",
                           "{policy: klps, speculative: off}]"),
                      "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->policies.size(), 3u);
  EXPECT_TRUE(e->policies[0].speculative);
  EXPECT_TRUE(e->policies[1].speculative);
  EXPECT_FALSE(e->policies[2].speculative);
  e = ParseExperiment(With(kGood, "{policy: klps}]", "{policy: klps, label: k-spec, speculative: on}]"), "/exp/x.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_FALSE(e->policies[0].speculative);
  EXPECT_TRUE(e->policies[2].speculative);
  std::string m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nspeculative: maybe"));
  EXPECT_CONTAINS(m, ":14: speculative: speculative must be on or off, not 'maybe'");
}

TEST(ExperimentFileTest, BadPlacementsNameKeyAndLine) {
  std::string m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nplacements: [pull, fastest]"));
  EXPECT_CONTAINS(m, ":14: placements[1]: unknown placement 'fastest' (known: pull, even, dep, sep, mep)");
  m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nplacements: [{mode: dep, d: 3}]"));
  EXPECT_CONTAINS(m, "placements[0].d: --placement-d applies to --placement mep only");
  m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nplacements: [{mode: mep, d: -1}]"));
  EXPECT_CONTAINS(m, "placements[0].d: --placement-d '-1'");
  m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nplacements: [{mode: mep, speed: 2}]"));
  EXPECT_CONTAINS(m, ":14: placements[0]");
  EXPECT_CONTAINS(m, "speed");
  m = ErrorOf(With(kGood, "repetitions: 3", "repetitions: 3\nplacements: [dep, dep]"));
  EXPECT_CONTAINS(m, "'fifo-dep' is already in the list");
  m = ErrorOf(With(kGood, "{policy: klps}]", "{policy: fair, placement: sideways}]"));
  EXPECT_CONTAINS(m, ":12: policies[2].placement: unknown placement 'sideways'");
}

TEST(ExperimentFileTest, UnifiedSlotsAndTheWorkMode) {
  Result<Experiment> e = ParseExperiment(R"(name: u
cluster:
  workers:
    - {count: 4, unified_slots: 2, shuffle_bandwidth: 20MB/s}
    - {count: 1, map_slots: 1, reduce_slots: 2, unified_slots: 3}
  work: sleep
workload: {generator: synthetic}
policies: [fifo]
)",
                                         "");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->cluster.groups.size(), 2u);
  // A group that names unified slots has only those unless it names the others.
  EXPECT_EQ(e->cluster.groups[0].unified_slots, 2);
  EXPECT_EQ(e->cluster.groups[0].map_slots, 0);
  EXPECT_EQ(e->cluster.groups[0].reduce_slots, 0);
  EXPECT_EQ(e->cluster.groups[1].map_slots, 1);
  EXPECT_EQ(e->cluster.groups[1].reduce_slots, 2);
  EXPECT_EQ(e->cluster.groups[1].unified_slots, 3);
  EXPECT_EQ(e->cluster.work, WorkMode::kSleep);
  // Without them: no unified slots, burn.
  Result<Experiment> plain = ParseExperiment(kGood, "/exp/x.yaml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->cluster.groups[0].unified_slots, 0);
  EXPECT_EQ(plain->cluster.work, WorkMode::kBurn);
}

TEST(ExperimentFileTest, BadUnifiedSlotsAndWorkModeNameKeyPathAndLine) {
  EXPECT_CONTAINS(ErrorOf(With(kGood, "speed: 1,", "speed: 1, unified_slots: -1,")),
                  ":4: cluster.workers[0].unified_slots: must be an integer in 0..1000, got '-1'");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  slow_start: 0.5", "  slow_start: 0.5\n  work: nap")),
                  ":8: cluster.work: must be burn or sleep, got 'nap'");
  EXPECT_CONTAINS(ErrorOf("name: x\ncluster: {workers: [{unified_slots: 0}]}\n"
                          "workload: {generator: synthetic}\npolicies: [fifo]\n"),
                  ":2: cluster.workers: the cluster needs at least one map slot and one reduce slot "
                  "(a unified slot is both)");
  // A unified slot is both: one is enough.
  EXPECT_EQ(ErrorOf("name: x\ncluster: {workers: [{unified_slots: 1}]}\n"
                    "workload: {generator: synthetic}\npolicies: [fifo]\n"),
            "");
}

TEST(ExperimentFileTest, WorkloadSourceAndParamsAreChecked) {
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  csv: jobs/day.csv", "  generator: google")),
                  ":9: workload.generator: unknown generator 'google' (known: synthetic, asrpt, makespan)");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  csv: jobs/day.csv", "  csv: a.csv\n  swim: b.tsv")),
                  "give exactly one of generator, csv, swim");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  csv: jobs/day.csv\n", "")),
                  "give exactly one of generator, csv, swim");
  std::string m =
      ErrorOf(With(kGood, "  csv: jobs/day.csv", "  swim: t.tsv\n  params:\n    tme_scale: 60"));
  EXPECT_CONTAINS(m, ":11: workload.params.tme_scale: unknown parameter 'tme_scale'");
  EXPECT_CONTAINS(m, "time_scale");
  m = ErrorOf(With(kGood, "  csv: jobs/day.csv", "  swim: t.tsv\n  params:\n    time_scale: -3"));
  EXPECT_CONTAINS(m, ":11: workload.params.time_scale: time_scale must be double");
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  csv: jobs/day.csv", "  csv: a.csv\n  params: {jobs: 3}")),
                  "unknown parameter 'jobs' (known: none)");
}

TEST(ExperimentFileTest, SyntaxErrorsAndRepeatedKeysNameTheLine) {
  EXPECT_CONTAINS(ErrorOf(With(kGood, "  heartbeat_ms: 50", "  heartbeat_ms: [50")),
                  "not valid YAML");
  std::string m =
      ErrorOf(With(kGood, "  heartbeat_ms: 50", "  heartbeat_ms: 50\n  heartbeat_ms: 60"));
  EXPECT_CONTAINS(m, ":7: cluster.heartbeat_ms: key given twice");
}

TEST(ExperimentFileTest, MissingFileIsNotFound) {
  Result<Experiment> e = LoadExperimentFile("/nonexistent/dir/x.yaml");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace mr::experiment
