// The slotted model's workload generator (the paper's four workloads) and file format.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/file_util.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model {
namespace {

std::vector<SlottedJob> Generate(const std::string& name, int64_t slots, uint64_t seed) {
  SlottedGenOptions base;
  base.slots = slots;
  base.seed = seed;
  auto o = PaperWorkload(name, base);
  EXPECT_TRUE(o.ok()) << o.status().ToString();
  auto jobs = GenerateSlotted(*o);
  EXPECT_TRUE(jobs.ok()) << jobs.status().ToString();
  return *jobs;
}

bool SameJobs(const std::vector<SlottedJob>& a, const std::vector<SlottedJob>& b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i].arrival != b[i].arrival || a[i].maps != b[i].maps || a[i].reduces != b[i].reduces) {
      return false;
    }
  }
  return true;
}

TEST(SlottedWorkloadTest, SeededAndAShorterHorizonIsAPrefix) {
  auto a = Generate("exp5-exp40", 500, 7);
  auto b = Generate("exp5-exp40", 500, 7);
  auto c = Generate("exp5-exp40", 500, 8);
  auto prefix = Generate("exp5-exp40", 50, 7);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(SameJobs(a, b, a.size()));
  EXPECT_FALSE(a.size() == c.size() && SameJobs(a, c, a.size()));
  ASSERT_LT(prefix.size(), a.size());
  EXPECT_TRUE(SameJobs(a, prefix, prefix.size()));
  EXPECT_LE(prefix.back().arrival, 50);
  EXPECT_GT(a[prefix.size()].arrival, 50);
}

// Every job: arrival in 1..T in order, K_i in 1..min(10, R_i), the split even.
void ExpectWellFormed(const std::vector<SlottedJob>& jobs, int64_t slots) {
  int64_t last = 1;
  for (const SlottedJob& j : jobs) {
    ASSERT_GE(j.arrival, last);
    ASSERT_LE(j.arrival, slots);
    last = j.arrival;
    ASSERT_GE(j.maps, 1);
    ASSERT_GE(j.reduces.size(), 1u);
    ASSERT_LE(j.reduces.size(), 10u);
    auto [lo, hi] = std::minmax_element(j.reduces.begin(), j.reduces.end());
    ASSERT_GE(*lo, 1);
    ASSERT_LE(*hi - *lo, 1);
  }
}

struct Moments {
  double arrivals_per_slot, mean_maps, mean_reduce;
  double mean_tasks;  // over jobs with R_i >= 10
  int min_maps, max_maps, min_reduce, max_reduce;
};

Moments Measure(const std::vector<SlottedJob>& jobs, int64_t slots) {
  Moments m{static_cast<double>(jobs.size()) / slots, 0, 0, 0, 1 << 30, 0, 1 << 30, 0};
  double big = 0;  // jobs with R_i >= 10, whose K_i is uniform on 1..10
  for (const SlottedJob& j : jobs) {
    const int r = static_cast<int>(j.reduce_units());
    m.mean_maps += j.maps, m.mean_reduce += r;
    if (r >= 10) m.mean_tasks += j.reduces.size(), ++big;
    m.min_maps = std::min(m.min_maps, j.maps), m.max_maps = std::max(m.max_maps, j.maps);
    m.min_reduce = std::min(m.min_reduce, r), m.max_reduce = std::max(m.max_reduce, r);
  }
  const double n = static_cast<double>(jobs.size());
  m.mean_maps /= n, m.mean_reduce /= n, m.mean_tasks /= big;
  return m;
}

// 5000 slots ≈ 10000 jobs: sample means within 4% of the paper's (≈ 4 standard errors of
// an Exp(40)), uniform ranges hit exactly.
TEST(SlottedWorkloadTest, PaperWorkloadsHaveThePapersMeansAndRanges) {
  constexpr int64_t kSlots = 5000;
  struct Want {
    const char* name;
    double map, reduce;
  };
  for (Want w : {Want{"exp5-exp40", 5, 40}, Want{"exp30-exp15", 30, 15},
                 Want{"u1-9-u10-70", 5, 40}, Want{"u10-50-u10-20", 30, 15}}) {
    SCOPED_TRACE(w.name);
    auto jobs = Generate(w.name, kSlots, 3);
    ExpectWellFormed(jobs, kSlots);
    Moments m = Measure(jobs, kSlots);
    EXPECT_NEAR(m.arrivals_per_slot, 2.0, 0.06);
    EXPECT_NEAR(m.mean_maps, w.map, 0.04 * w.map);
    EXPECT_NEAR(m.mean_reduce, w.reduce, 0.04 * w.reduce);
    EXPECT_NEAR(m.mean_tasks, 5.5, 0.2);  // K uniform on 1..10 when R >= 10
  }
  Moments u = Measure(Generate("u1-9-u10-70", kSlots, 3), kSlots);
  EXPECT_EQ(u.min_maps, 1);
  EXPECT_EQ(u.max_maps, 9);
  EXPECT_EQ(u.min_reduce, 10);
  EXPECT_EQ(u.max_reduce, 70);
  Moments e = Measure(Generate("exp5-exp40", kSlots, 3), kSlots);
  EXPECT_EQ(e.min_maps, 1);
  EXPECT_GT(e.max_maps, 30);  // a tail, not a clipped range
}

