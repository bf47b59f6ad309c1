// The experiment's bound table (experiment/bounds.h): which bound an experiment's summary
// shows is read from its policies' traits and its cluster, never from a policy's name, and
// it survives report.json.
#include "experiment/bounds.h"

#include <gtest/gtest.h>

#include "experiment/report.h"
#include "scheduler/policy_table.h"

namespace mr::experiment {
namespace {

Experiment OnUnifiedSlots(std::vector<PolicyRun> policies) {
  Experiment e;
  e.cluster.groups.push_back({2, 0, 0, 1.0, 0, 3});  // 2 workers x 3 unified slots
  e.cluster.groups.push_back({1, 1, 1, 1.0, 0, 0});  // dedicated slots do not count
  e.policies = std::move(policies);
  return e;
}

PolicyRun Entry(const std::string& policy, std::map<std::string, std::string> options = {}) {
  PolicyRun p;
  p.policy = p.label = policy;
  p.options = std::move(options);
  return p;
}

TEST(BoundsTest, TheSlottedBoundIsOverTheUnifiedSlotsInTheRoundOfTheFirstPolicyWithOne) {
  BoundSpec b = SelectBound(OnUnifiedSlots({Entry("fifo"), Entry("asrpt", {{"asrpt-round", "250ms"}}), Entry("lrpt")}));
  EXPECT_EQ(b.kind, sched::Bound::kSlottedSrpt);
  EXPECT_EQ(b.machines, 6);
  EXPECT_DOUBLE_EQ(b.round, 0.25);
  // asrpt without the option: its default (1s); no policy with a round option: 1 s.
  EXPECT_DOUBLE_EQ(SelectBound(OnUnifiedSlots({Entry("asrpt")})).round, 1);
  EXPECT_DOUBLE_EQ(SelectBound(OnUnifiedSlots({Entry("fifo"), Entry("fair")})).round, 1);
  EXPECT_EQ(SelectBound(OnUnifiedSlots({Entry("fifo")})).machines, 6);
  Experiment dedicated = OnUnifiedSlots({Entry("asrpt")});
  dedicated.cluster.groups.erase(dedicated.cluster.groups.begin());
  EXPECT_EQ(SelectBound(dedicated).machines, 0) << "no unified slots, no bound";
}

Result<std::unique_ptr<sched::Scheduler>> Fifo(std::string_view, const sched::PolicyOptions&) {
  return sched::CreateScheduler("fifo");
}

// Rows registered here, named nothing the code knows: one declares no bound, one declares
// the slotted bound and has a round option of its own.
TEST(BoundsTest, ThePoliciesTraitsSelectTheBoundAndItsRound) {
  static constexpr sched::OptionSpec kRound[] = {
      {"slotty-round", sched::OptionType::kDuration, "2s", "slot length", 0.001, 60}};
  const sched::PolicyRow unbounded = {"unbounded", "declares no bound", {}, Fifo};
  const sched::PolicyRow slotty = {"slotty", "a slotted policy", kRound, Fifo,
                                   {.round_option = "slotty-round", .bound = sched::Bound::kSlottedSrpt}};
  sched::ScopedPolicyRegistration r1(unbounded), r2(slotty);
  ASSERT_TRUE(r1.status().ok() && r2.status().ok());
  EXPECT_EQ(SelectBound(OnUnifiedSlots({Entry("unbounded")})).machines, 0) << "no policy declares a bound";
  BoundSpec b = SelectBound(OnUnifiedSlots({Entry("unbounded"), Entry("slotty")}));
  EXPECT_EQ(b.machines, 6);
  EXPECT_DOUBLE_EQ(b.round, 2);
  EXPECT_DOUBLE_EQ(SelectBound(OnUnifiedSlots({Entry("slotty", {{"slotty-round", "0.5s"}})})).round, 0.5);
}

TEST(BoundsTest, TheTableFindsItsRowsAndReportJsonKeepsTheBound) {
  for (const BoundRow& row : BoundTable()) {
    EXPECT_EQ(FindBound(row.kind), &row);
    EXPECT_EQ(FindBound(std::string_view(row.name)), &row);
    EXPECT_NE(row.compute, nullptr);
  }
  EXPECT_EQ(FindBound(sched::Bound::kNone), nullptr);
  EXPECT_EQ(FindBound(std::string_view("tandem")), nullptr);
  ReportSettings s;
  s.title = "t";
  s.bound = {4, 0.5, sched::Bound::kSlottedSrpt};
  std::string json = ReportSettingsJson(s);
  EXPECT_NE(json.find("\"bound\": \"slotted-srpt\""), std::string::npos) << json;
  Result<ReportSettings> back = ParseReportSettings(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->bound.kind, sched::Bound::kSlottedSrpt);
  // report.json from before the bound had a name: the slotted SRPT bound.
  std::string old = json;
  old.erase(old.find("\"bound\": \"slotted-srpt\","), std::string("\"bound\": \"slotted-srpt\",").size());
  back = ParseReportSettings(old);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << old;
  EXPECT_EQ(back->bound.kind, sched::Bound::kSlottedSrpt);
  std::string unknown = json;
  unknown.replace(unknown.find("slotted-srpt"), 12, "lunar");
  EXPECT_EQ(ParseReportSettings(unknown).status().message(), "report.json: unknown bound \"lunar\"");
}

}  // namespace
}  // namespace mr::experiment
