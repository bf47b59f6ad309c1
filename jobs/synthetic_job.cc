// synthetic: a job without input for scheduler experiments. Each map spends
// map_seconds of work (scaled by 1/speed) and emits about map_bytes of ~100-byte
// records with random 8-hex-digit keys; each reduce counts values per key
// ("key\tcount") and spends reduce_seconds. The work burns thread CPU, or with
// work=sleep holds the slot as long without CPU (jobs/synthetic_work.h); the output
// is the same either way.
#include <algorithm>
#include <charconv>

#include "common/clock.h"
#include "jobs/builtin_jobs.h"
#include "jobs/params.h"
#include "jobs/synthetic_work.h"

namespace mr::jobs {

namespace {

constexpr size_t kRecordBytes = 100;  // key + value bytes per record
constexpr size_t kKeyBytes = 8;

Status Cancelled(const char* what) { return Status::Aborted(std::string(what) + " cancelled"); }

struct SyntheticConfig {
  double map_seconds = 0;
  uint64_t map_bytes = 0;
  double reduce_seconds = 0;
  uint64_t seed = 1;
  SyntheticWork work = SyntheticWork::kBurn;
};

class SyntheticMapper final : public Mapper {
 public:
  explicit SyntheticMapper(SyntheticConfig c) : c_(c) {}
  Status Setup(TaskContext& ctx) override {
    speed_ = ctx.speed() > 0 ? ctx.speed() : 1.0;
    cancel_ = ctx.cancel_flag();
    ctx_ = &ctx;
    return Status::Ok();
  }
  void Map(const InputRecord&, Emitter&) override {}
  Status Finish(Emitter& out) override {
    sink_ = DoSyntheticWork(c_.work, c_.map_seconds / speed_, c_.seed, cancel_, ctx_);
    if (IsCancelled(cancel_)) return Cancelled("synthetic map");
    uint64_t state = c_.seed;  // keys depend on the seed only
    static constexpr char kHex[] = "0123456789abcdef";
    std::string filler(kRecordBytes - kKeyBytes, 'x');
    char key[kKeyBytes];
    for (uint64_t left = c_.map_bytes; left > 0;) {
      uint64_t r = SplitMix64(&state);
      for (size_t i = 0; i < kKeyBytes; ++i) key[i] = kHex[(r >> (4 * i)) & 15];
      size_t value_len = left >= kRecordBytes ? kRecordBytes - kKeyBytes
                                              : (left > kKeyBytes ? left - kKeyBytes : 0);
      out.Emit(std::string_view(key, kKeyBytes), std::string_view(filler.data(), value_len));
      left -= std::min<uint64_t>(left, kKeyBytes + value_len);
    }
    return Status::Ok();
  }

 private:
  std::string_view name_;
  SyntheticConfig c_;
  double speed_ = 1.0;
  const std::atomic<bool>* cancel_ = nullptr;
  TaskContext* ctx_ = nullptr;  // from Setup: the task's context outlives the mapper's calls
  volatile uint64_t sink_ = 0;  // keeps the burn loop observable
};

class CountReducer final : public Reducer {
 public:
  CountReducer(double seconds, SyntheticWork work) : seconds_(seconds), work_(work) {}
  Status Setup(TaskContext& ctx) override {
    double speed = ctx.speed() > 0 ? ctx.speed() : 1.0;
    // The work is the reduce's progress (SetFraction), as a synthetic map's is: without it
    // the attempt read 0% until its merge, and LATE took every reduce past the minimum age
    // for a straggler.
    sink_ = DoSyntheticWork(work_, seconds_ / speed, sink_, ctx.cancel_flag(), &ctx);
    return IsCancelled(ctx.cancel_flag()) ? Cancelled("synthetic reduce") : Status::Ok();
  }
  bool ReportsFraction() const override { return seconds_ > 0; }
  void Reduce(std::string_view key, ValueIterator& values, Emitter& out) override {
    uint64_t n = 0;
    std::string_view v;
    while (values.Next(&v)) ++n;
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, n);
    out.Emit(key, std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
  }

 private:
  double seconds_;
  SyntheticWork work_;
  volatile uint64_t sink_ = 7;  // keeps the burn loop observable
};

class SyntheticJob final : public Job {
 public:
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  SyntheticJob(std::string_view name, SyntheticConfig c) : name_(name), c_(c) {}
  std::string_view name() const override { return name_; }
  Result<JobPlan> Plan(const InputSource&, const std::vector<std::string>&, uint32_t) const override {
    JobPlan plan;
    plan.uses_input = false;
    return plan;
  }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<SyntheticMapper>(c_));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<CountReducer>(c_.reduce_seconds, c_.work));
  }

 private:
  std::string_view name_;
  SyntheticConfig c_;
};

}  // namespace

Result<std::unique_ptr<Job>> NewSyntheticJob(std::string_view name, const Params& params) {
  SyntheticConfig c;
  MR_ASSIGN_OR_RETURN(c.map_seconds, GetSecondsParam(params, "map_seconds", 0));
  MR_ASSIGN_OR_RETURN(c.map_bytes, GetBytesParam(params, "map_bytes", 0));
  MR_ASSIGN_OR_RETURN(c.reduce_seconds, GetSecondsParam(params, "reduce_seconds", 0));
  MR_ASSIGN_OR_RETURN(c.seed, GetUintParam(params, "seed", 1));
  if (auto it = params.find("work"); it != params.end()) {
    MR_ASSIGN_OR_RETURN(c.work, ParseSyntheticWork(it->second));
  }
  return std::unique_ptr<Job>(std::make_unique<SyntheticJob>(name, c));
}

}  // namespace mr::jobs
