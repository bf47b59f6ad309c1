// mr_bench_shuffle: the real shuffle path on loopback, against the issue 6 targets
// (>= 1 GB/s per worker unthrottled; each job's rate within +-5% of its share throttled).
//
//   mr_bench_shuffle [--mode all|unthrottled|throttled] [--dir D]
//       unthrottled: [--runs N] [--partition-mib M] [--fetchers 1,2,4] [--rounds K]
//       throttled:   [--bandwidth-mbps C] [--shares 0.5,0.3,0.2] [--fetchers-per-job F]
//                    [--job-partition-kib P] [--chunk-kib K] [--seconds T] [--warmup W]
//                    [--throttled-runs N]
//
// A real ShuffleServer serves map-output files written under D (so their pages are in the
// page cache) and FetchPartition, the call the worker makes, writes each partition to a
// file under D. Unthrottled: c concurrent fetchers each fetch their own map's partition K
// times; rate = all bytes / wall time, median of N runs, and bytes per CPU-second of the
// whole process (fetchers + server + loopback), which a loaded machine disturbs less than
// wall time. Throttled: one job per share, each kept backlogged by F fetchers for T
// seconds, shares set with ShuffleServer::SetShares as the worker does; per job, the rate
// of bytes fetched after the warm-up against C x share / sum(shares).
// Exit status: 0, also when a target is missed; 1 on any error; 2 on bad options.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/crc32c.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/stats.h"
#include "common/status.h"
#include "shuffle/map_output.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/shuffle_server.h"

