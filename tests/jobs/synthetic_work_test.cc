// The synthetic job's work modes (jobs/synthetic_work.h): `work=sleep` holds the task for
// its work time without CPU, gives the same output as the default burn, and stops on cancel.
#include "jobs/synthetic_work.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "jobs/job.h"

namespace mr::jobs {
namespace {

class Collect final : public Emitter {
 public:
  void Emit(std::string_view key, std::string_view value) override {
    out.append(key).append("\t").append(value).append("\n");
    pairs.emplace_back(key, value);
  }
  std::string out;
  std::vector<std::pair<std::string, std::string>> pairs;
};

class Values final : public ValueIterator {
 public:
  explicit Values(const std::vector<std::string>* v) : v_(v) {}
  bool Next(std::string_view* value) override {
    if (i_ == v_->size()) return false;
    *value = (*v_)[i_++];
    return true;
  }

 private:
  const std::vector<std::string>* v_;
  size_t i_ = 0;
};

class Context final : public TaskContext {
 public:
  void IncrementCounter(std::string_view, int64_t) override {}
  const std::atomic<bool>* cancel_flag() const override { return &cancel; }
  void SetFraction(double done) override { fraction = done; }
  std::atomic<bool> cancel{false};
  double fraction = -1;
};

// CPU seconds of the whole process (every thread), user + system.
double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

struct Outcome {
  std::string map_output;
  std::string reduce_output;
  double cpu = 0;   // process CPU seconds over the map and the reduce
  double wall = 0;  // monotonic seconds over the same
};

// One map and one reduce (over that map's output, grouped by key) of a synthetic job.
Outcome RunMapAndReduce(const Params& params) {
  Outcome o;
  auto job = CreateJob("synthetic", params);
  EXPECT_TRUE(job.ok()) << job.status().ToString();
  if (!job.ok()) return o;
  Context ctx;
  const double cpu0 = ProcessCpuSeconds(), wall0 = MonotonicSeconds();
  auto mapper = (*job)->NewMapper();
  EXPECT_TRUE(mapper.ok());
  EXPECT_TRUE((*mapper)->Setup(ctx).ok());
  Collect map_out;
  EXPECT_TRUE((*mapper)->Finish(map_out).ok());
  std::map<std::string, std::vector<std::string>> grouped;
  for (const auto& [k, v] : map_out.pairs) grouped[k].push_back(v);
  auto reducer = (*job)->NewReducer();
  EXPECT_TRUE(reducer.ok());
  EXPECT_TRUE((*reducer)->Setup(ctx).ok());
  Collect reduce_out;
  for (const auto& [k, vs] : grouped) {
    Values values(&vs);
    (*reducer)->Reduce(k, values, reduce_out);
  }
  EXPECT_TRUE((*reducer)->Finish(reduce_out).ok());
  o.cpu = ProcessCpuSeconds() - cpu0;
  o.wall = MonotonicSeconds() - wall0;
  o.map_output = map_out.out;
  o.reduce_output = reduce_out.out;
  EXPECT_EQ(ctx.fraction, 1.0) << "the map reports its work done";
  return o;
}

TEST(SyntheticWorkTest, SleepGivesTheSameOutputAsBurnWithoutBurningCpu) {
  Params params = {{"map_seconds", "0.4"}, {"map_bytes", "20000"}, {"reduce_seconds", "0.2"}, {"seed", "5"}};
  Outcome burn = RunMapAndReduce(params);
  params["work"] = "sleep";
  Outcome sleep = RunMapAndReduce(params);
  ASSERT_FALSE(burn.map_output.empty());
  EXPECT_EQ(sleep.map_output, burn.map_output);
  ASSERT_FALSE(burn.reduce_output.empty());
  EXPECT_EQ(sleep.reduce_output, burn.reduce_output);
  // 0.6 s of work: the burn uses (at least nearly) that much CPU, the sleep a small part of
  // it (wide margins: these are CPU seconds, not wall time), and still holds its thread
  // for the whole work time.
  EXPECT_GT(burn.cpu, 0.5);
  EXPECT_LT(sleep.cpu, 0.15);
  EXPECT_GE(sleep.wall, 0.6);
}

TEST(SyntheticWorkTest, SleepStopsOnCancel) {
  auto job = CreateJob("synthetic", {{"map_seconds", "60"}, {"work", "sleep"}});
  ASSERT_TRUE(job.ok());
  auto mapper = (*job)->NewMapper();
  ASSERT_TRUE(mapper.ok());
  Context ctx;
  ASSERT_TRUE((*mapper)->Setup(ctx).ok());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ctx.cancel.store(true);
  });
  Collect out;
  Status s = (*mapper)->Finish(out);
  canceller.join();
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  EXPECT_TRUE(out.out.empty()) << "a cancelled map emits nothing";
  EXPECT_LT(ctx.fraction, 1.0);
}

TEST(SyntheticWorkTest, UnknownModeIsRefusedNamingTheParameter) {
  auto job = CreateJob("synthetic", {{"work", "nap"}});
  ASSERT_EQ(job.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(job.status().message().find("work must be burn or sleep, got 'nap'"), std::string::npos)
      << job.status().message();
  EXPECT_TRUE(ParseSyntheticWork("burn").ok());
  EXPECT_EQ(*ParseSyntheticWork("sleep"), SyntheticWork::kSleep);
}

}  // namespace
}  // namespace mr::jobs
