#include "experiment/workload_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "experiment/workload_params.h"
#include "experiment/workload_sources.h"

namespace mr::experiment {
namespace {

// 3 workers, 2 map slots and 1 reduce slot each, 20 MB/s: map capacity 6 slot-s/s,
// shuffle capacity 60 MB/s, 3 reduce slots.
ClusterShape ThreeWorkers() {
  ClusterShape c;
  c.groups.push_back({3, 2, 1, 1.0, 20e6});
  return c;
}

WorkloadSpec Synthetic(int jobs, double load, uint64_t seed) {
  WorkloadSpec s;
  s.kind = WorkloadKind::kGenerator;
  s.generator = "synthetic";
  s.params = {{"jobs", std::to_string(jobs)}, {"load", std::to_string(load)}};
  s.seed = seed;
  return s;
}

// A job's time alone at each station, in seconds of the whole cluster's capacity.
double X(const model::TaskJob& j) { return j.maps * j.map_seconds / 6.0; }
double Y(const model::TaskJob& j) { return j.maps * j.map_bytes / 60e6; }

bool SameJobs(const JobList& a, const JobList& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].arrival != b[i].arrival || a[i].maps != b[i].maps ||
        a[i].map_seconds != b[i].map_seconds || a[i].map_bytes != b[i].map_bytes ||
        a[i].reducers != b[i].reducers) {
      return false;
    }
  }
  return true;
}

TEST(SyntheticWorkloadTest, SameSeedSameJobsOtherSeedOtherJobs) {
  auto a = MakeJobs(Synthetic(30, 0.6, 1), ThreeWorkers(), nullptr);
  auto b = MakeJobs(Synthetic(30, 0.6, 1), ThreeWorkers(), nullptr);
  auto c = MakeJobs(Synthetic(30, 0.6, 2), ThreeWorkers(), nullptr);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok() && c.ok());
  EXPECT_TRUE(SameJobs(*a, *b));
  EXPECT_FALSE(SameJobs(*a, *c));
}

// The generator sets rate x (sample mean size of the busier station) = load exactly; what
// the jobs show differs only by the arrival process: the measured rate (n-1)/span of n-1
// exponential gaps has a relative standard deviation of 1/sqrt(n-1), 2.2% at n = 2000, so
// 10% is more than four of them. The load is measured here from the tasks, so the test
// also checks the mapping from sizes to tasks.
TEST(SyntheticWorkloadTest, ReachesTheLoadItTargets) {
  ImportSummary summary;
  auto jobs = MakeJobs(Synthetic(2000, 0.6, 3), ThreeWorkers(), &summary);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 2000u);
  double sum_x = 0, sum_y = 0;
  int map_heavy = 0;
  for (const model::TaskJob& j : *jobs) {
    sum_x += X(j);
    sum_y += Y(j);
    map_heavy += X(j) > Y(j);
  }
  double rate = 1999.0 / (jobs->back().arrival - jobs->front().arrival);
  double load = rate * std::max(sum_x, sum_y) / 2000;
  EXPECT_NEAR(load, 0.6, 0.06);
  EXPECT_EQ(map_heavy, 1000);  // map_heavy 0.5: exactly half of each class
  EXPECT_NEAR(summary.map_load, rate * sum_x / 2000, 1e-9);
  EXPECT_NEAR(summary.shuffle_load, rate * sum_y / 2000, 1e-9);
  EXPECT_EQ(summary.jobs, 2000);
}

