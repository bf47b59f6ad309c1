#include "jobs/synthetic_work.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "common/clock.h"

namespace mr::jobs {

namespace {

uint64_t BurnCpu(double seconds, uint64_t state, const std::atomic<bool>* cancel, TaskContext* ctx) {
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

// Waits in steps of at most kTick so that a cancel is seen within one step.
void HoldWithoutCpu(double seconds, const std::atomic<bool>* cancel, TaskContext* ctx) {
  constexpr double kTick = 0.01;
  const double start = MonotonicSeconds();
  const double until = start + seconds;
  double now = start;
  while (now < until && !IsCancelled(cancel)) {
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(kTick, until - now)));
    now = MonotonicSeconds();
    if (ctx != nullptr) ctx->SetFraction(std::min(1.0, (now - start) / seconds));
  }
}

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Result<SyntheticWork> ParseSyntheticWork(std::string_view text) {
  if (text == "burn") return SyntheticWork::kBurn;
  if (text == "sleep") return SyntheticWork::kSleep;
  return Status::InvalidArgument("synthetic: parameter work must be burn or sleep, got '" + std::string(text) + "'");
}

uint64_t DoSyntheticWork(SyntheticWork mode, double seconds, uint64_t state, const std::atomic<bool>* cancel,
                         TaskContext* ctx) {
  if (seconds <= 0) return state;
  if (mode == SyntheticWork::kBurn) return BurnCpu(seconds, state, cancel, ctx);
  HoldWithoutCpu(seconds, cancel, ctx);
  return state;
}

}  // namespace mr::jobs
