// `mr model sweep` and `mr model slowdown` end to end (the real binary, small instances
// that run in well under a second), checked against the orderings the overlapping-phases
// paper states and docs/model.md reports (Figure 7, relative E[T] against load; Figure 9,
// slowdown against size). Only orderings: the numbers depend on the seed and the instance
// size, the orderings are the paper's claims. Each holds on every seed tried (1-6).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// One CSV row as column name -> text.
using Row = std::map<std::string, std::string>;

// Rows of the CSV in text after its header line; lines starting with '#' are skipped.
std::vector<Row> ParseCsv(const std::string& text) {
  std::vector<Row> rows;
  std::vector<std::string> header;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::istringstream cols(line);
    for (std::string c; std::getline(cols, c, ',');) cells.push_back(c);
    if (header.empty()) {
      header = cells;
      continue;
    }
    Row r;
    for (size_t i = 0; i < cells.size() && i < header.size(); ++i) r[header[i]] = cells[i];
    rows.push_back(std::move(r));
  }
  return rows;
}

double Num(const Row& r, const std::string& col) {
  auto it = r.find(col);
  EXPECT_NE(it, r.end()) << "no column " << col;
  return it == r.end() ? 0 : std::stod(it->second);
}

// The value of `key=` in the '#' summary line.
double Summary(const std::string& text, const std::string& key) {
  auto at = text.find(" " + key + "=");
  EXPECT_NE(at, std::string::npos) << "no " << key << " in: " << text;
  return at == std::string::npos ? 0 : std::stod(text.substr(at + key.size() + 2));
}

class ModelOrderingsTest : public ::testing::TestWithParam<int> {};

// Figure 7: relative E[T] (mean response / the lower bound's mean) per policy and load.
TEST_P(ModelOrderingsTest, SweepOrdersPoliciesAsThePaper) {
  auto r = Sh(MrBin() + " model sweep --jobs 2000 --loads 0.1,0.3,0.5,0.75 --csv --seed " +
              std::to_string(GetParam()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = ParseCsv(r.out);
  ASSERT_EQ(rows.size(), 8u) << r.out;  // 2 size variants x 4 loads
  for (const Row& row : rows) {
    SCOPED_TRACE(row.at("variant") + " load " + row.at("load"));
    const double load = Num(row, "load");
    const double klps = Num(row, "klps"), max = Num(row, "maxsrpt"), split = Num(row, "splitsrpt");
    const double fifo = Num(row, "fifo"), ps = Num(row, "ps");
    // The lower bound is below every policy.
    EXPECT_GT(Num(row, "lower_bound_mean"), 0);
    for (double v : {klps, max, split, fifo, ps}) EXPECT_GE(v, 1.0);
    // MaxSRPT and SplitSRPT beat FIFO and PS at every load, and k-LPS above load 0.2.
    EXPECT_LT(max, fifo);
    EXPECT_LT(split, fifo);
    EXPECT_LT(max, ps);
    EXPECT_LT(split, ps);
    if (load > 0.2) {
      EXPECT_LT(max, klps);
      EXPECT_LT(split, klps);
    }
    // FIFO is the worst: one huge job blocks all behind it.
    EXPECT_GT(fifo, klps);
    EXPECT_GT(fifo, ps);
    // On cube-root rebalanced sizes MaxSRPT is ahead of SplitSRPT at every load.
    if (row.at("variant") == "rebalanced") {
      EXPECT_LE(max, split);
    }
  }
}

// Figure 9: mean slowdown by job size, at loads 0.75 and 0.9.
TEST_P(ModelOrderingsTest, SlowdownBySizeHasThePapersShape) {
  for (const char* load : {"0.75", "0.9"}) {
    SCOPED_TRACE(std::string("load ") + load);
    auto r = Sh(MrBin() + " model slowdown --jobs 20000 --buckets 5 --load " + load +
                " --seed " + std::to_string(GetParam()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Mean response: both SRPT variants well below k-LPS.
    const double klps_mean = Summary(r.out, "klps_mean_response");
    EXPECT_LT(Summary(r.out, "maxsrpt_mean_response"), klps_mean);
    EXPECT_LT(Summary(r.out, "splitsrpt_mean_response"), klps_mean);
    auto rows = ParseCsv(r.out);
    ASSERT_EQ(rows.size(), 5u) << r.out;
    double klps_lo = 1e300, klps_hi = 0;
    for (const Row& row : rows) {
      SCOPED_TRACE("sizes " + row.at("size_lo") + ".." + row.at("size_hi"));
      ASSERT_GT(Num(row, "jobs"), 0);
      // Below k-LPS for every size.
      EXPECT_LT(Num(row, "maxsrpt"), Num(row, "klps"));
      EXPECT_LT(Num(row, "splitsrpt"), Num(row, "klps"));
      klps_lo = std::min(klps_lo, Num(row, "klps"));
      klps_hi = std::max(klps_hi, Num(row, "klps"));
    }
    const Row& small = rows.front();
    const Row& large = rows.back();
    // k-LPS nearly flat in size; MaxSRPT and SplitSRPT increasing in size.
    EXPECT_LT(klps_hi / klps_lo, 1.6);
    EXPECT_GT(Num(large, "maxsrpt") / Num(small, "maxsrpt"), 1.5);
    EXPECT_GT(Num(large, "splitsrpt") / Num(small, "splitsrpt"), 1.5);
    // SplitSRPT is "more fair": worse than MaxSRPT for the smallest jobs.
    EXPECT_GT(Num(small, "splitsrpt"), Num(small, "maxsrpt"));
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelOrderingsTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace mr::testing
