// synthetic: a job without input for scheduler experiments. Each map burns
// map_seconds of thread CPU (scaled by 1/speed) and emits about map_bytes of
// ~100-byte records with random 8-hex-digit keys; each reduce counts values per
// key ("key\tcount") and burns reduce_seconds. Real work, never sleeps.
#include <algorithm>
#include <charconv>

#include "common/clock.h"
#include "jobs/builtin_jobs.h"
#include "jobs/params.h"

namespace mr::jobs {

namespace {

constexpr size_t kRecordBytes = 100;  // key + value bytes per record
constexpr size_t kKeyBytes = 8;

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Spins a PRNG until the thread has used `seconds` of CPU or the task is cancelled;
// returns the PRNG state so the compiler cannot drop the loop. Tells `ctx` (if given) the
// share of the burn done.
uint64_t BurnCpu(double seconds, uint64_t state, const std::atomic<bool>* cancel, TaskContext* ctx = nullptr) {
  if (seconds <= 0) return state;
  const double start = ThreadCpuSeconds();
  const double until = start + seconds;
  double now = start;
  do {
    // Each output feeds the next state: without the dependency the compiler folds the
    // loop into one addition and the burn becomes a storm of clock_gettime system calls.
    for (int i = 0; i < 20000; ++i) state ^= SplitMix64(&state);
    now = ThreadCpuSeconds();
    if (ctx != nullptr) ctx->SetFraction(std::min(1.0, (now - start) / seconds));
  } while (now < until && !IsCancelled(cancel));
  return state;
}

Status Cancelled(const char* what) { return Status::Aborted(std::string(what) + " cancelled"); }

struct SyntheticConfig {
  double map_seconds = 0;
  uint64_t map_bytes = 0;
  double reduce_seconds = 0;
  uint64_t seed = 1;
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
    sink_ = BurnCpu(c_.map_seconds / speed_, c_.seed, cancel_, ctx_);
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
  explicit CountReducer(double seconds) : seconds_(seconds) {}
  Status Setup(TaskContext& ctx) override {
    double speed = ctx.speed() > 0 ? ctx.speed() : 1.0;
    sink_ = BurnCpu(seconds_ / speed, sink_, ctx.cancel_flag());
    return IsCancelled(ctx.cancel_flag()) ? Cancelled("synthetic reduce") : Status::Ok();
  }
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
  volatile uint64_t sink_ = 7;  // keeps the burn loop observable
};

class SyntheticJob final : public Job {
 public:
  // name: the job table row's (jobs/job_table.h); must outlive the object.
  SyntheticJob(std::string_view name, SyntheticConfig c) : name_(name), c_(c) {}
  std::string_view name() const override { return name_; }
  Result<JobPlan> Plan(const std::vector<std::string>&, uint32_t) const override {
    JobPlan plan;
    plan.uses_input = false;
    return plan;
  }
  Result<std::unique_ptr<Mapper>> NewMapper() const override {
    return std::unique_ptr<Mapper>(std::make_unique<SyntheticMapper>(c_));
  }
  Result<std::unique_ptr<Reducer>> NewReducer() const override {
    return std::unique_ptr<Reducer>(std::make_unique<CountReducer>(c_.reduce_seconds));
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
  return std::unique_ptr<Job>(std::make_unique<SyntheticJob>(name, c));
}

}  // namespace mr::jobs
