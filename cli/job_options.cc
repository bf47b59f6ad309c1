#include "cli/job_options.h"

#include <unistd.h>

#include <algorithm>

#include "common/file_util.h"
#include "jobs/job.h"

namespace mr::cli {

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional) {
  desc.add_options()
      ("job", po::value<std::string>(), "job: wordcount, sort, grep, synthetic, streaming")
      ("input,i", po::value<std::vector<std::string>>()->multitoken(), "input files or directories")
      ("output,o", po::value<std::string>(), "output directory (must not exist)")
      ("reducers,r", po::value<uint32_t>()->default_value(1), "number of reduce tasks")
      ("split-size", po::value<std::string>()->default_value("32MiB"), "input split size")
      ("slow-start", po::value<double>()->default_value(0.05), "fraction of maps done before reducers start fetching")
      ("sort-buffer", po::value<std::string>()->default_value("100MiB"), "map-side sort buffer (as Hadoop's io.sort.mb)")
      ("name", po::value<std::string>(), "job name (default: the job kind)")
      ("pool", po::value<std::string>()->default_value(""), "fair scheduler pool")
      ("weight", po::value<double>()->default_value(1.0), "fair scheduler weight")
      ("hint-map-seconds", po::value<double>()->default_value(0), "size hint: total map slot-seconds")
      ("hint-shuffle-bytes", po::value<std::string>()->default_value("0"), "size hint: total shuffle bytes")
      ("pattern", po::value<std::string>(), "grep: extended regular expression")
      ("mapper", po::value<std::string>(), "streaming: mapper command")
      ("reducer", po::value<std::string>(), "streaming: reducer command")
      ("maps", po::value<uint32_t>()->default_value(0), "synthetic: number of map tasks")
      ("map-seconds", po::value<std::string>(), "synthetic: CPU seconds per map")
      ("map-bytes", po::value<std::string>(), "synthetic: bytes emitted per map")
      ("reduce-seconds", po::value<std::string>(), "synthetic: CPU seconds per reduce")
      ("seed", po::value<std::string>(), "synthetic: random seed")
      ("param", po::value<std::vector<std::string>>()->composing(), "extra job parameter KEY=VALUE");
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
}  // namespace

Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm) {
  proto::JobSpec spec;
  if (!vm.count("job")) return Status::InvalidArgument("which job? (known: wordcount, sort, grep, synthetic, streaming)");
  spec.set_job(vm["job"].as<std::string>());
  auto known = jobs::KnownJobs();
  if (std::find(known.begin(), known.end(), spec.job()) == known.end()) {
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status::NotFound("unknown job '" + spec.job() + "' (known: " + list + ")");
  }
  if (vm.count("input")) {
    for (const auto& in : vm["input"].as<std::vector<std::string>>()) {
      MR_RETURN_IF_ERROR(CheckInput(in));
      spec.add_inputs(AbsolutePath(in));
    }
  }
  if (!vm.count("output")) return Status::InvalidArgument("missing --output DIR");
  std::string out = AbsolutePath(vm["output"].as<std::string>());
  if (PathExists(out)) return Status::AlreadyExists("output directory " + out + " already exists");
  spec.set_output(out);
  spec.set_reducers(vm["reducers"].as<uint32_t>());
  if (spec.reducers() < 1 || spec.reducers() > 100000) return Status::InvalidArgument("--reducers must be in 1..100000");
  MR_ASSIGN_OR_RETURN(uint64_t split, ParseBytes(vm["split-size"].as<std::string>()));
  if (split == 0) return Status::InvalidArgument("--split-size must be positive");
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
  spec.set_hint_map_seconds(vm["hint-map-seconds"].as<double>());
  MR_ASSIGN_OR_RETURN(uint64_t hint_bytes, ParseBytes(vm["hint-shuffle-bytes"].as<std::string>()));
  spec.set_hint_shuffle_bytes(static_cast<double>(hint_bytes));
  spec.set_num_maps(vm["maps"].as<uint32_t>());
  auto& params = *spec.mutable_params();
  for (const char* key : {"pattern", "mapper", "reducer"}) {
    if (vm.count(key)) params[key] = vm[key].as<std::string>();
  }
  const std::pair<const char*, const char*> synthetic[] = {
      {"map-seconds", "map_seconds"}, {"map-bytes", "map_bytes"}, {"reduce-seconds", "reduce_seconds"}, {"seed", "seed"}};
  for (const auto& [flag, key] : synthetic) {
    if (vm.count(flag)) params[key] = vm[flag].as<std::string>();
  }
  if (params.count("map_bytes")) {
    MR_ASSIGN_OR_RETURN(uint64_t b, ParseBytes(params["map_bytes"]));
    params["map_bytes"] = std::to_string(b);
  }
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