TEST(SyntheticWorkloadTest, JobsSpanTheSizeRangeAndRespectTheTaskRules) {
  auto jobs = MakeJobs(Synthetic(500, 0.6, 4), ThreeWorkers(), nullptr);
  ASSERT_TRUE(jobs.ok());
  double smallest = 1e9, largest = 0;
  for (const model::TaskJob& j : *jobs) {
    double alone = std::max(X(j), Y(j));  // the larger station's time: the size S drawn
    smallest = std::min(smallest, alone);
    largest = std::max(largest, alone);
    EXPECT_LE(j.map_seconds, 1.0 + 1e-9);  // task_seconds 1 (max_maps 400 never reached)
    EXPECT_LE(j.map_bytes, 20e6 + 1e-3);   // max_map_bytes 20MB
    EXPECT_EQ(j.reducers, 3);              // one per reduce slot
    EXPECT_DOUBLE_EQ(j.params.hint_map_seconds, j.maps * j.map_seconds);
    EXPECT_DOUBLE_EQ(j.params.hint_shuffle_bytes, j.maps * j.map_bytes);
    EXPECT_DOUBLE_EQ(j.params.hint_reduce_seconds, j.reducers * j.reduce_seconds);
  }
  EXPECT_GE(smallest, 1.0 - 1e-9);
  EXPECT_LE(largest, 60.0 + 1e-9);
  // Log-uniform over [1, 60]: of 500 draws, the smallest is below 1.1 and the largest above
  // 50 unless something is wrong (each misses with probability (1 - 0.023)^500 < 1e-5).
  EXPECT_LT(smallest, 1.1);
  EXPECT_GT(largest, 50);
}

TEST(SyntheticWorkloadTest, BatchSubmitsEverythingAtZero) {
  WorkloadSpec spec = Synthetic(10, 0.6, 1);
  spec.batch = true;
  ImportSummary summary;
  auto jobs = MakeJobs(spec, ThreeWorkers(), &summary);
  ASSERT_TRUE(jobs.ok());
  for (const model::TaskJob& j : *jobs) EXPECT_EQ(j.arrival, 0);
  EXPECT_EQ(summary.map_load, 0);  // not defined for a batch
}

TEST(SyntheticWorkloadTest, RefusesWhatItCannotMake) {
  ClusterShape uncapped = ThreeWorkers();
  uncapped.groups[0].shuffle_bandwidth = 0;
  auto r = MakeJobs(Synthetic(10, 0.6, 1), uncapped, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("shuffle_bandwidth"), std::string::npos);
  WorkloadSpec bad = Synthetic(10, 0.6, 1);
  bad.params["lod"] = "1";
  r = MakeJobs(bad, ThreeWorkers(), nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unknown parameter 'lod'"), std::string::npos);
  bad = Synthetic(10, 0.6, 1);
  bad.params["min_seconds"] = "90";
  EXPECT_FALSE(MakeJobs(bad, ThreeWorkers(), nullptr).ok());  // above max_seconds 60
  bad = Synthetic(10, 0.6, 1);
  bad.generator = "google";
  EXPECT_FALSE(MakeJobs(bad, ThreeWorkers(), nullptr).ok());
}

TEST(TaskRulesTest, MapsFromWorkAndBytesClippedToMaxMaps) {
  TaskRules rules;  // task_seconds 1, max_map_bytes 20e6, max_maps 400
  rules.task_seconds = 2;
  rules.max_maps = 10;
  bool clipped = true;
  model::TaskJob j = JobFromTotals(5, 7, 30e6, rules, &clipped);  // ceil(3.5) = 4 > ceil(1.5)
  EXPECT_EQ(j.maps, 4);
  EXPECT_DOUBLE_EQ(j.map_seconds, 1.75);
  EXPECT_DOUBLE_EQ(j.map_bytes, 7.5e6);
  EXPECT_FALSE(clipped);
  j = JobFromTotals(0, 1, 100e6, rules, &clipped);  // bytes decide: ceil(5) = 5, not 6
  EXPECT_EQ(j.maps, 5);
  j = JobFromTotals(0, 100, 0, rules, &clipped);  // 50 wanted
  EXPECT_EQ(j.maps, 10);
  EXPECT_DOUBLE_EQ(j.map_seconds, 10);
  EXPECT_TRUE(clipped);
  j = JobFromTotals(0, 0.01, 0, rules, &clipped);
  EXPECT_EQ(j.maps, 1);
}

constexpr const char* kCsv =
    "# two jobs\n"
    "arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds\n"
    "5, 4, 2.5, 10MB, 2, 1\n"
    "\n"
    "1.5s,1,0.5,0,1,0\n";

TEST(CsvWorkloadTest, HandWorkedLines) {
  auto jobs = ParseJobCsv(kCsv, "jobs.csv");
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 2u);
  const model::TaskJob& a = (*jobs)[0];
  EXPECT_EQ(a.arrival, 5);
  EXPECT_EQ(a.maps, 4);
  EXPECT_EQ(a.map_seconds, 2.5);
  EXPECT_EQ(a.map_bytes, 2.5e6);  // 10 MB over 4 maps
  EXPECT_EQ(a.reducers, 2);
  EXPECT_EQ(a.reduce_seconds, 1);
  EXPECT_EQ(a.params.hint_map_seconds, 10);
  EXPECT_EQ(a.params.hint_reduce_seconds, 2);  // 2 reduces of 1 s
  EXPECT_EQ(a.params.hint_shuffle_bytes, 10e6);
  EXPECT_EQ((*jobs)[1].arrival, 1.5);
  EXPECT_EQ((*jobs)[1].map_bytes, 0);
}

