// The job table (jobs/job_table.h): each row is a job's name, summary, flags and factory.
// Adding a job means one file for its class and factory and one row here.
#include "jobs/job_table.h"

#include <vector>

#include "jobs/builtin_jobs.h"
#include "jobs/params.h"

namespace mr::jobs {
namespace {

constexpr JobFlag kGrepFlags[] = {
    {"pattern", JobFlagType::kString, nullptr, "extended regular expression", "pattern"},
};

constexpr JobFlag kSyntheticFlags[] = {
    {"maps", JobFlagType::kUint, "0", "number of map tasks", kNumMapsParam},
    {"map-seconds", JobFlagType::kString, nullptr, "CPU seconds per map", "map_seconds"},
    {"map-bytes", JobFlagType::kBytes, nullptr, "bytes emitted per map", "map_bytes"},
    {"reduce-seconds", JobFlagType::kString, nullptr, "CPU seconds per reduce", "reduce_seconds"},
    {"seed", JobFlagType::kString, nullptr, "random seed", "seed"},
    {"work", JobFlagType::kString, nullptr,
     "burn (default): work burns CPU; sleep: a task holds its slot for its work time without "
     "CPU, an emulation for clusters with more slots than cores",
     "work"},
};

constexpr JobFlag kStreamingFlags[] = {
    {"mapper", JobFlagType::kString, nullptr, "mapper command (a /bin/sh command line)", "mapper"},
    {"reducer", JobFlagType::kString, nullptr, "reducer command (default: the identity reducer)", "reducer"},
    {"combiner", JobFlagType::kString, nullptr, "combiner command, run on each sorted run of a map's output",
     "combiner"},
    {"hadoop-conf", JobFlagType::kString, nullptr,
     "Hadoop properties, KEY=VALUE one per line (docs/streaming.md); mr hadoop jar fills it from -D", "conf"},
    {"cmdenv", JobFlagType::kString, nullptr, "NAME=VALUE for the programs' environment, one per line", "cmdenv"},
    {"files", JobFlagType::kString, nullptr,
     "files copied into each task's working directory, PATH[#NAME] one per line", "files"},
    {"dialect", JobFlagType::kString, nullptr,
     "mrlab (default: commands through /bin/sh -c, --split-size splits) or hadoop (as mr hadoop jar: Hadoop "
     "Streaming's command splitting and input splits)",
     "dialect"},
};

constexpr JobRow kJobs[] = {
    {"wordcount", "count the words of the input", {}, NewWordCountJob},
    {"sort", "sort the input lines bytewise, range-partitioned", {}, NewSortJob},
    {"grep", "lines matching a regular expression, in input order", kGrepFlags, NewGrepJob},
    {"synthetic", "maps and reduces that burn CPU (or hold their slot) and emit bytes, no input", kSyntheticFlags,
     NewSyntheticJob},
    {"streaming", "mapper, combiner and reducer are programs, as in Hadoop Streaming (docs/streaming.md)",
     kStreamingFlags, NewStreamingJob},
};

}  // namespace

std::span<const JobRow> JobTable() { return kJobs; }

const JobRow* FindJob(std::string_view name) {
  for (const JobRow& row : kJobs) {
    if (name == row.name) return &row;
  }
  return nullptr;
}

std::string JobNameList() {
  std::string list;
  for (const JobRow& row : kJobs) list += (list.empty() ? "" : ", ") + std::string(row.name);
  return list;
}

Result<std::unique_ptr<Job>> CreateJob(std::string_view name, const Params& params) {
  const JobRow* row = FindJob(name);
  if (row == nullptr) {
    return Status::NotFound("unknown job '" + std::string(name) + "' (known: " + JobNameList() + ")");
  }
  std::vector<std::string_view> known;
  for (const JobFlag& f : row->flags) {
    if (!IsGenericParam(f.param)) known.push_back(f.param);
  }
  MR_RETURN_IF_ERROR(CheckKnownParams(row->name, params, known));
  return row->create(row->name, params);
}

std::vector<std::string> KnownJobs() {
  std::vector<std::string> out;
  for (const JobRow& row : kJobs) out.emplace_back(row.name);
  return out;
}

}  // namespace mr::jobs
