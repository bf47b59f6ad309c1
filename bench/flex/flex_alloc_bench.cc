// mr_flex_alloc_bench: time of one FLEX decision (flex::Allocate) per metric, on instances of
// the paper's simulation scaled up (issue 25 target: p99 <= 10 ms with 100 jobs and 1,000
// slots). Each decision gets a fresh instance (seed, index), so the times cover the spread of
// the workload, not one lucky case; instance generation is outside the timed region.
//
//   mr_flex_alloc_bench [--jobs 100] [--slots 1000] [--decisions 200] [--metric all|NAME]
//                       [--swap-rounds 0] [--step-solver breakpoints|paper-dp] [--wall]
//
// Prints one line per metric: decisions, median / p99 / max microseconds (thread CPU time,
// or wall-clock with --wall), and the orders that won. Do not run it while the machine builds.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "model/flex/flex_workload.h"
#include "scheduler/flex/allocator.h"

namespace {

struct Args {
  int jobs = 100;
  int slots = 1000;
  int decisions = 200;
  std::string metric = "all";
  int swap_rounds = 0;
  bool paper_dp = false;
  bool wall = false;
};

double NowMicros(bool wall) {
  if (wall) {
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(q * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

bool ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string f = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (f == "--wall") {
      a->wall = true;
    } else if ((f == "--jobs" || f == "--slots" || f == "--decisions" || f == "--metric" ||
                f == "--swap-rounds" || f == "--step-solver") &&
               (v = next()) != nullptr) {
      if (f == "--jobs") a->jobs = std::atoi(v);
      if (f == "--slots") a->slots = std::atoi(v);
      if (f == "--decisions") a->decisions = std::atoi(v);
      if (f == "--metric") a->metric = v;
      if (f == "--swap-rounds") a->swap_rounds = std::atoi(v);
      if (f == "--step-solver") a->paper_dp = std::strcmp(v, "paper-dp") == 0;
    } else {
      std::fprintf(stderr, "mr_flex_alloc_bench: bad argument '%s'\n", f.c_str());
      return false;
    }
  }
  return a->jobs > 0 && a->slots > 0 && a->decisions > 0;
}

int RunMetric(const Args& a, mr::flex::Metric metric) {
  mr::model::FlexWorkloadOptions w;
  w.jobs = a.jobs;
  w.slots = a.slots;
  w.metric = metric;
  // The simulation's load per slot (3,000 tasks on 100 slots: 30 waves of the whole pool).
  w.total_tasks = mr::model::FlexWorkloadOptions{}.total_tasks / 100.0 * a.slots;
  mr::flex::FlexOptions opt;
  opt.swap_rounds = a.swap_rounds;
  if (a.paper_dp) opt.step_solver = mr::flex::StepSolver::kPaperDp;
  std::vector<double> times;
  std::map<std::string, int> wins;
  for (int i = 0; i < a.decisions; ++i) {
    mr::flex::FlexProblem p = mr::model::MakeFlexInstance(w, i);
    double t0 = NowMicros(a.wall);
    auto d = mr::flex::Allocate(p, opt);
    double t1 = NowMicros(a.wall);
    if (!d.ok()) {
      std::fprintf(stderr, "mr_flex_alloc_bench: %s\n", d.status().ToString().c_str());
      return 1;
    }
    times.push_back(t1 - t0);
    ++wins[d->order_name];
  }
  std::string won;
  for (const auto& [name, n] : wins) won += " " + name + "=" + std::to_string(n);
  std::printf("%-22s %5d %10.1f %10.1f %10.1f %s\n",
              std::string(mr::flex::MetricName(metric)).c_str(), a.decisions, Quantile(times, 0.5),
              Quantile(times, 0.99), *std::max_element(times.begin(), times.end()), won.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!ParseArgs(argc, argv, &a)) return 2;
  std::printf("# %d jobs, %d slots, swap rounds %d, step solver %s, %s time\n", a.jobs, a.slots,
              a.swap_rounds, a.paper_dp ? "paper-dp" : "breakpoints",
              a.wall ? "wall-clock" : "thread CPU");
  std::printf("%-22s %5s %10s %10s %10s %s\n", "metric", "n", "p50_us", "p99_us", "max_us",
              "orders that won");
  for (const mr::flex::MetricInfo& info : mr::flex::MetricTable()) {
    if (a.metric != "all" && a.metric != info.name) continue;
    if (int rc = RunMetric(a, info.metric); rc != 0) return rc;
  }
  return 0;
}