TEST(CsvWorkloadTest, ErrorsNameLineAndColumn) {
  auto error = [](const std::string& text) {
    auto r = ParseJobCsv(text, "jobs.csv");
    return r.ok() ? std::string() : r.status().message();
  };
  std::string header = "arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds\n";
  EXPECT_EQ(error(header + "0,1,1,0,1,0\n0,x,1,0,1,0\n"),
            "jobs.csv:3: column 2 (maps): must be an integer >= 1, got 'x'");
  EXPECT_EQ(error(header + "0,0,1,0,1,0\n").substr(0, 36), "jobs.csv:2: column 2 (maps): must be");
  EXPECT_NE(error(header + "0,1,1,lots,1,0\n").find("jobs.csv:2: column 4 (shuffle_bytes): "),
            std::string::npos);
  EXPECT_NE(error(header + "-1,1,1,0,1,0\n").find("jobs.csv:2: column 1 (arrival): "),
            std::string::npos);
  EXPECT_EQ(error(header + "0,1,1,0,1\n"), "jobs.csv:2: expected 6 columns, got 5");
  EXPECT_NE(error("arrival,maps\n").find("jobs.csv:1: the header must be"), std::string::npos);
  EXPECT_NE(error("# nothing\n").find("no header"), std::string::npos);
}

// Per-job parameter columns after the fixed six (issue 25: FLEX's metric, deadline, weight).
TEST(CsvWorkloadTest, ParameterColumnsSetEachJobsParameters) {
  const std::string header = "arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds,weight,metric,deadline\n";
  auto jobs = ParseJobCsv(header + "0,4,1,0,1,0,3,tardiness,+90s\n1,2,1,0,1,0,,,\n", "jobs.csv");
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  EXPECT_EQ((*jobs)[0].params.weight, 3);
  EXPECT_EQ((*jobs)[0].params.metric, "tardiness");
  EXPECT_EQ((*jobs)[0].params.deadline, 90);
  EXPECT_EQ((*jobs)[1].params.weight, 1) << "an empty cell is the default";
  EXPECT_EQ((*jobs)[1].params.metric, "");
  auto error = [](const std::string& text) {
    auto r = ParseJobCsv(text, "jobs.csv");
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_EQ(error(header + "0,4,1,0,1,0,1,tardiness,\n"), "jobs.csv:2: 'metric' tardiness needs 'deadline'");
  EXPECT_EQ(error(header + "0,4,1,0,1,0,1,speed,9\n").substr(0, 43), "jobs.csv:2: 'metric': unknown metric 'speed");
  EXPECT_EQ(error("arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds,colour\n"),
            "jobs.csv:1: column 7 'colour' is not a per-job parameter's key (docs/jobs.md)");
  EXPECT_EQ(error(header + "0,4,1,0,1,0,1\n"), "jobs.csv:2: expected 9 columns, got 7");
}

TEST(CsvWorkloadTest, MakeJobsReadsTheFileAndSortsByArrival) {
  std::string path =
      (std::filesystem::temp_directory_path() / ("mr_csv_" + std::to_string(::getpid()) + ".csv"));
  {
    std::ofstream out(path);
    out << kCsv;
  }
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kCsv;
  spec.path = path;
  ImportSummary summary;
  auto jobs = MakeJobs(spec, ThreeWorkers(), &summary);
  std::filesystem::remove(path);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].arrival, 1.5);
  EXPECT_EQ((*jobs)[1].arrival, 5);
  EXPECT_EQ(summary.jobs, 2);
  spec.path = "/nonexistent/jobs.csv";
  EXPECT_FALSE(MakeJobs(spec, ThreeWorkers(), nullptr).ok());
}