TEST(SlottedWorkloadTest, UnknownWorkloadAndBadOptionsAreErrors) {
  auto unknown = PaperWorkload("exp1-exp1");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("u10-50-u10-20"), std::string::npos);
  SlottedGenOptions o;
  o.rate = 0;
  EXPECT_FALSE(GenerateSlotted(o).ok());
  o.rate = 2;
  o.slots = 0;
  EXPECT_FALSE(GenerateSlotted(o).ok());
}

TEST(SlottedWorkloadTest, UnitDistParsesAndFormats) {
  auto e = ParseUnitDist("exp:40");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->kind, UnitDist::Kind::kExponential);
  EXPECT_EQ(e->mean, 40);
  EXPECT_EQ(FormatUnitDist(*e), "exp:40");
  auto u = ParseUnitDist("u:10:70");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->lo, 10);
  EXPECT_EQ(u->hi, 70);
  EXPECT_EQ(FormatUnitDist(*u), "u:10:70");
  for (const char* bad : {"exp:0", "exp:-1", "exp:x", "u:0:3", "u:5:4", "u:3", "normal:1", ""}) {
    EXPECT_FALSE(ParseUnitDist(bad).ok()) << bad;
  }
}

TEST(SlottedWorkloadTest, FileRoundTripIsExact) {
  auto jobs = Generate("u10-50-u10-20", 40, 11);
  TempDir dir("slotted-test");
  const std::string path = JoinPath(dir.path(), "w.json");
  ASSERT_TRUE(SaveSlottedWorkload(path, jobs, "u10-50-u10-20 test").ok());
  auto loaded = LoadSlottedWorkload(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->size(), jobs.size());
  EXPECT_TRUE(SameJobs(*loaded, jobs, jobs.size()));
}

TEST(SlottedWorkloadTest, ParseRejectsMalformedJobsNamingThem) {
  const std::string head = R"({"format": "mrlab-slotted-workload", "version": 1, "jobs": [)";
  auto ok = ParseSlottedWorkload(head + R"({"arrival": 2, "maps": 1, "reduces": []}]})");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_TRUE((*ok)[0].reduces.empty());
  struct Case {
    const char* jobs;
    const char* what;
  };
  for (Case c : {Case{R"({"arrival": 0, "maps": 1, "reduces": [1]})", "jobs[0]: 'arrival'"},
                 Case{R"({"arrival": 1, "maps": 0, "reduces": [1]})", "jobs[0]: 'maps'"},
                 Case{R"({"arrival": 1, "maps": 2.5, "reduces": [1]})", "jobs[0]: 'maps'"},
                 Case{R"({"arrival": 1, "maps": 1, "reduces": [0]})", "jobs[0]: 'reduces'"},
                 Case{R"({"arrival": 1, "maps": 1})", "jobs[0]: missing 'reduces'"},
                 Case{R"({"arrival": 3, "maps": 1, "reduces": [1]}, {"arrival": 2, "maps": 1, "reduces": [1]})",
                      "jobs[1]: arrives before"}}) {
    auto r = ParseSlottedWorkload(head + c.jobs + "]}");
    ASSERT_FALSE(r.ok()) << c.jobs;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(c.what), std::string::npos) << r.status().message();
  }
  EXPECT_FALSE(ParseSlottedWorkload(R"({"version": 1, "jobs": []})").ok());
  EXPECT_FALSE(ParseSlottedWorkload("arrival,x,y\n").ok());
  EXPECT_EQ(LoadSlottedWorkload("/nonexistent/w.json").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace mr::model

namespace mr::model {
namespace {

// The other reading of "up to 10 tasks per job": K_i = min(10, R_i) for every job, with the
// same arrivals, M_i and R_i as the uniform reading (K_i is still drawn, then ignored).
TEST(SlottedWorkloadTest, MostReduceTasksKeepsTheJobsAndSplitsFinest) {
  auto base = PaperWorkload("u1-9-u10-70");
  ASSERT_TRUE(base.ok());
  base->slots = 100;
  SlottedGenOptions most = *base;
  most.most_reduce_tasks = true;
  auto a = GenerateSlotted(*base);
  auto b = GenerateSlotted(most);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), b->size());
  int fewer = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    EXPECT_EQ((*a)[i].arrival, (*b)[i].arrival);
    EXPECT_EQ((*a)[i].maps, (*b)[i].maps);
    EXPECT_EQ((*a)[i].reduce_units(), (*b)[i].reduce_units());
    EXPECT_EQ((*b)[i].reduces.size(), 10u);  // R_i >= 10 in this workload
    fewer += (*a)[i].reduces.size() < 10u;
  }
  EXPECT_GT(fewer, 0);
  EXPECT_NE(DescribeGenerator("u1-9-u10-70", most).find("reduce-tasks=most"), std::string::npos);
}

}  // namespace
}  // namespace mr::model
