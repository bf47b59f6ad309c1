#include "cli/job_options.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "jobs/input_paths.h"
#include "jobs/job.h"
#include "jobs/job_table.h"

namespace mr::cli {

namespace {

// A job flag as `mr run` shows it: one per name, with every job that declares it.
struct JobFlagEntry {
  const jobs::JobFlag* flag;
  std::string jobs;  // the jobs that declare it: "JOB" or "JOB1, JOB2"
};

// The job table's flags, each name once, in table order. REQUIRES (tests/jobs/job_table_test.cc):
// jobs that share a flag name declare the same type, default and parameter.
std::vector<JobFlagEntry> JobFlagEntries() {
  std::vector<JobFlagEntry> out;
  for (const jobs::JobRow& row : jobs::JobTable()) {
    for (const jobs::JobFlag& f : row.flags) {
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const JobFlagEntry& e) { return std::string_view(e.flag->name) == f.name; });
      if (same != out.end()) {
        same->jobs += std::string(", ") + row.name;
      } else {
        out.push_back({&f, row.name});
      }
    }
  }
  return out;
}

}  // namespace

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional) {
  desc.add_options()
      ("job", po::value<std::string>(), ("job: " + jobs::JobNameList()).c_str())
      ("input,i", po::value<std::vector<std::string>>()->multitoken(),
       "input files, directories or quoted glob patterns ('data/*.txt': mr expands them, as "
       "Hadoop does); in a directory, names starting with '_' or '.' are skipped and "
       "subdirectories are read only with --recursive")
      ("recursive", po::bool_switch(), "read input directories' subdirectories too (hidden names skipped)")
      ("output,o", po::value<std::string>(), "output directory (must not exist)")
      ("reducers,r", po::value<uint32_t>()->default_value(1),
       "number of reduce tasks, 1..10000 (each is a task, a part file and a partition in every "
       "map's output: more would be bookkeeping, not work)")
      ("split-size", po::value<std::string>()->default_value("32MiB"),
       "input split size, at least 4KiB (smaller would turn one input into millions of maps)")
      ("slow-start", po::value<double>()->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start fetching")
      ("sort-buffer", po::value<std::string>()->default_value("100MiB"), "map-side sort buffer (as Hadoop's io.sort.mb)")
      ("name", po::value<std::string>(), "job name (default: the job kind)")
      ("pool", po::value<std::string>()->default_value(""), "fair scheduler pool")
      ("weight", po::value<double>()->default_value(1.0, "1"), "fair scheduler weight")
      ("hint-map-seconds", po::value<double>()->default_value(0), "size hint: total map slot-seconds")
      ("hint-shuffle-bytes", po::value<std::string>()->default_value("0"), "size hint: total shuffle bytes")
      ("hint-reduce-seconds", po::value<double>()->default_value(0),
       "size hint: total reduce slot-seconds (for policies that share unified slots, e.g. asrpt)")
      ("speculative", po::value<std::string>()->default_value("on"),
       "on: a slow running map or reduce may get a backup attempt on another worker (LATE, docs/speculation.md); "
       "off: never");
  for (const JobFlagEntry& e : JobFlagEntries()) {
    const jobs::JobFlag& f = *e.flag;
    std::string help = e.jobs + ": " + f.help;
    if (f.type == jobs::JobFlagType::kUint) {
      auto* value = po::value<uint32_t>();
      if (f.default_text != nullptr) value->default_value(static_cast<uint32_t>(std::stoul(f.default_text)));
      desc.add_options()(f.name, value, help.c_str());
    } else {
      auto* value = po::value<std::string>();
      if (f.default_text != nullptr) value->default_value(f.default_text);
      desc.add_options()(f.name, value, help.c_str());
    }
  }
  desc.add_options()("param", po::value<std::vector<std::string>>()->composing(), "extra job parameter KEY=VALUE");
  positional.add("job", 1);
}

namespace {
Status CheckInput(const std::string& path) {
  if (!PathExists(path)) return Status::NotFound("input " + path + " does not exist");
  if (!IsDirectory(path) && access(path.c_str(), R_OK) != 0) {
    return Status::PermissionDenied("input " + path + " is not readable");
  }
  return Status::Ok();
}

// A job-table flag the user gave (or that has a default): its parameter, or the number of maps.
Status ApplyJobFlag(const po::variables_map& vm, const jobs::JobFlag& f, proto::JobSpec* spec) {
  if (!vm.count(f.name)) return Status::Ok();
  std::string text;
  switch (f.type) {
    case jobs::JobFlagType::kUint:
      text = std::to_string(vm[f.name].as<uint32_t>());
      break;
    case jobs::JobFlagType::kString:
      text = vm[f.name].as<std::string>();
      break;
    case jobs::JobFlagType::kBytes: {
      MR_ASSIGN_OR_RETURN(uint64_t b, ParseBytes(vm[f.name].as<std::string>()));
      text = std::to_string(b);
      break;
    }
  }
  if (std::string_view(f.param) == jobs::kNumMapsParam) {
    spec->set_num_maps(vm[f.name].as<uint32_t>());
  } else {
    (*spec->mutable_params())[f.param] = text;
  }
  return Status::Ok();
}

}  // namespace

Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm) {
  proto::JobSpec spec;
  if (!vm.count("job")) return Status::InvalidArgument("which job? (known: " + jobs::JobNameList() + ")");
  spec.set_job(vm["job"].as<std::string>());
  auto known = jobs::KnownJobs();
  if (std::find(known.begin(), known.end(), spec.job()) == known.end()) {
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status::NotFound("unknown job '" + spec.job() + "' (known: " + list + ")");
  }
  if (vm.count("input")) {
    const bool recursive = vm.count("recursive") && vm["recursive"].as<bool>();
    MR_ASSIGN_OR_RETURN(std::vector<std::string> inputs,
                        jobs::ResolveInputs(vm["input"].as<std::vector<std::string>>(), recursive));
    for (const auto& in : inputs) {
      MR_RETURN_IF_ERROR(CheckInput(in));
      spec.add_inputs(AbsolutePath(in));
    }
  }
  if (!vm.count("output")) return Status::InvalidArgument("missing --output DIR");
  std::string out = AbsolutePath(vm["output"].as<std::string>());
  if (PathExists(out)) return Status::AlreadyExists("output directory " + out + " already exists");
  spec.set_output(out);
  spec.set_reducers(vm["reducers"].as<uint32_t>());
  if (spec.reducers() < 1 || spec.reducers() > jobs::kMaxReducers) {
    return Status::InvalidArgument("--reducers must be in 1.." + std::to_string(jobs::kMaxReducers));
  }
  MR_ASSIGN_OR_RETURN(uint64_t split, ParseBytes(vm["split-size"].as<std::string>()));
  if (split < jobs::kMinSplitBytes) {
    return Status::InvalidArgument("--split-size must be at least 4KiB (" + std::to_string(jobs::kMinSplitBytes) +
                                   " bytes)");
  }
  spec.set_split_bytes(split);
  spec.set_slow_start(vm["slow-start"].as<double>());
  if (spec.slow_start() < 0 || spec.slow_start() > 1) return Status::InvalidArgument("--slow-start must be in [0, 1]");
  MR_ASSIGN_OR_RETURN(uint64_t sort_buffer, ParseBytes(vm["sort-buffer"].as<std::string>()));
  if (sort_buffer < (64u << 10)) return Status::InvalidArgument("--sort-buffer must be at least 64KiB");
  spec.set_sort_buffer_bytes(sort_buffer);
  spec.set_name(vm.count("name") ? vm["name"].as<std::string>() : spec.job());
  spec.set_pool(vm["pool"].as<std::string>());
  spec.set_weight(vm["weight"].as<double>());
  if (spec.weight() <= 0) return Status::InvalidArgument("--weight must be positive");
  const std::string speculative = vm["speculative"].as<std::string>();
  if (speculative != "on" && speculative != "off") {
    return Status::InvalidArgument("--speculative must be on or off, not '" + speculative + "'");
  }
  spec.set_speculation_off(speculative == "off");
  for (const char* hint : {"hint-map-seconds", "hint-reduce-seconds"}) {
    const double v = vm[hint].as<double>();
    if (!std::isfinite(v) || v < 0) return Status::InvalidArgument(std::string("--") + hint + " must be a finite number >= 0");
  }
  spec.set_hint_map_seconds(vm["hint-map-seconds"].as<double>());
  spec.set_hint_reduce_seconds(vm["hint-reduce-seconds"].as<double>());
  MR_ASSIGN_OR_RETURN(uint64_t hint_bytes, ParseBytes(vm["hint-shuffle-bytes"].as<std::string>()));
  spec.set_hint_shuffle_bytes(static_cast<double>(hint_bytes));
  for (const JobFlagEntry& e : JobFlagEntries()) {
    MR_RETURN_IF_ERROR(ApplyJobFlag(vm, *e.flag, &spec));
  }
  auto& params = *spec.mutable_params();
  if (vm.count("param")) {
    for (const auto& kv : vm["param"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return Status::InvalidArgument("--param '" + kv + "' is not KEY=VALUE");
      params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  jobs::Params p(params.begin(), params.end());
  auto job = jobs::CreateJob(spec.job(), p);
  if (!job.ok()) return job.status();
  return spec;
}

}  // namespace mr::cli