// Trace bytes 1e3..1e9 (six decades) map onto 1..100 slot-seconds (two) and onto 1..100 MB
// of shuffle (two): a decade of the trace is a third of a decade here.
constexpr const char* kTrace =
    "job0\t99\t0\t1000000\t1000000\t0\n"                // before the window
    "job1\t100\t1\t1000000\t1000000\t5\n"               // middle of both maps
    "job2\t600\t500\t0\t0\t0\n"                         // no input (clipped low), no shuffle
    "job3\t800\t200\t1000000000\t500\t0\n"              // input at the top, shuffle clipped low
    "job4\t1099\t299\t1000000000000\t10000000000\t7\n"  // both clipped high
    "job5\t1100\t1\t1000\t1000\t0\n";                   // the window's end is excluded

sched::PolicyOptions SwimParams() {
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kSwim;
  spec.params = {{"start", "100"},
                 {"duration", "1000"},
                 {"time_scale", "10"},
                 {"trace_input_min", "1000"},
                 {"trace_input_max", "1GB"},
                 {"map_work_min", "1"},
                 {"map_work_max", "100"},
                 {"trace_shuffle_min", "1000"},
                 {"trace_shuffle_max", "1GB"},
                 {"shuffle_min", "1MB"},
                 {"shuffle_max", "100MB"},
                 {"task_seconds", "2"},
                 {"max_maps", "20"},
                 {"max_map_bytes", "10MB"},
                 {"reducers", "2"},
                 {"reduce_seconds", "0.5"}};
  auto p = ResolveWorkloadParams(spec);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return *p;
}

TEST(SwimWorkloadTest, SmallTraceMapsToHandComputedJobs) {
  ImportSummary s;
  auto jobs = MapSwimTrace(kTrace, "t.tsv", SwimParams(), ThreeWorkers(), &s);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 4u);
  const JobList& j = *jobs;
  // job1: arrival (100-100)/10 = 0; input 1e6 is half-way (in logs) through 1e3..1e9, so
  // 1 x 100^0.5 = 10 slot-seconds; shuffle 1e6 the same: 1e6 x 100^0.5 = 10 MB;
  // maps = ceil(max(10/2, 10e6/10e6)) = 5.
  EXPECT_EQ(j[0].arrival, 0);
  EXPECT_EQ(j[0].maps, 5);
  EXPECT_NEAR(j[0].map_seconds, 2, 1e-9);
  EXPECT_NEAR(j[0].map_bytes, 2e6, 1e-3);
  EXPECT_EQ(j[0].reducers, 2);
  EXPECT_EQ(j[0].reduce_seconds, 0.5);
  // job2: arrival 50; input 0 -> 1 slot-second (clipped low), 1 map; no shuffle.
  EXPECT_EQ(j[1].arrival, 50);
  EXPECT_EQ(j[1].maps, 1);
  EXPECT_NEAR(j[1].map_seconds, 1, 1e-12);
  EXPECT_EQ(j[1].map_bytes, 0);
  // job3: arrival 70; input 1e9 is the top: 100 slot-seconds (not clipped); 500 bytes of
  // shuffle -> 1 MB (clipped low); ceil(100/2) = 50 maps, clipped to max_maps 20.
  EXPECT_EQ(j[2].arrival, 70);
  EXPECT_EQ(j[2].maps, 20);
  EXPECT_NEAR(j[2].map_seconds, 5, 1e-9);
  EXPECT_NEAR(j[2].map_bytes, 1e6 / 20, 1e-6);
  // job4: arrival 99.9; 100 slot-seconds and 100 MB, both clipped high; 20 maps.
  EXPECT_NEAR(j[3].arrival, 99.9, 1e-9);
  EXPECT_EQ(j[3].maps, 20);
  EXPECT_NEAR(j[3].map_bytes, 5e6, 1e-3);
  EXPECT_EQ(s.clipped, 3);       // job2, job3, job4
  EXPECT_EQ(s.clipped_low, 2);   // job2 (input), job3 (shuffle)
  EXPECT_EQ(s.clipped_high, 1);  // job4
  EXPECT_NE(s.notes.find("2 jobs have max_maps maps"), std::string::npos) << s.notes;
}