namespace {

namespace po = boost::program_options;
using mr::Median;
using mr::Result;
using mr::Status;
using mr::shuffle::FetchTarget;
using mr::shuffle::ShuffleServer;

constexpr double kFetchTimeoutSeconds = 30;
constexpr uint64_t kUnthrottledJob = 1;

struct Options {
  std::string mode = "all";
  std::string dir;
  int runs = 5;
  double partition_mib = 64;
  std::vector<int> fetchers = {1, 2, 4};
  int rounds = 3;
  double bandwidth_mbps = 100;
  std::vector<double> shares = {0.5, 0.3, 0.2};
  int fetchers_per_job = 2;
  double job_partition_kib = 1024;
  double chunk_kib = 256;
  double seconds = 6;
  double warmup = 1;
  int throttled_runs = 3;
};

double ProcessCpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// Real records (16-byte key, 1000-byte value) filling about `bytes`.
std::string MakeRecords(uint64_t bytes, uint64_t* records) {
  std::string data, value(1000, 'v');
  data.reserve(bytes + 1100);
  *records = 0;
  uint32_t x = 12345;
  while (data.size() < bytes) {
    for (auto& c : value) c = static_cast<char>('a' + (x = x * 1103515245 + 12345) % 26);
    char key[17];
    std::snprintf(key, sizeof(key), "k%015llu", static_cast<unsigned long long>(*records));
    mr::shuffle::AppendRecord(key, value, &data);
    ++*records;
  }
  return data;
}

// One map output whose partition 0 is `data`; partition 1 is empty, as a real index has
// several partitions.
Status WriteMapOutput(const std::string& work, uint64_t job, uint32_t map, const std::string& data,
                      uint64_t records) {
  mr::shuffle::MapOutputIndex index;
  index.partitions = {{0, data.size(), records, mr::crc32c::Value(data)}, {data.size(), 0, 0, 0}};
  MR_RETURN_IF_ERROR(mr::MakeDirs(mr::shuffle::MapOutputDir(work, job)));
  MR_RETURN_IF_ERROR(
      mr::WriteStringToFile(mr::shuffle::MapOutputDataPath(work, job, map, 0), data));
  return index.WriteTo(mr::shuffle::MapOutputIndexPath(work, job, map, 0));
}

Result<std::unique_ptr<ShuffleServer>> StartServer(const std::string& work, double bandwidth,
                                                   double chunk_bytes) {
  mr::shuffle::ShuffleServerOptions opts;
  opts.work_dir = work;
  opts.bandwidth = bandwidth;
  opts.throttled_chunk_bytes = static_cast<uint64_t>(chunk_bytes);
  return ShuffleServer::Start(opts);
}

FetchTarget Target(const ShuffleServer& s, uint64_t job, uint32_t map) {
  return FetchTarget{"127.0.0.1", s.port(), job, map, 0, 0};
}

// ---- unthrottled ----

struct RunResult {
  double seconds = 0;
  double cpu_seconds = 0;
  uint64_t bytes = 0;
};

// `fetchers` threads, thread i fetching map i's partition `rounds` times.
Result<RunResult> FetchConcurrently(const ShuffleServer& server, int fetchers, int rounds,
                                    uint64_t expect, const std::string& out) {
  std::vector<Status> errors(static_cast<size_t>(fetchers));
  auto dest = [&](int i, int r) {
    return mr::JoinPath(out, "f" + std::to_string(i) + "-" + std::to_string(r));
  };
  // A worker deletes fetched runs after the reduce, not during the fetch, and never fetches
  // onto an existing file: so every fetch here gets a fresh name, cleared before timing.
  for (int i = 0; i < fetchers; ++i) {
    for (int r = 0; r < rounds; ++r) (void)::unlink(dest(i, r).c_str());
  }
  std::vector<std::thread> threads;
  double cpu0 = ProcessCpuSeconds(), t0 = mr::MonotonicSeconds();
  for (int i = 0; i < fetchers; ++i) {
    threads.emplace_back([&, i] {
      for (int r = 0; r < rounds && errors[static_cast<size_t>(i)].ok(); ++r) {
        auto got =
            mr::shuffle::FetchPartition(Target(server, kUnthrottledJob, static_cast<uint32_t>(i)),
                                        dest(i, r), kFetchTimeoutSeconds);
        if (!got.ok())
          errors[static_cast<size_t>(i)] = got.status();
        else if (got->bytes != expect)
          errors[static_cast<size_t>(i)] = Status::Internal("wrong length fetched");
      }
    });
  }
  for (auto& t : threads) t.join();
  RunResult r{mr::MonotonicSeconds() - t0, ProcessCpuSeconds() - cpu0,
              expect * static_cast<uint64_t>(fetchers) * static_cast<uint64_t>(rounds)};
  for (const auto& e : errors) MR_RETURN_IF_ERROR(e);
  return r;
}

// A fetched file must equal the source byte for byte (checked once per configuration).
Status CheckFetched(const std::string& path, const std::string& expect) {
  MR_ASSIGN_OR_RETURN(std::string got, mr::ReadFileToString(path));
  if (got != expect) return Status::Internal("fetched bytes differ from the map output: " + path);
  return Status::Ok();
}

Status RunUnthrottled(const Options& o, const std::string& work, const std::string& out) {
  uint64_t records = 0;
  std::string data = MakeRecords(static_cast<uint64_t>(o.partition_mib * 1048576), &records);
  int most = *std::max_element(o.fetchers.begin(), o.fetchers.end());
  for (int m = 0; m < most; ++m) {
    MR_RETURN_IF_ERROR(
        WriteMapOutput(work, kUnthrottledJob, static_cast<uint32_t>(m), data, records));
  }
  MR_ASSIGN_OR_RETURN(auto server, StartServer(work, 0, 256 << 10));
  std::printf("\nunthrottled: partition %.1f MiB, %d fetch(es) per fetcher per run, %d runs\n",
              data.size() / 1048576.0, o.rounds, o.runs);
  std::printf("%8s %12s %8s %8s %14s\n", "fetchers", "GB/s median", "min", "max", "GB per CPU-s");
  for (int c : o.fetchers) {
    MR_RETURN_IF_ERROR(FetchConcurrently(*server, c, 1, data.size(), out).status());  // warm-up
    MR_RETURN_IF_ERROR(CheckFetched(mr::JoinPath(out, "f0-0"), data));
    std::vector<double> rates, per_cpu;
    for (int run = 0; run < o.runs; ++run) {
      MR_ASSIGN_OR_RETURN(RunResult r, FetchConcurrently(*server, c, o.rounds, data.size(), out));
      rates.push_back(r.bytes / r.seconds / 1e9);
      per_cpu.push_back(r.bytes / std::max(r.cpu_seconds, 1e-6) / 1e9);
    }
    std::printf("%8d %12.3f %8.3f %8.3f %14.3f\n", c, Median(rates),
                *std::min_element(rates.begin(), rates.end()),
                *std::max_element(rates.begin(), rates.end()), Median(per_cpu));
    std::fflush(stdout);
  }
  return Status::Ok();
}

// ---- throttled ----

struct Completion {
  double time;
  uint64_t bytes;
};

// Keeps `job` backlogged with `fetchers` threads until `end`; returns each fetch's end time.
void FetchUntil(const ShuffleServer& server, uint64_t job, int fetchers, double end,
                const std::string& out, std::vector<Completion>* done, Status* error) {
  std::vector<std::vector<Completion>> logs(static_cast<size_t>(fetchers));
  std::vector<Status> errors(static_cast<size_t>(fetchers));
  std::vector<std::thread> threads;
  for (int i = 0; i < fetchers; ++i) {
    threads.emplace_back([&, i] {
      std::string dest = mr::JoinPath(out, "j" + std::to_string(job) + "-" + std::to_string(i));
      auto& err = errors[static_cast<size_t>(i)];
      while (err.ok() && mr::MonotonicSeconds() < end) {
        auto got = mr::shuffle::FetchPartition(Target(server, job, static_cast<uint32_t>(i)), dest,
                                               kFetchTimeoutSeconds);
        if (got.ok())
          logs[static_cast<size_t>(i)].push_back({mr::MonotonicSeconds(), got->bytes});
        else
          err = got.status();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < logs.size(); ++i) {
    done->insert(done->end(), logs[i].begin(), logs[i].end());
    if (!errors[i].ok()) *error = errors[i];
  }
}

double RateIn(const std::vector<Completion>& done, double from, double to) {
  uint64_t bytes = 0;
  for (const auto& c : done) bytes += (c.time > from && c.time <= to) ? c.bytes : 0;
  return bytes / (to - from);
}

struct JobRow {
  double assigned = 0, measured = 0, granted = 0;
};

Result<std::vector<JobRow>> ThrottledRun(const Options& o, ShuffleServer& server,
                                         const std::string& out) {
  size_t jobs = o.shares.size();
  double sum = 0;
  for (double s : o.shares) sum += s;
  std::vector<std::vector<Completion>> done(jobs);
  std::vector<Status> errors(jobs);
  double t0 = mr::MonotonicSeconds(), end = t0 + o.seconds;
  std::vector<std::thread> threads;
  for (size_t j = 0; j < jobs; ++j) {
    threads.emplace_back([&, j] {
      FetchUntil(server, 100 + j, o.fetchers_per_job, end, out, &done[j], &errors[j]);
    });
  }
  // The limiter's own count over the same window: what it granted, before the socket buffers.
  std::this_thread::sleep_until(std::chrono::steady_clock::now() +
                                std::chrono::duration<double>(o.warmup));
  auto granted0 = server.bytes_sent_by_job();
  double g0 = mr::MonotonicSeconds();
  std::this_thread::sleep_until(
      std::chrono::steady_clock::now() +
      std::chrono::duration<double>(std::max(0.0, end - mr::MonotonicSeconds())));
  auto granted1 = server.bytes_sent_by_job();
  double g1 = mr::MonotonicSeconds();
  for (auto& t : threads) t.join();
  std::vector<JobRow> rows(jobs);
  for (size_t j = 0; j < jobs; ++j) {
    MR_RETURN_IF_ERROR(errors[j]);
    rows[j].assigned = o.bandwidth_mbps * 1e6 * o.shares[j] / sum;
    rows[j].measured = RateIn(done[j], t0 + o.warmup, end);
    rows[j].granted = (granted1[100 + j] - granted0[100 + j]) / (g1 - g0);
  }
  return rows;
}

double ErrorPct(double got, double want) { return (got / want - 1) * 100; }

Status RunThrottled(const Options& o, const std::string& work, const std::string& out) {
  uint64_t records = 0;
  std::string data = MakeRecords(static_cast<uint64_t>(o.job_partition_kib * 1024), &records);
  for (size_t j = 0; j < o.shares.size(); ++j) {
    for (int m = 0; m < o.fetchers_per_job; ++m) {
      MR_RETURN_IF_ERROR(WriteMapOutput(work, 100 + j, static_cast<uint32_t>(m), data, records));
    }
  }
  MR_ASSIGN_OR_RETURN(auto server, StartServer(work, o.bandwidth_mbps * 1e6, o.chunk_kib * 1024));
  std::map<uint64_t, double> shares;
  for (size_t j = 0; j < o.shares.size(); ++j) shares[100 + j] = o.shares[j];
  server->SetShares(shares);
  std::printf(
      "\nthrottled: capacity %.1f MB/s, chunk %.0f KiB, partition %.0f KiB, %d fetchers per job, "
      "window %.1f..%.1f s\n",
      o.bandwidth_mbps, o.chunk_kib, data.size() / 1024.0, o.fetchers_per_job, o.warmup, o.seconds);
  std::printf("%3s %4s %6s %14s %14s %8s %13s %8s\n", "run", "job", "share", "assigned MB/s",
              "fetched MB/s", "error %", "granted MB/s", "error %");
  double worst = 0;
  for (int run = 0; run < o.throttled_runs; ++run) {
    MR_ASSIGN_OR_RETURN(auto rows, ThrottledRun(o, *server, out));
    double total = 0;
    for (size_t j = 0; j < rows.size(); ++j) {
      const auto& r = rows[j];
      worst = std::max(worst, std::abs(ErrorPct(r.measured, r.assigned)));
      total += r.measured;
      std::printf("%3d %4zu %6.2f %14.2f %14.2f %+8.2f %13.2f %+8.2f\n", run + 1, 100 + j,
                  o.shares[j], r.assigned / 1e6, r.measured / 1e6, ErrorPct(r.measured, r.assigned),
                  r.granted / 1e6, ErrorPct(r.granted, r.assigned));
    }
    std::printf("%3d %4s %6s %14.2f %14.2f %+8.2f\n", run + 1, "all", "", o.bandwidth_mbps,
                total / 1e6, ErrorPct(total, o.bandwidth_mbps * 1e6));
    std::fflush(stdout);
  }
  std::printf("largest per-job error of fetched rate: %.2f %% (target: within 5 %%)\n", worst);
  return Status::Ok();
}

// ---- command line ----

template <typename T>
Result<std::vector<T>> ParseList(const std::string& text, const char* flag) {
  std::vector<T> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = std::min(text.find(',', pos), text.size());
    try {
      size_t used = 0;
      std::string item = text.substr(pos, comma - pos);
      double v = std::stod(item, &used);
      if (used != item.size() || !(v > 0)) throw std::invalid_argument(item);
      out.push_back(static_cast<T>(v));
    } catch (const std::exception&) {
      return Status::InvalidArgument(std::string("--") + flag +
                                     ": expected positive numbers separated by commas, got '" +
                                     text + "'");
    }
    pos = comma + 1;
  }
  return out;
}

Result<Options> ParseOptions(int argc, char** argv) {
  Options o;
  std::string fetchers = "1,2,4", shares = "0.5,0.3,0.2";
  po::options_description desc("mr_bench_shuffle options");
  desc.add_options()("help", "this text")("mode", po::value(&o.mode)->default_value(o.mode),
                                          "all | unthrottled | throttled")(
      "dir", po::value(&o.dir), "scratch directory (default: a temporary one)")(
      "runs", po::value(&o.runs)->default_value(o.runs), "unthrottled runs per configuration")(
      "partition-mib", po::value(&o.partition_mib)->default_value(o.partition_mib),
      "unthrottled partition size")("fetchers", po::value(&fetchers)->default_value(fetchers),
                                    "concurrent fetcher counts")(
      "rounds", po::value(&o.rounds)->default_value(o.rounds), "fetches per fetcher per run")(
      "bandwidth-mbps", po::value(&o.bandwidth_mbps)->default_value(o.bandwidth_mbps),
      "throttled capacity, MB/s")("shares", po::value(&shares)->default_value(shares),
                                  "one job per share")(
      "fetchers-per-job", po::value(&o.fetchers_per_job)->default_value(o.fetchers_per_job),
      "throttled")("job-partition-kib",
                   po::value(&o.job_partition_kib)->default_value(o.job_partition_kib),
                   "throttled")("chunk-kib", po::value(&o.chunk_kib)->default_value(o.chunk_kib),
                                "server's throttled chunk")(
      "seconds", po::value(&o.seconds)->default_value(o.seconds), "throttled run length")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup), "throttled: seconds not measured")(
      "throttled-runs", po::value(&o.throttled_runs)->default_value(o.throttled_runs),
      "throttled runs");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Status::InvalidArgument(e.what());
  }
  if (vm.count("help")) {
    std::printf("%s", (std::ostringstream() << desc).str().c_str());
    std::exit(0);
  }
  if (o.mode != "all" && o.mode != "unthrottled" && o.mode != "throttled") {
    return Status::InvalidArgument("--mode must be all, unthrottled or throttled, got '" + o.mode +
                                   "'");
  }
  if (o.runs < 1 || o.rounds < 1 || o.fetchers_per_job < 1 || o.throttled_runs < 1 ||
      !(o.partition_mib > 0) || !(o.bandwidth_mbps > 0) || !(o.job_partition_kib > 0) ||
      !(o.chunk_kib > 0) || !(o.warmup >= 0) || !(o.seconds > o.warmup)) {
    return Status::InvalidArgument("counts and sizes must be positive and --seconds > --warmup");
  }
  MR_ASSIGN_OR_RETURN(o.fetchers, ParseList<int>(fetchers, "fetchers"));
  MR_ASSIGN_OR_RETURN(o.shares, ParseList<double>(shares, "shares"));
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  auto opts = ParseOptions(argc, argv);
  if (!opts.ok()) {
    std::fprintf(stderr, "mr_bench_shuffle: %s\n", opts.status().message().c_str());
    return 2;
  }
  mr::TempDir tmp("mr-bench-shuffle");
  std::string root = opts->dir.empty() ? tmp.path() : opts->dir;
  std::string work = mr::JoinPath(root, "work"), out = mr::JoinPath(root, "fetched");
  Status s = mr::MakeDirs(out);
  if (s.ok() && opts->mode != "throttled") s = RunUnthrottled(*opts, work, out);
  if (s.ok() && opts->mode != "unthrottled") s = RunThrottled(*opts, work, out);
  if (!s.ok()) {
    std::fprintf(stderr, "mr_bench_shuffle: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