// The worked example of docs/experiments.md ("Workloads"): the trace's first line under
// the default mapping and time_scale 8 (examples/experiments/swim-hour.yaml).
TEST(SwimWorkloadTest, TheDocumentedExample) {
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kSwim;
  spec.params = {{"time_scale", "8"}};
  auto params = ResolveWorkloadParams(spec);
  ASSERT_TRUE(params.ok());
  ImportSummary s;
  auto jobs =
      MapSwimTrace("job0\t49\t49\t740773\t2339561\t627471\n", "t.tsv", *params, ThreeWorkers(), &s);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  ASSERT_EQ(jobs->size(), 1u);
  const model::TaskJob& j = (*jobs)[0];
  EXPECT_DOUBLE_EQ(j.arrival, 6.125);
  EXPECT_NEAR(j.params.hint_map_seconds, 10.292, 0.001);        // 120^0.48697
  EXPECT_NEAR(j.params.hint_shuffle_bytes, 59.206e6, 0.001e6);  // 1 MB x 2000^0.53691
  EXPECT_EQ(j.maps, 11);
  EXPECT_NEAR(j.map_seconds, 0.9356, 0.0001);
  EXPECT_NEAR(j.map_bytes, 5.382e6, 0.001e6);
  EXPECT_EQ(j.reducers, 3);
  EXPECT_EQ(s.clipped, 0);
}

TEST(SwimWorkloadTest, MalformedLinesNameLineAndColumn) {
  ImportSummary s;
  auto r = MapSwimTrace("job0\t1\t1\t5\t5\t5\njob1\t2\t1\tmany\t5\t5\n", "t.tsv", SwimParams(),
                        ThreeWorkers(), &s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "t.tsv:2: column 4 (input bytes): must be a number >= 0, got 'many'");
  r = MapSwimTrace("job0\t1\t1\t5\n", "t.tsv", SwimParams(), ThreeWorkers(), &s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "t.tsv:1: expected 6 tab-separated columns, got 4");
}

TEST(SwimWorkloadTest, AnEmptyWindowIsAnError) {
  std::string path =
      (std::filesystem::temp_directory_path() / ("mr_swim_" + std::to_string(::getpid()) + ".tsv"));
  {
    std::ofstream out(path);
    out << kTrace;
  }
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kSwim;
  spec.path = path;
  spec.params = {{"start", "5000"}};
  auto r = MakeJobs(spec, ThreeWorkers(), nullptr);
  spec.params = {{"start", "0"}, {"duration", "1h"}};
  ImportSummary s;
  auto ok = MakeJobs(spec, ThreeWorkers(), &s);
  std::filesystem::remove(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no jobs"), std::string::npos);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->size(), 6u);
  EXPECT_EQ(s.jobs, 6);
}

}  // namespace
}  // namespace mr::experiment
